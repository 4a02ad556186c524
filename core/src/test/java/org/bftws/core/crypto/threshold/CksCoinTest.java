package org.bftws.core.crypto.threshold;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.math.BigInteger;
import org.bftws.core.testkit.TestRandom;
import org.bouncycastle.crypto.hash2curve.HashToCurveProfile;
import org.bouncycastle.crypto.hash2curve.HashToEllipticCurve;
import org.bouncycastle.math.ec.ECPoint;
import org.junit.BeforeClass;
import org.junit.Test;

/** Cachin-Kursawe-Shoup coin (SINTRA §2.1, §3.1 ThresholdCoin; CKS 2000 §3) on P-256. */
public class CksCoinTest extends ThresholdSchemeContract {
  private static Dealt k2;
  private static Dealt k3;

  @BeforeClass
  public static void deal() {
    k2 = new CksCoin().deal(new ThresholdParams(4, 2, 1), TestRandom.seeded(1));
    k3 = new CksCoin().deal(new ThresholdParams(4, 3, 1), TestRandom.seeded(2));
  }

  @Override
  ThresholdScheme scheme() {
    return Thresholds.scheme(SchemeId.CKS);
  }

  @Override
  Dealt dealt(int k) {
    return k == 2 ? k2 : k3;
  }

  // RFC 9380 Appendix J.1.1, P256_XMD:SHA-256_SSWU_RO_, msg = "": the hash-to-curve we rely on is the RFC's.
  @Test
  public void hashToCurveMatchesRfc9380Vector() {
    ECPoint p = HashToEllipticCurve.getInstance(HashToCurveProfile.P256_XMD_SHA_256,
        "QUUX-V01-CS02-with-P256_XMD:SHA-256_SSWU_RO_").hashToCurve(new byte[0]).normalize();
    assertEquals(new BigInteger("2c15230b26dbc6fc9a37051158c95b79656e17a1a920b11394ca91c44247d3e4", 16),
        p.getAffineXCoord().toBigInteger());
    assertEquals(new BigInteger("8a7a74985cc5c776cdfe4b1f19884970453912e9d31528c060be9ab5c43e8415", 16),
        p.getAffineYCoord().toBigInteger());
  }

  // SINTRA §2.1: (n, k, t) dual threshold — n = 7, t = 2, every k from t+1 to n−t.
  @Test
  public void dualThresholdForSevenReplicas() throws Exception {
    for (int k = 3; k <= 5; k++) {
      Dealt d = scheme().deal(new ThresholdParams(7, k, 2), TestRandom.seeded(10 + k));
      GroupValue a = scheme().combine(d.group(), MSG, shares(d, MSG, 1, 2, 3, 4, 5).subList(0, k));
      GroupValue b = scheme().combine(d.group(), MSG, shares(d, MSG, 7, 6, 5, 4, 3).subList(0, k));
      assertTrue(java.util.Arrays.equals(a.unique(), b.unique()));
    }
  }

  // CKS 2000 §3: a combined value is verified through its k proofs; dropping or swapping evidence fails.
  @Test
  public void combinedValueWithTamperedEvidenceFails() throws Exception {
    GroupValue v = scheme().combine(k2.group(), MSG, shares(k2, MSG, 1, 2));
    GroupValue other = scheme().combine(k2.group(), MSG, shares(k2, MSG, 3, 4));
    assertTrue(scheme().verifyCombined(k2.group(), MSG, new GroupValue(SchemeId.CKS, v.unique(), other.evidence())));
    GroupValue wrong = scheme().combine(k2.group(), OTHER, shares(k2, OTHER, 1, 2));
    assertFalse(scheme().verifyCombined(k2.group(), MSG, new GroupValue(SchemeId.CKS, wrong.unique(), v.evidence())));
    assertFalse(scheme().verifyCombined(k2.group(), MSG, new GroupValue(SchemeId.CKS, v.unique(), new byte[0])));
  }

  // docs/design/testing.md: one seed reproduces everything, key material included.
  @Test
  public void seededDealingIsReproducible() {
    Dealt again = new CksCoin().deal(new ThresholdParams(4, 2, 1), TestRandom.seeded(1));
    assertTrue(java.util.Arrays.equals(k2.group().encode(), again.group().encode()));
  }
}
