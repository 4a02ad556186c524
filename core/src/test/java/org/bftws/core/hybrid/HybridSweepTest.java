package org.bftws.core.hybrid;

import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.bftws.core.message.Request;
import org.junit.Test;

/**
 * Seeded runs of whole hybrid groups on the seeded-draw scheduler (any message in flight next): per seed, a
 * group of 4 (every fifth seed 7), up to f replicas silent (the epoch-0 leader among them on some seeds) or
 * Byzantine (proposing two batches for each seq it leads, to the even and the odd replicas), on some seeds a
 * correct replica whose messages leave late or links that lose 5% of the replicas' messages (retransmission
 * on ticks brings them through), and clients submitting requests at random ticks.
 * Properties: agreement (every correct replica delivers the same batch at each seq and executes the same
 * requests in the same order) and delivery (every submitted request is executed at every correct replica).
 * A failure names its seed; {@code -Dhybrid.seeds=N} sets how many (default 30).
 */
public class HybridSweepTest {
  private static final int SEEDS = Integer.getInteger("hybrid.seeds", 30);
  private static final long FIRST = Long.getLong("hybrid.firstSeed", 1);

  @Test
  public void agreementAndDeliveryOverSeeds() {
    long withFallback = 0;
    for (long seed = FIRST; seed < FIRST + SEEDS; seed++) {
      try {
        withFallback += runSeed(seed) > 0 ? 1 : 0;
      } catch (AssertionError | RuntimeException e) {
        throw new AssertionError("seed " + seed + ": " + e.getMessage(), e);
      }
    }
    System.out.println("hybrid sweep: " + SEEDS + " seeds, " + withFallback + " with a fallback");
    assertTrue("the sweep never left the fast lane", withFallback > 0);
  }

  /** One seed's run; returns the fallbacks the first correct replica completed. */
  private static long runSeed(long seed) {
    Random rng = new Random(seed);
    int n = seed % 5 == 0 ? 7 : 4;
    int f = (n - 1) / 3;
    Set<Integer> silent = new HashSet<>();
    int silentCount = rng.nextInt(f + 1);
    if (silentCount > 0 && rng.nextBoolean()) {
      silent.add(0); // the first leader
    }
    while (silent.size() < silentCount) {
      silent.add(rng.nextInt(n));
    }
    int timeout = 10 + rng.nextInt(20);
    // odd seeds: the fast lane by MACs (the module's default), even seeds by signatures
    HybridGroup g = new HybridGroup(n, f, seed, silent, HybridGroup.seeded(seed), HybridGroup.config(timeout), false,
        seed % 2 == 1);
    if (silent.size() < f && rng.nextBoolean()) {
      int liar = rng.nextInt(n);
      if (!silent.contains(liar)) {
        g.equivocate(liar); // Byzantine: its proposals as leader are equivocated
      }
    }
    if (rng.nextInt(3) == 0) {
      int slow = rng.nextInt(n);
      if (g.correct(slow)) {
        g.slow(slow, 1 + rng.nextInt(timeout + 5));
      }
    }
    if (rng.nextInt(3) == 0) {
      Random loss = new Random(seed * 31);
      g.cut((from, to, what) -> from < n && loss.nextInt(20) == 0); // lossy links: 5% of replicas' messages lost
    }
    List<Request> sent = new ArrayList<>();
    int requests = 10 + rng.nextInt(20);
    for (int k = 0; k < requests; k++) {
      sent.add(g.request(rng.nextInt(3)));
      g.run();
      for (int t = rng.nextInt(3); t > 0; t--) {
        g.tick();
      }
    }
    boolean done = g.runUntil(() -> sent.stream().allMatch(g::executedEverywhere), 40 * timeout);
    g.assertAgreement();
    assertTrue("not every request executed everywhere: " + g.describe(), done);
    for (int i = 0; i < n; i++) {
      if (g.installed(i) > 0) {
        System.out.println("seed " + seed + ": replica " + i + " installed the checkpoint at " + g.installed(i));
      }
    }
    for (int i = 0; i < n; i++) {
      if (g.correct(i)) {
        return g.replica(i).fallbacks();
      }
    }
    return 0;
  }
}
