package org.bftws.core.message;

import java.util.List;
import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;

/**
 * The body of {@link Kind#EXECUTION_STATE}: an execution node's stable checkpoint at seq (BFT-WS §3.3.3;
 * Yin et al. SOSP'03 §3.3), its two parts as in {@link StateTransfer} (the client table's ordering part, and
 * the cached replies with the application state), and the proof: f+1 signed {@link
 * Kind#EXECUTION_CHECKPOINT} votes whose digests the parts must hash to.
 */
public record ExecutionState(long seq, byte[] ordering, byte[] execution, List<Signed> proof) {
  public byte[] encode() {
    ByteWriter w = new ByteWriter(ordering.length + execution.length + 512).i64(seq).bytes(ordering).bytes(execution);
    Codec.writeList(w, proof);
    return w.toBytes();
  }

  public static ExecutionState decode(byte[] body) {
    ByteReader r = new ByteReader(body);
    ExecutionState s = new ExecutionState(r.i64(), r.bytes(), r.bytes(), Codec.readList(r, Kind.EXECUTION_CHECKPOINT));
    r.end();
    return s;
  }
}
