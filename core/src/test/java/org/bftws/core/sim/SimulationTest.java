package org.bftws.core.sim;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.Test;

/**
 * Deterministic simulation (TESTING.md): the seed range of the system property {@code sim.seeds}
 * (default 1..1000, set by scripts/test) runs across the nemeses, each seed under one of them in turn;
 * every run checks S1–S7 and L1. A failure names the seed and the command that replays it.
 */
public class SimulationTest {
  private static final List<Byzantine> NEMESES =
      List.of(Byzantine.NONE, Byzantine.TWINS, Byzantine.MUTATE, Byzantine.SILENT, Byzantine.CLIENT);
  /** Requests per seed in CI: enough for several checkpoints, view changes and state transfers. */
  private static final int REQUESTS = 60;

  static long[] seedRange() {
    String[] r = System.getProperty("sim.seeds", "1..1000").split("\\.\\.");
    long from = Long.parseLong(r[0]);
    return new long[] {from, r.length > 1 ? Long.parseLong(r[1]) : from};
  }

  static List<SimResult> runAll(List<SimOptions> runs) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Runtime.getRuntime().availableProcessors()));
    try {
      List<Future<SimResult>> fs = new ArrayList<>();
      for (SimOptions o : runs) {
        fs.add(pool.submit(() -> Simulation.run(o)));
      }
      List<SimResult> out = new ArrayList<>();
      for (Future<SimResult> f : fs) {
        out.add(f.get());
      }
      return out;
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  public void seedsAcrossAllNemesesKeepEveryInvariant() throws Exception {
    long[] range = seedRange();
    List<SimOptions> runs = new ArrayList<>();
    for (long seed = range[0]; seed <= range[1]; seed++) {
      runs.add(new SimOptions(seed, 1, 3, REQUESTS, NEMESES.get((int) Math.floorMod(seed, (long) NEMESES.size()))));
    }
    List<String> failures = new ArrayList<>();
    long committed = 0;
    for (SimResult r : runAll(runs)) {
      committed += r.requestsCommitted();
      if (!r.ok()) {
        failures.add(r.describe() + "\n  replay: " + r.options().replay());
      }
    }
    System.out.println("simulation: seeds=" + runs.size() + " failures=" + failures.size() + " requests_committed=" + committed);
    assertTrue(failures.size() + " failing seeds:\n" + String.join("\n", failures), failures.isEmpty());
  }

  // f = 2 (n = 7): the quorum arithmetic for larger groups.
  @Test
  public void sevenReplicasWithTwinsAndMutations() throws Exception {
    List<SimOptions> runs = new ArrayList<>();
    for (long seed = 1; seed <= 20; seed++) {
      runs.add(new SimOptions(seed, 2, 3, 40, seed % 2 == 0 ? Byzantine.TWINS : Byzantine.MUTATE));
    }
    for (SimResult r : runAll(runs)) {
      assertTrue(r.describe() + " replay: " + r.options().replay(), r.ok());
    }
  }

  // N1 (TESTING.md): with f+1 Byzantine replicas the checker must report violations, or it is blind.
  @Test
  public void negativeControlOverThresholdIsCaught() throws Exception {
    List<SimOptions> runs = new ArrayList<>();
    for (long seed = 1; seed <= 10; seed++) {
      runs.add(new SimOptions(seed, 1, 3, 30, Byzantine.OVER_THRESHOLD));
    }
    long caught = runAll(runs).stream().filter(r -> r.violations().stream()
        .anyMatch(v -> v.startsWith("S1") || v.startsWith("S7"))).count();
    assertTrue("only " + caught + " of 10 over-threshold runs violated S1 or S7", caught >= 5);
  }

  // TESTING.md: one seed replays exactly.
  @Test
  public void aSeedReplaysExactly() {
    SimOptions o = new SimOptions(7, 1, 3, 40, Byzantine.TWINS);
    assertEquals(Simulation.run(o).describe(), Simulation.run(o).describe());
  }
}
