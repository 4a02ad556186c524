package org.bftws.core.pbft;

/**
 * A replica's own entropy source for its BA contributions (integrity paper §4: "obtains its share of
 * random number by extracting from its own entropy source"). The embedding provides it — a
 * {@code SecureRandom} in production, a seeded generator per replica in the simulator — so that the engine
 * itself stays deterministic.
 */
@FunctionalInterface
public interface Entropy {
  /** Fill {@code out} with fresh random bytes. */
  void fill(byte[] out);
}
