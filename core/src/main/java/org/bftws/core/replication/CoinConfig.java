package org.bftws.core.replication;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.bftws.core.crypto.Digests;
import org.bftws.core.crypto.threshold.CoinMessage;
import org.bftws.core.crypto.threshold.GroupKey;
import org.bftws.core.crypto.threshold.KeyShare;
import org.bftws.core.crypto.threshold.ThresholdScheme;

/**
 * A replica's threshold-coin material for the CT algorithm (integrity paper §5): the scheme, the dealt
 * group key, this replica's key share (index = replica id + 1) and the group id bound into every coin. A
 * replica built without one ({@code null}) tosses no coins and delivers empty random numbers.
 *
 * <p>The static methods say what a random number is, so that embeddings, auditors and the simulator's
 * checker can recompute it from the group key and k shares.
 */
public record CoinConfig(ThresholdScheme scheme, GroupKey group, KeyShare share, byte[] groupId) {
  private static final byte[] PER_BATCH_TAG = "BFTWS-CT-batch-coin-request-v1".getBytes(StandardCharsets.US_ASCII);

  public CoinConfig {
    if (scheme.id() != group.scheme() || share.scheme() != group.scheme()) {
      throw new IllegalArgumentException("coin scheme, group key and key share must be of one scheme");
    }
    if (!share.params().equals(group.params()) || !scheme.keyShareMatches(group, share)) {
      throw new IllegalArgumentException("the key share was not dealt for this group key");
    }
    groupId = groupId.clone();
  }

  @Override
  public byte[] groupId() {
    return groupId.clone();
  }

  /** D(request): the digest of a request's canonical body (the signed bytes, without the signature). */
  public static byte[] requestDigest(byte[] requestBody) {
    return Digests.sha256(requestBody);
  }

  /** What is signed for the coin of the randomized request with this body, ordered at seq (§5: d||n). */
  public static byte[] requestCoinMessage(byte[] groupId, long seq, byte[] requestBody) {
    return CoinMessage.encode(groupId, seq, requestDigest(requestBody));
  }

  /** With {@code bftws.coinPerBatch}: what is signed for the coin of the batch with digest d at seq. */
  public static byte[] batchCoinMessage(byte[] groupId, long seq, byte[] batchDigest) {
    return CoinMessage.encode(groupId, seq, batchDigest);
  }

  /** With {@code bftws.coinPerBatch}: the random number of one request from its batch's coin. */
  public static byte[] perBatchRandom(byte[] batchCoin, byte[] requestBody) {
    return Digests.sha256(PER_BATCH_TAG, batchCoin, requestDigest(requestBody));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof CoinConfig c && c.scheme == scheme && c.group == group && c.share == share
        && Arrays.equals(c.groupId, groupId);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(groupId);
  }

  @Override
  public String toString() {
    return "CoinConfig(" + scheme.id().label() + ", share " + share.index() + ")";
  }
}
