package org.bftws.core.crypto.threshold;

import java.security.SecureRandom;
import java.util.List;

/**
 * Dealing and rebuilding the keys of one threshold scheme: what the coin and signature schemes ({@link
 * ThresholdScheme}) and the TDH2 cryptosystem ({@link Tdh2}) have in common.
 */
public interface ThresholdKeys {
  SchemeId id();

  /** Trusted dealer: a fresh key with a random polynomial of degree k−1 (docs/design/cryptography.md pitfall 1). */
  Dealt deal(ThresholdParams params, SecureRandom random);

  /** Rebuilds a group key from its parts, validating each; {@link IllegalArgumentException} names the part. */
  GroupKey groupKey(ThresholdParams params, byte[] common, List<byte[]> verificationKeys);

  /** Rebuilds a key share from its secret encoding, validating it. */
  KeyShare keyShare(ThresholdParams params, int index, byte[] secret);

  /**
   * Whether {@code share} matches verification key {@code share.index()} of the group (false also for a
   * share of another scheme or (n, k, t)).
   */
  boolean keyShareMatches(GroupKey group, KeyShare share);
}
