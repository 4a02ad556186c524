package org.bftws.core.pbft;

import org.bftws.core.replication.CoinConfig;
import org.bftws.core.replication.Coins;
import org.bftws.core.replication.RandomizedOperations;

/**
 * How a replica group gets the collective random numbers of randomized requests (integrity paper §4–§5):
 * not at all, by threshold coin-tossing after commit (CT, with {@link CoinConfig}), or by Byzantine
 * agreement on 2f+1 contributions before prepare (BA, with an {@link Entropy} source), plain as in the
 * paper or hardened by commit-before-reveal. Every replica of a group must use the same algorithm.
 */
public record RandomnessConfig(Algorithm algorithm, CoinConfig coins, Entropy entropy,
    RandomizedOperations operations) {
  public enum Algorithm {
    /** Randomized requests are delivered with empty random numbers. */
    NONE,
    /** Threshold coin-tossing at commit (integrity paper §5); see {@link Coins}. */
    CT,
    /** The paper's BA algorithm (§4): contributions in the pre-prepare and pp-updates; see {@link Contributions}. */
    BA,
    /**
     * BA with commit-before-reveal: contributors first send H(i, n, j, d, R_ij, nonce_i), the primary fixes
     * 2f+1 commitments, only then are the values revealed (removes docs/design/cryptography.md's last-revealer and
     * subset-choice weaknesses; see {@link Contributions}).
     */
    BA_HARDENED;

    boolean agreement() {
      return this == BA || this == BA_HARDENED;
    }
  }

  /** CT's {@code coins} null: the coin keys come later ({@link #ctAwaitingKeys}). */
  public RandomnessConfig {
    if (algorithm.agreement() && entropy == null) {
      throw new IllegalArgumentException("the BA algorithm needs an entropy source");
    }
    if (operations == null) {
      throw new IllegalArgumentException("which operations are randomized must be known (RandomizedOperations)");
    }
  }

  /** This configuration with {@code ops} deciding which requests are randomized (default: the client's flag). */
  public RandomnessConfig withOperations(RandomizedOperations ops) {
    return new RandomnessConfig(algorithm, coins, entropy, ops);
  }

  public static RandomnessConfig none() {
    return new RandomnessConfig(Algorithm.NONE, null, null, RandomizedOperations.AS_FLAGGED);
  }

  /** CT with these coins; {@code null} coins give {@link #none()} (the historical constructor's meaning). */
  public static RandomnessConfig ct(CoinConfig coins) {
    return coins == null ? none() : new RandomnessConfig(Algorithm.CT, coins, null, RandomizedOperations.AS_FLAGGED);
  }

  /**
   * CT whose coin keys are installed while the group runs (a distributed key generation's outcome): the
   * engine needs {@code Replica.Builder#changingKeys}; randomized requests ordered before the keys serve get
   * empty random numbers.
   */
  public static RandomnessConfig ctAwaitingKeys() {
    return new RandomnessConfig(Algorithm.CT, null, null, RandomizedOperations.AS_FLAGGED);
  }

  public static RandomnessConfig ba(Entropy entropy) {
    return new RandomnessConfig(Algorithm.BA, null, entropy, RandomizedOperations.AS_FLAGGED);
  }

  public static RandomnessConfig baHardened(Entropy entropy) {
    return new RandomnessConfig(Algorithm.BA_HARDENED, null, entropy, RandomizedOperations.AS_FLAGGED);
  }
}
