package org.bftws.core.message;

import java.util.List;
import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;

/**
 * The answer to fetch-state (BFT-WS §3.3.1.8): the stable checkpoint at seq with its proof, the signed
 * checkpoint messages whose digests it must hash to. {@code checkpoint} is its ordering part, which every
 * replica holds; {@code execution} its execution part (cached replies and application state), sent only to
 * a replica that executes and empty otherwise (BFT-WS §3.3.2).
 */
public record StateTransfer(long seq, byte[] checkpoint, byte[] execution, List<Signed> proof) {
  public byte[] encode() {
    ByteWriter w = new ByteWriter(checkpoint.length + execution.length + 512).i64(seq).bytes(checkpoint)
        .bytes(execution);
    Codec.writeList(w, proof);
    return w.toBytes();
  }

  public static StateTransfer decode(byte[] body) {
    ByteReader r = new ByteReader(body);
    StateTransfer s = new StateTransfer(r.i64(), r.bytes(), r.bytes(), Codec.readList(r, Kind.CHECKPOINT));
    r.end();
    return s;
  }
}
