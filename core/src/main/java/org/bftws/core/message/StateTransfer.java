package org.bftws.core.message;

import java.util.List;
import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;

/**
 * The answer to fetch-state (BFT-WS §3.3.1.8): the whole stable checkpoint at seq with its proof, the
 * 2f+1 signed checkpoint messages whose digest it must hash to.
 */
public record StateTransfer(long seq, byte[] checkpoint, List<Signed> proof) {
  public byte[] encode() {
    ByteWriter w = new ByteWriter(checkpoint.length + 512).i64(seq).bytes(checkpoint);
    Codec.writeList(w, proof);
    return w.toBytes();
  }

  public static StateTransfer decode(byte[] body) {
    ByteReader r = new ByteReader(body);
    StateTransfer s = new StateTransfer(r.i64(), r.bytes(), Codec.readList(r, Kind.CHECKPOINT));
    r.end();
    return s;
  }
}
