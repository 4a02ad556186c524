package org.bftws.core.crypto.threshold;

import java.math.BigInteger;
import java.security.SecureRandom;

/**
 * Safe primes p = 2p'+1 (p' prime) for Shoup's RSA scheme (Shoup 2000, §3: the dealer "chooses p, q safe
 * primes"; docs/design/cryptography.md pitfall 5). Candidates p' ≡ 5 (mod 6) are sieved together with 2p'+1 against small
 * primes, then p' gets a base-2 Fermat test, p a base-2 Fermat test, and p' a full Miller-Rabin test. p is
 * then prime by Pocklington's criterion (p−1 = 2p' with p' prime and p' &gt; √p; 2^{p−1} ≡ 1 and
 * gcd(2²−1, p) = 1 since the sieve excluded 3 | p).
 */
final class SafePrimes {
  private static final int SIEVE_LIMIT = 1 << 15;
  private static final int WINDOW = 1 << 20;
  private static final int[] SMALL = smallPrimes();

  private SafePrimes() {}

  /** A safe prime of exactly {@code bits} bits with its two top bits set, so that p·q has 2·bits bits. */
  static BigInteger generate(int bits, SecureRandom random) {
    if (bits < 16) {
      throw new IllegalArgumentException("safe prime too small: " + bits + " bits");
    }
    while (true) {
      BigInteger base = new BigInteger(bits - 1, random).setBit(bits - 2).setBit(bits - 3);
      base = base.add(BigInteger.valueOf((5 - base.mod(BigInteger.valueOf(6)).intValue() + 6) % 6));
      BigInteger p = searchWindow(base, bits, random);
      if (p != null) {
        return p;
      }
    }
  }

  private static BigInteger searchWindow(BigInteger base, int bits, SecureRandom random) {
    int[] residue = new int[SMALL.length];
    for (int j = 0; j < SMALL.length; j++) {
      residue[j] = base.mod(BigInteger.valueOf(SMALL[j])).intValue();
    }
    for (int delta = 0; delta < WINDOW; delta += 6) {
      if (!survivesSieve(residue, delta)) {
        continue;
      }
      BigInteger q = base.add(BigInteger.valueOf(delta));
      BigInteger p = q.shiftLeft(1).setBit(0);
      if (p.bitLength() != bits) {
        return null;
      }
      if (isSafe(q, p)) {
        return p;
      }
    }
    return null;
  }

  /** Neither q = base+delta nor 2q+1 has a prime factor among {@link #SMALL}. */
  private static boolean survivesSieve(int[] residue, int delta) {
    for (int j = 0; j < SMALL.length; j++) {
      int m = SMALL[j];
      int rq = (int) ((residue[j] + (long) delta) % m);
      if (rq == 0 || (2 * rq + 1) % m == 0) {
        return false;
      }
    }
    return true;
  }

  private static boolean isSafe(BigInteger q, BigInteger p) {
    BigInteger two = BigInteger.TWO;
    if (!two.modPow(q.subtract(BigInteger.ONE), q).equals(BigInteger.ONE)) {
      return false;
    }
    if (!two.modPow(p.subtract(BigInteger.ONE), p).equals(BigInteger.ONE)) {
      return false;
    }
    return q.isProbablePrime(128);
  }

  /** Odd primes from 5 up to {@link #SIEVE_LIMIT} (2 and 3 are handled by q ≡ 5 mod 6). */
  private static int[] smallPrimes() {
    boolean[] composite = new boolean[SIEVE_LIMIT];
    int count = 0;
    for (int i = 2; i < SIEVE_LIMIT; i++) {
      if (!composite[i]) {
        count++;
        for (long j = (long) i * i; j < SIEVE_LIMIT; j += i) {
          composite[(int) j] = true;
        }
      }
    }
    int[] out = new int[count - 2];
    int k = 0;
    for (int i = 5; i < SIEVE_LIMIT; i++) {
      if (!composite[i]) {
        out[k++] = i;
      }
    }
    return out;
  }

  /** The Jacobi symbol (a | n) for odd n &gt; 0 (binary algorithm, e.g. Cohen, Algorithm 1.4.10). */
  static int jacobi(BigInteger a, BigInteger n) {
    if (n.signum() <= 0 || !n.testBit(0)) {
      throw new IllegalArgumentException("Jacobi symbol needs an odd positive modulus");
    }
    a = a.mod(n);
    int result = 1;
    while (a.signum() != 0) {
      int twos = a.getLowestSetBit();
      a = a.shiftRight(twos);
      int nMod8 = n.intValue() & 7;
      if ((twos & 1) == 1 && (nMod8 == 3 || nMod8 == 5)) {
        result = -result;
      }
      if ((a.intValue() & 3) == 3 && (n.intValue() & 3) == 3) {
        result = -result;
      }
      BigInteger t = a;
      a = n.mod(t);
      n = t;
    }
    return n.equals(BigInteger.ONE) ? result : 0;
  }
}
