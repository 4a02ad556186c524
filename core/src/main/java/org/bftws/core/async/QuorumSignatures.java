package org.bftws.core.async;

import java.util.Map;

/**
 * The certificate of a consistent broadcast (SINTRA §2.1, §2.2): a quorum of signature shares from distinct
 * parties combines into one transferable proof that any party can check without interaction. SINTRA offers a
 * threshold signature (Shoup's RSA, {@link ThresholdSignatures}) or a multi-signature, a vector of ordinary
 * signatures ({@link MultiSignature}), "with no change to the protocols that use threshold signatures".
 *
 * <p>Callers pass the bytes to sign already bound to their instance ({@link Pid#bind}), so a share or a
 * certificate of one instance never verifies in another.
 */
public interface QuorumSignatures {
  /** The number of shares from distinct parties that {@link #combine} needs. */
  int quorum();

  /** This replica's share on {@code message}. */
  byte[] share(byte[] message);

  /** Whether {@code share} is party {@code party}'s (0-based replica id) valid share on {@code message}. */
  boolean verifyShare(int party, byte[] message, byte[] share);

  /**
   * The certificate on {@code message} from {@link #quorum()} shares, each already accepted by {@link
   * #verifyShare}, keyed by party.
   *
   * @throws IllegalArgumentException fewer than {@link #quorum()} shares
   */
  byte[] combine(byte[] message, Map<Integer, byte[]> shares);

  /** Whether {@code certificate} is a valid certificate on {@code message}; false for any malformed bytes. */
  boolean verify(byte[] message, byte[] certificate);

  /** ⌈(n+f+1)/2⌉, the quorum of Reiter's echo broadcast: two quorums share a correct party. */
  static int echoQuorum(int n, int f) {
    return (n + f + 2) / 2;
  }
}
