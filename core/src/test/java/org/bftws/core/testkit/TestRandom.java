package org.bftws.core.testkit;

import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;

/** A seeded, reproducible DRBG for tests only (real keys use a fresh {@link SecureRandom}). */
public final class TestRandom {
  private TestRandom() {}

  /** SHA1PRNG seeded before first use is a deterministic generator: same seed, same keys. */
  public static SecureRandom seeded(long seed) {
    try {
      SecureRandom r = SecureRandom.getInstance("SHA1PRNG");
      r.setSeed(seed);
      return r;
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
