package org.bftws.core.crypto.threshold;

import java.math.BigInteger;
import java.security.SecureRandom;

/**
 * Lagrange coefficients for interpolation at 0 over the indices actually used (docs/design/cryptography.md pitfall 8): for the
 * set S and i in S, λ_{0,i}^S = Π_{j∈S, j≠i} (0 − j) / (i − j).
 */
public final class Lagrange {
  private Lagrange() {}

  /** λ_{0,i}^S modulo a prime {@code q} (CKS, BLS). */
  public static BigInteger atZeroModPrime(int[] set, int i, BigInteger q) {
    return atPointModPrime(set, i, 0, q);
  }

  /** λ_{x,i}^S = Π_{j∈S, j≠i} (x − j) / (i − j) modulo a prime {@code q}: f(x) = Σ_{i∈S} λ_{x,i}^S f(i). */
  public static BigInteger atPointModPrime(int[] set, int i, int x, BigInteger q) {
    BigInteger num = BigInteger.ONE;
    BigInteger den = BigInteger.ONE;
    for (int j : set) {
      if (j != i) {
        num = num.multiply(BigInteger.valueOf(x - j)).mod(q);
        den = den.multiply(BigInteger.valueOf(i - j)).mod(q);
      }
    }
    return num.multiply(den.modInverse(q)).mod(q);
  }

  /**
   * Shoup's integer coefficient Δ·λ_{0,i}^S with Δ = n! (Shoup 2000, §3 "Combining shares"): the group order
   * is unknown to the replicas, so they interpolate with integers; Δ makes every coefficient integral.
   */
  static BigInteger atZeroTimesDelta(int[] set, int i, BigInteger delta) {
    BigInteger num = delta;
    BigInteger den = BigInteger.ONE;
    for (int j : set) {
      if (j != i) {
        num = num.multiply(BigInteger.valueOf(-j));
        den = den.multiply(BigInteger.valueOf(i - j));
      }
    }
    BigInteger[] qr = num.divideAndRemainder(den);
    if (qr[1].signum() != 0) {
      throw new IllegalStateException("Δ·λ not integral: indices must lie in 1..n");
    }
    return qr[0];
  }

  /**
   * The dealer's random polynomial of degree k−1 over Z_q — k coefficients, never k−1 (docs/design/cryptography.md pitfall 1:
   * ThreshSig's degree k−2 let one share less produce the group value). a[0] is the secret, never zero.
   */
  public static BigInteger[] randomPolynomial(int k, BigInteger q, SecureRandom random) {
    BigInteger[] a = new BigInteger[k];
    for (int j = 0; j < k; j++) {
      a[j] = randomNonZero(q, random);
    }
    return a;
  }

  /** Uniform in [1, q) by rejection sampling. */
  public static BigInteger randomNonZero(BigInteger q, SecureRandom random) {
    BigInteger v;
    do {
      v = new BigInteger(q.bitLength(), random);
    } while (v.signum() == 0 || v.compareTo(q) >= 0);
    return v;
  }

  /** Evaluates the polynomial with coefficients {@code a} (a[0] is the secret) at x, modulo m. */
  public static BigInteger evaluate(BigInteger[] a, int x, BigInteger m) {
    BigInteger bx = BigInteger.valueOf(x);
    BigInteger y = BigInteger.ZERO;
    for (int j = a.length - 1; j >= 0; j--) {
      y = y.multiply(bx).add(a[j]).mod(m);
    }
    return y;
  }

  /** n! — Shoup's Δ. */
  static BigInteger factorial(int n) {
    BigInteger f = BigInteger.ONE;
    for (int i = 2; i <= n; i++) {
      f = f.multiply(BigInteger.valueOf(i));
    }
    return f;
  }
}
