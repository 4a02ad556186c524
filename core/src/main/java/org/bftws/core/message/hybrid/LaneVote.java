package org.bftws.core.message.hybrid;

import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;
import org.bftws.core.codec.DecodeException;
import org.bftws.core.crypto.Digests;

/**
 * A fast-lane PREPARE or COMMIT (Castro-Liskov §4.2) for the batch with this digest at seq. A PREPARE carries
 * the voter's signature share on {@code pid.bind("prepare", seq || digest)}, which a prepare certificate
 * collects; a COMMIT's share is empty (its envelope authenticates it, and no one shows it to a third party).
 * Canonical: {@code i64(seq) || bytes(digest) || bytes(share)}.
 */
public record LaneVote(long seq, byte[] digest, byte[] share) {
  public byte[] encode() {
    return new ByteWriter(share.length + 64).i64(seq).bytes(digest).bytes(share).toBytes();
  }

  public static LaneVote decode(byte[] bytes) {
    ByteReader r = new ByteReader(bytes);
    LaneVote v = new LaneVote(r.i64(), r.bytes(), r.bytes());
    r.end();
    if (v.seq < 1 || v.digest.length != Digests.LENGTH) {
      throw new DecodeException("lane vote at seq " + v.seq + " with a " + v.digest.length + "-byte digest");
    }
    return v;
  }

  /** What a PREPARE share signs (before the instance's {@code pid.bind}). */
  public static byte[] prepared(long seq, byte[] digest) {
    return new ByteWriter(48).i64(seq).raw(digest).toBytes();
  }
}
