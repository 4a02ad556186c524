package org.bftws.core.message.hybrid;

import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;
import org.bftws.core.codec.DecodeException;

/**
 * A fast-lane PROPOSE: the leader's batch and its own prepare share on it, the signature a PREPARE of the
 * leader would carry on {@code pid.bind("prepare", seq || digest)}. The proposal stands for the leader's
 * prepare, as PBFT counts the primary's pre-prepare among the prepares of a prepared certificate
 * (Castro-Liskov §4.2), so the leader sends no PREPARE. Canonical: {@code bytes(batch) || bytes(share)}, the
 * batch as {@link LaneBatch#encode}, so the batch's digest is unchanged by the wrapping.
 */
public record LaneProposal(LaneBatch batch, byte[] share) {
  /** Longer than any signature share the group uses (Ed25519's are 64 bytes). */
  public static final int MAX_SHARE = 256;

  public byte[] encode() {
    byte[] b = batch.encode();
    return new ByteWriter(b.length + share.length + 8).bytes(b).bytes(share).toBytes();
  }

  /** A batch of at most {@code maxPayloads} requests and a share of 1 to {@link #MAX_SHARE} bytes. */
  public static LaneProposal decode(byte[] bytes, int maxPayloads) {
    ByteReader r = new ByteReader(bytes);
    LaneBatch batch = LaneBatch.decode(r.bytes(), maxPayloads);
    byte[] share = r.bytes();
    r.end();
    if (share.length == 0 || share.length > MAX_SHARE) {
      throw new DecodeException("lane proposal with a " + share.length + "-byte prepare share");
    }
    return new LaneProposal(batch, share);
  }
}
