package org.bftws.core.message;

import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;

/** ⟨CHECKPOINT, n, d, i⟩ (Castro-Liskov §4.3): d is the digest of the state after executing n. */
public record Checkpoint(long seq, byte[] stateDigest) {
  public byte[] encode() {
    return new ByteWriter(40).i64(seq).raw(stateDigest).toBytes();
  }

  public static Checkpoint decode(byte[] body) {
    ByteReader r = new ByteReader(body);
    Checkpoint c = new Checkpoint(r.i64(), Codec.readDigest(r));
    r.end();
    return c;
  }
}
