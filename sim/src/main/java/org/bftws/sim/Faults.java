package org.bftws.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The benign fault mix of one run, drawn from its seed ("swarm testing", TigerBeetle VOPR): each seed
 * gets its own rates, some of them zero, so that rare combinations are tried too. Faults act until
 * {@link #healAt}; after it the network is reliable and every crashed replica is back (liveness phase).
 */
final class Faults {
  record Crash(int replica, long at, long restartAt, boolean amnesia) {}

  final int minDelay;
  final int maxDelay;
  final double loss;
  final double duplicate;
  final double reorder;
  final double partitionRate;
  final boolean asymmetricPartitions;
  final double clogRate;
  final long healAt;
  final List<Crash> crashes;

  private Faults(Random rng, SimOptions o, int amnesiaBudget) {
    minDelay = 1;
    maxDelay = 2 + rng.nextInt(9);
    loss = chance(rng, 0.7) ? rng.nextDouble() * 0.15 : 0;
    duplicate = chance(rng, 0.5) ? rng.nextDouble() * 0.3 : 0;
    reorder = chance(rng, 0.5) ? rng.nextDouble() * 0.3 : 0;
    // ISOLATE cuts one replica off itself: no partitions or crashes beside it, which would stall the others
    // into a view change that the isolated replica joins (the case it reproduces is that they never do).
    boolean isolate = o.byzantine() == Byzantine.ISOLATE;
    partitionRate = chance(rng, 0.5) && !isolate ? rng.nextDouble() * 0.004 : 0;
    asymmetricPartitions = rng.nextBoolean();
    clogRate = chance(rng, 0.4) ? rng.nextDouble() * 0.004 : 0;
    healAt = 300 + rng.nextInt(2700);
    crashes = new ArrayList<>();
    int count = chance(rng, 0.6) && !isolate ? 1 + rng.nextInt(2) : 0;
    int amnesiac = 0;
    for (int i = 0; i < count; i++) {
      boolean amnesia = amnesiac < amnesiaBudget && rng.nextBoolean();
      amnesiac += amnesia ? 1 : 0;
      long at = rng.nextInt((int) healAt);
      long restart = Math.min(healAt, at + 50 + rng.nextInt(1500));
      crashes.add(new Crash(rng.nextInt(o.n()), at, restart, amnesia));
    }
  }

  /**
   * A steady network for benchmarks: every message takes 1..{@code maxDelay} ticks, nothing is lost,
   * duplicated, reordered beyond that, partitioned or crashed; healed from the first tick.
   */
  private Faults(int maxDelay) {
    minDelay = 1;
    this.maxDelay = maxDelay;
    loss = 0;
    duplicate = 0;
    reorder = 0;
    partitionRate = 0;
    asymmetricPartitions = false;
    clogRate = 0;
    healAt = 1;
    crashes = List.of();
  }

  static Faults draw(Random rng, SimOptions o, int amnesiaBudget) {
    return new Faults(rng, o, amnesiaBudget);
  }

  static Faults steady(int maxDelay) {
    return new Faults(maxDelay);
  }

  private static boolean chance(Random rng, double p) {
    return rng.nextDouble() < p;
  }

  String describe() {
    StringBuilder sb = new StringBuilder();
    sb.append(String.format("delay=%d..%d loss=%.3f dup=%.3f reorder=%.3f partitions=%.4f%s clog=%.4f heal=%d",
        minDelay, maxDelay, loss, duplicate, reorder, partitionRate, asymmetricPartitions ? "(asym)" : "",
        clogRate, healAt));
    for (Crash c : crashes) {
      sb.append(" crash(r").append(c.replica()).append('@').append(c.at()).append("..").append(c.restartAt())
          .append(c.amnesia() ? ",amnesia" : "").append(')');
    }
    return sb.toString();
  }
}
