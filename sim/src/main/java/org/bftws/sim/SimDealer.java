package org.bftws.sim;

import java.nio.charset.StandardCharsets;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import org.bftws.core.crypto.threshold.Dealt;
import org.bftws.core.crypto.threshold.SchemeId;
import org.bftws.core.crypto.threshold.ShoupRsa;
import org.bftws.core.crypto.threshold.ThresholdParams;
import org.bftws.core.crypto.threshold.ThresholdScheme;
import org.bftws.core.crypto.threshold.Thresholds;
import org.bftws.core.replication.CoinConfig;

/**
 * The simulator's trusted dealer of threshold coins, deterministic per seed: a DRBG seeded from the seed alone
 * (not from the run's random source, so runs without randomness keep their schedules).
 */
final class SimDealer {
  /** RSA modulus size in the simulator: small for speed (dealing safe primes per seed), never for real keys. */
  static final int SIM_RSA_BITS = 512;

  private SimDealer() {
  }

  /**
   * The CT algorithm's coins: each replica's material into {@code out} (index i: replica i), and the checker's
   * oracle. RSA uses 512-bit moduli (two 256-bit safe primes), insecure but fast enough to deal per seed; CKS
   * and BLS use their real curves. With {@code --keys}, the keys scripts/keygen wrote.
   */
  static Checker.CoinOracle dealCoins(SimOptions o, CoinConfig[] out) {
    byte[] groupId = ("urn:bftws:sim-group-" + o.seed()).getBytes(StandardCharsets.US_ASCII);
    if (o.keys() != null) {
      return coins(o, o.keys().group().thresholdScheme(), o.keys().dealt(), groupId, out);
    }
    ThresholdScheme scheme = o.scheme() == SchemeId.RSA ? new ShoupRsa(SIM_RSA_BITS) : Thresholds.scheme(o.scheme());
    return coins(o, scheme, scheme.deal(ThresholdParams.forF(o.f()), dealerRandom(o)), groupId, out);
  }

  /**
   * Asynchronous ordering: the (n, f+1, f) CKS threshold coin of binary agreement (SINTRA §2.1), dealt
   * from the seed alone as the CT algorithm's keys are.
   */
  static CoinConfig[] dealAsyncCoins(SimOptions o) {
    CoinConfig[] out = new CoinConfig[o.n()];
    ThresholdScheme cks = Thresholds.scheme(SchemeId.CKS);
    byte[] groupId = ("urn:bftws:sim-abc-" + o.seed()).getBytes(StandardCharsets.US_ASCII);
    coins(o, cks, cks.deal(ThresholdParams.forF(o.f()), dealerRandom(o)), groupId, out);
    return out;
  }

  /** The dealer's randomness: a DRBG seeded from the seed alone. */
  private static SecureRandom dealerRandom(SimOptions o) {
    SecureRandom dealerRandom;
    try {
      dealerRandom = SecureRandom.getInstance("SHA1PRNG");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
    dealerRandom.setSeed(("bftws-sim-dealer-" + o.seed()).getBytes(StandardCharsets.US_ASCII));
    return dealerRandom;
  }

  /** Each replica's coin material from the dealt keys (share i+1 to replica i), and the checker's oracle. */
  private static Checker.CoinOracle coins(SimOptions o, ThresholdScheme scheme, Dealt dealt, byte[] groupId,
      CoinConfig[] out) {
    for (int i = 0; i < out.length; i++) {
      out[i] = new CoinConfig(scheme, dealt.group(), dealt.share(i + 1), groupId);
    }
    return new Checker.CoinOracle(scheme, dealt, groupId, o.coinPerBatch());
  }
}
