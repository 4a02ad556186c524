package org.bftws.sim;

import java.security.SecureRandom;
import org.bftws.core.crypto.threshold.Dealt;
import org.bftws.core.crypto.threshold.GroupKey;
import org.bftws.core.crypto.threshold.SchemeId;
import org.bftws.core.crypto.threshold.ThresholdParams;
import org.bftws.core.crypto.threshold.Thresholds;
import org.bftws.core.message.Request;
import org.bftws.core.replication.ConfidentialConfig;
import org.bftws.core.replication.ConfidentialOperations;
import org.bftws.core.testkit.TestRandom;

/**
 * The simulator's confidential requests (SINTRA §2.6, {@code --confidential}): an operation is sealed iff its
 * first byte is TDH2's scheme code, which every encoded TDH2 ciphertext starts with and no plain operation of
 * such a run does ({@link #plain}); the whole operation is the ciphertext. The group's TDH2 key is dealt from
 * the seed alone, and each request is sealed with randomness drawn from the seed and its id, so a run replays.
 */
final class SealedOperations {
  static final ConfidentialOperations OPERATIONS = ConfidentialOperations.wholeOperation(SealedOperations::isSealed);
  private static final byte TAG = (byte) SchemeId.TDH2.code();

  /** The dealt keys (null when the group generated its key: replicas then have their own shares). */
  private final Dealt keys;
  private final GroupKey key;
  private final byte[] groupId;
  private final long seed;

  SealedOperations(long seed, ThresholdParams params, byte[] groupId) {
    this.seed = seed;
    this.groupId = groupId.clone();
    this.keys = Thresholds.keys(SchemeId.TDH2).deal(params, TestRandom.seeded(seed ^ 0x7464683244656165L));
    this.key = keys.group();
  }

  /** Sealing under a group's generated TDH2 key {@code key} ({@code --keys dkg}), as a client of group.pub. */
  SealedOperations(long seed, GroupKey key, byte[] groupId) {
    this.seed = seed;
    this.groupId = groupId.clone();
    this.keys = null;
    this.key = key;
  }

  static boolean isSealed(Request q) {
    return q.operation().length > 0 && q.operation()[0] == TAG;
  }

  /** A plain operation of a confidential run: its first byte made anything but the tag. */
  static byte[] plain(byte[] operation) {
    if (operation[0] == TAG) {
      operation[0] = (byte) (TAG + 1);
    }
    return operation;
  }

  /** Replica {@code id}'s material: the group key, its key share, the group id, these operations. */
  ConfidentialConfig replica(int id) {
    return new ConfidentialConfig(keys.group(), keys.share(id + 1), groupId, OPERATIONS);
  }

  /** {@code operation} sealed for request (sequenceId, number) of the group. */
  byte[] seal(String sequenceId, long number, byte[] operation) {
    SecureRandom random = TestRandom.seeded(seed * 0x9E3779B97F4A7C15L + number * 31 + sequenceId.hashCode());
    return ConfidentialConfig.seal(key, groupId, sequenceId, number, operation, random);
  }
}
