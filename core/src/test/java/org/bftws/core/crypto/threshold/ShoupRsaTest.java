package org.bftws.core.crypto.threshold;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.math.BigInteger;
import java.security.SecureRandom;
import org.bftws.core.testkit.TestRandom;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Shoup, "Practical threshold signatures" (2000) §3-§4, at a 512-bit modulus (no security; safe-prime
 * generation at real sizes takes seconds, so keys are dealt once per class).
 */
public class ShoupRsaTest extends ThresholdSchemeContract {
  private static final ShoupRsa RSA512 = new ShoupRsa(512);
  private static Dealt k2;
  private static Dealt k3;

  @BeforeClass
  public static void deal() {
    k2 = RSA512.deal(new ThresholdParams(4, 2, 1), TestRandom.seeded(5));
    k3 = RSA512.deal(new ThresholdParams(4, 3, 1), TestRandom.seeded(6));
  }

  @Override
  ThresholdScheme scheme() {
    return RSA512;
  }

  @Override
  Dealt dealt(int k) {
    return k == 2 ? k2 : k3;
  }

  // Shoup §3 ("the dealer chooses p, q safe primes"); docs/design/cryptography.md pitfall 5.
  @Test
  public void generatedPrimesAreSafe() {
    SecureRandom r = TestRandom.seeded(7);
    for (int bits : new int[] {64, 128, 256}) {
      BigInteger p = SafePrimes.generate(bits, r);
      assertEquals(bits, p.bitLength());
      assertTrue(p.isProbablePrime(64));
      assertTrue(p.shiftRight(1).isProbablePrime(64));
      assertTrue(p.testBit(bits - 2));
    }
  }

  // Shoup §4 uses the Jacobi symbol; check ours against Euler's criterion modulo primes.
  @Test
  public void jacobiMatchesEulerCriterion() {
    SecureRandom r = TestRandom.seeded(8);
    for (int trial = 0; trial < 200; trial++) {
      BigInteger p = BigInteger.probablePrime(40, r);
      BigInteger a = new BigInteger(48, r);
      BigInteger euler = a.modPow(p.shiftRight(1), p);
      int expected = euler.equals(BigInteger.ONE) ? 1 : euler.signum() == 0 ? 0 : -1;
      assertEquals(expected, SafePrimes.jacobi(a, p));
    }
    // Composite moduli: (2|15) = (2|3)(2|5) = 1, (7|15) = (1|3)(2|5) = -1.
    assertEquals(1, SafePrimes.jacobi(BigInteger.TWO, BigInteger.valueOf(15)));
    assertEquals(-1, SafePrimes.jacobi(BigInteger.valueOf(7), BigInteger.valueOf(15)));
  }

  // Shoup §3: the combined value is a standard RSA signature, y^e = H(M) mod N, for both Jacobi cases.
  @Test
  public void combinedValueIsAStandardRsaSignatureForBothJacobiCases() throws Exception {
    int[] seen = new int[3];
    for (int m = 0; m < 12; m++) {
      byte[] msg = ("n=" + m).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
      GroupValue v = scheme().combine(k3.group(), msg, shares(k3, msg, 4, 2, 1));
      assertTrue(scheme().verifyCombined(k3.group(), msg, v));
      BigInteger n = new Codec.Reader(k3.group().commonEncoding()).natural();
      seen[1 + SafePrimes.jacobi(fdhFor(k3, msg), n)]++;
    }
    assertTrue("both Jacobi cases exercised", seen[0] > 0 && seen[2] > 0);
  }

  private static BigInteger fdhFor(Dealt d, byte[] msg) {
    Codec.Reader r = new Codec.Reader(d.group().commonEncoding());
    BigInteger n = r.natural();
    r.natural();
    byte[] v = r.bytes();
    byte[] u = r.bytes();
    return ShoupRsa.fdh(new ShoupRsa.Pub(n, new BigInteger(1, v), new BigInteger(1, u)), msg);
  }
}
