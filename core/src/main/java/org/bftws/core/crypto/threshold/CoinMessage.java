package org.bftws.core.crypto.threshold;

import java.nio.charset.StandardCharsets;

/**
 * What the CT algorithm signs for the coin of one request (integrity paper §5: each replica signs "d||n", the
 * request digest and the sequence number), canonically encoded and bound to the replica group.
 *
 * <p>docs/design/cryptography.md pitfall 6: never include the view number — after a view change the same (n, d) must give the
 * same coin, or a Byzantine primary could force a second draw. The group id keeps two groups sharing a
 * dealer from sharing coins.
 */
public final class CoinMessage {
  private static final byte[] DOMAIN = "BFTWS-CT-coin-v1".getBytes(StandardCharsets.US_ASCII);

  private CoinMessage() {}

  /** Canonical bytes of (domain, group id, sequence number n, request digest d). */
  public static byte[] encode(byte[] groupId, long sequenceNumber, byte[] requestDigest) {
    if (sequenceNumber < 0) {
      throw new IllegalArgumentException("negative sequence number");
    }
    return new Codec.Writer().bytes(DOMAIN).bytes(groupId).u32((int) (sequenceNumber >>> 32))
        .u32((int) sequenceNumber).bytes(requestDigest).toByteArray();
  }
}
