package org.bftws.core.message;

import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;
import org.bftws.core.codec.DecodeException;

/**
 * ⟨CHECKPOINT, n, d, e, i⟩ (Castro-Liskov §4.3, split for BFT-WS §3.3.2): d is the digest of the ordering
 * state after executing n (the client table's ordering part), which every replica votes on; e the digest of
 * the execution state (cached replies and application state), which only replicas that execute vote on
 * ({@link #NO_EXECUTION} from a replica that only orders).
 */
public record Checkpoint(long seq, byte[] stateDigest, byte[] executionDigest) {
  /** The execution digest of a replica that holds no execution state. */
  public static final byte[] NO_EXECUTION = new byte[0];

  public boolean hasExecution() {
    return executionDigest.length > 0;
  }

  public byte[] encode() {
    ByteWriter w = new ByteWriter(80).i64(seq).raw(stateDigest).bool(hasExecution());
    if (hasExecution()) {
      w.raw(executionDigest);
    }
    return w.toBytes();
  }

  public static Checkpoint decode(byte[] body) {
    ByteReader r = new ByteReader(body);
    long seq = r.i64();
    byte[] d = Codec.readDigest(r);
    byte[] e = r.bool() ? Codec.readDigest(r) : NO_EXECUTION;
    r.end();
    if (d.length == 0) {
      throw new DecodeException("empty checkpoint digest");
    }
    return new Checkpoint(seq, d, e);
  }
}
