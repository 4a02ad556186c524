/**
 * Tools on the protocol core alone, outside the shipped module: the seeded deterministic simulator
 * ({@link org.bftws.sim.Main}, {@code scripts/simulate}) with its nemeses and checker, the key dealer's console
 * command ({@link org.bftws.sim.KeyGenMain}, {@code scripts/keygen}) and, in {@code org.bftws.sim.bench}, the
 * engine, randomness and threshold-crypto benchmarks ({@code scripts/bench-*}).
 */
package org.bftws.sim;
