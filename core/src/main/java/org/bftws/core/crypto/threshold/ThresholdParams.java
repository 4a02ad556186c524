package org.bftws.core.crypto.threshold;

/**
 * The (n, k, t) of a dual-threshold scheme (Cachin-Kursawe-Shoup; SINTRA §2.1): n parties, of which up to t
 * may be corrupted, and k shares needed to produce the group value.
 *
 * <p>Integrity paper §5: with n = 3f+1 and t = f, k may be anything from f+1 to 2f+1 = n−t; a larger k means
 * at least k−f correct replicas must take part. The constructor enforces n ≥ 3t+1 and t &lt; k ≤ n−t, and
 * n ≤ {@link #MAX_N} (indices travel as 16-bit numbers; RSA also needs a public exponent above n).
 */
public record ThresholdParams(int n, int k, int t) {
  /** Largest group size accepted. */
  public static final int MAX_N = 1024;

  public ThresholdParams {
    if (t < 0 || n < 1 || n > MAX_N) {
      throw new IllegalArgumentException("need 1 <= n <= " + MAX_N + " and t >= 0, got n=" + n + " t=" + t);
    }
    if (n < 3 * t + 1) {
      throw new IllegalArgumentException("need n >= 3t+1, got n=" + n + " t=" + t);
    }
    if (k <= t || k > n - t) {
      throw new IllegalArgumentException("need t < k <= n-t, got n=" + n + " k=" + k + " t=" + t);
    }
  }

  /** The usual PBFT group: n = 3f+1, t = f, k = f+1. */
  public static ThresholdParams forF(int f) {
    return new ThresholdParams(3 * f + 1, f + 1, f);
  }

  /** Whether {@code index} names a party (indices are 1..n; 0 is the group secret's point). */
  public boolean isValidIndex(int index) {
    return index >= 1 && index <= n;
  }
}
