package org.bftws.core.crypto.threshold;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertTrue;

import java.math.BigInteger;
import java.util.Arrays;
import org.bftws.core.testkit.TestRandom;
import org.bouncycastle.crypto.bls.BLS12_381G1;
import org.bouncycastle.crypto.bls.BLS12_381G2;
import org.bouncycastle.crypto.bls.BLS12_381Pairing;
import org.bouncycastle.crypto.bls.BLS12_381Serialization;
import org.bouncycastle.crypto.hash2curve.HashToCurveProfile;
import org.bouncycastle.crypto.hash2curve.HashToEllipticCurve;
import org.bouncycastle.math.ec.ECPoint;
import org.junit.BeforeClass;
import org.junit.Test;

/** Threshold BLS (Boldyreva 2003 §3; IRTF BLS signatures, min-sig, drand quicknet DST) with blst. */
public class BlsThresholdTest extends ThresholdSchemeContract {
  private static Dealt k2;
  private static Dealt k3;

  @BeforeClass
  public static void deal() {
    k2 = new BlsThreshold().deal(new ThresholdParams(4, 2, 1), TestRandom.seeded(3));
    k3 = new BlsThreshold().deal(new ThresholdParams(4, 3, 1), TestRandom.seeded(4));
  }

  @Override
  ThresholdScheme scheme() {
    return Thresholds.scheme(SchemeId.BLS);
  }

  @Override
  Dealt dealt(int k) {
    return k == 2 ? k2 : k3;
  }

  /**
   * Cross-check with Bouncy Castle's independent pure-Java BLS12-381 (bcprov 1.85, org.bouncycastle.crypto.bls):
   * the secret interpolated from k key shares gives, in BC, the same group key and the same signature as
   * blst's combined shares (docs/design/cryptography.md: "BC and blst produce identical BLS signatures"), and BC's pairing
   * accepts it: e(σ, g2) = e(H(m), pk).
   */
  @Test
  public void combinedSignatureMatchesBouncyCastleBls() throws Exception {
    BigInteger x = interpolateSecret(k3, 1, 3, 4);
    GroupValue v = scheme().combine(k3.group(), MSG, shares(k3, MSG, 2, 3, 4));
    ECPoint h = HashToEllipticCurve.getInstance(HashToCurveProfile.BLS12_381_G1_XMD_SHA_256_SSWU_RO,
        BlsThreshold.DST).hashToCurve(MSG);
    ECPoint sigma = BLS12_381G1.constantTimeMultiply(h, x).normalize();
    assertArrayEquals(BLS12_381Serialization.compressG1(sigma), v.unique());
    var pk = BLS12_381G2.getGenerator().multiply(x);
    assertArrayEquals(BLS12_381Serialization.compressG2(pk), k3.group().commonEncoding());
    assertTrue(BLS12_381Pairing.pair(sigma, BLS12_381G2.getGenerator()).equals(BLS12_381Pairing.pair(h, pk)));
  }

  /** Lagrange at 0 over the given key shares (test only: the dealer never publishes x). */
  private static BigInteger interpolateSecret(Dealt d, int... set) {
    BigInteger x = BigInteger.ZERO;
    for (int i : set) {
      byte[] enc = d.share(i).encode();
      BigInteger xi = new BigInteger(1, Arrays.copyOfRange(enc, enc.length - 32, enc.length));
      x = x.add(xi.multiply(Lagrange.atZeroModPrime(set, i, BlsThreshold.R))).mod(BlsThreshold.R);
    }
    return x;
  }
}
