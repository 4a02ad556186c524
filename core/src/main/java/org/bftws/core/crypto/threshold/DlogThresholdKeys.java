package org.bftws.core.crypto.threshold;

import java.security.SecureRandom;
import java.util.List;

/** The keys of the P-256 discrete-logarithm schemes (CKS coin, TDH2), dealt and rebuilt by {@link DlogKeys}. */
interface DlogThresholdKeys extends ThresholdKeys {
  @Override
  default Dealt deal(ThresholdParams params, SecureRandom random) {
    return DlogKeys.deal(id(), params, random);
  }

  @Override
  default GroupKey groupKey(ThresholdParams params, byte[] common, List<byte[]> verificationKeys) {
    return DlogKeys.groupKey(id(), params, common, verificationKeys);
  }

  @Override
  default KeyShare keyShare(ThresholdParams params, int index, byte[] secret) {
    return DlogKeys.keyShare(id(), params, index, secret);
  }

  @Override
  default boolean keyShareMatches(GroupKey group, KeyShare share) {
    return group.scheme() == id() && share.scheme() == id() && group.params().equals(share.params())
        && DlogKeys.matches(group, share);
  }
}
