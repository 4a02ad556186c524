package org.bftws.core.sim;

/**
 * One simulation run: the seed drives everything else (keys, fault rates, schedules, Byzantine choices).
 * Replaying a seed with the same options replays the run exactly.
 */
public record SimOptions(long seed, int f, int clients, int requests, Byzantine byzantine) {
  public SimOptions {
    if (f < 1 || clients < 1 || requests < 0) {
      throw new IllegalArgumentException("f >= 1, clients >= 1, requests >= 0");
    }
  }

  public static SimOptions of(long seed, Byzantine b) {
    return new SimOptions(seed, 1, 3, 60, b);
  }

  public SimOptions withSeed(long s) {
    return new SimOptions(s, f, clients, requests, byzantine);
  }

  public int n() {
    return 3 * f + 1;
  }

  /** The command line that replays this run. */
  public String replay() {
    return "scripts/simulate --seeds " + seed + " --replicas " + n() + " --clients " + clients
        + " --requests " + requests + " --byzantine " + byzantine.label();
  }
}
