package org.bftws.core.sim;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.bftws.core.crypto.threshold.Dealt;
import org.bftws.core.crypto.threshold.SchemeId;
import org.bftws.core.crypto.threshold.SignatureShare;
import org.bftws.core.crypto.threshold.TestRandom;
import org.bftws.core.crypto.threshold.ThresholdParams;
import org.bftws.core.crypto.threshold.ThresholdScheme;
import org.bftws.core.crypto.threshold.Thresholds;
import org.bftws.core.message.Kind;
import org.bftws.core.message.PrePrepare;
import org.bftws.core.message.Request;
import org.bftws.core.message.Signed;
import org.bftws.core.pbft.CoinConfig;
import org.bftws.core.pbft.Effect;
import org.bftws.core.pbft.Event;
import org.junit.Test;

/**
 * Deterministic simulation (TESTING.md): the seed range of the system property {@code sim.seeds}
 * (default 1..1000, set by scripts/test) runs across the nemeses, each seed under one of them in turn;
 * every run checks S1–S7 and L1. A failure names the seed and the command that replays it. The CT runs
 * (integrity paper §5) take the first {@link #MAX_CT_SEEDS} seeds of the range and also check S8.
 */
public class SimulationTest {
  private static final List<Byzantine> NEMESES =
      List.of(Byzantine.NONE, Byzantine.TWINS, Byzantine.MUTATE, Byzantine.SILENT, Byzantine.CLIENT);
  /** Requests per seed in CI: enough for several checkpoints, view changes and state transfers. */
  private static final int REQUESTS = 60;
  /** Threshold coins cost ≈1 ms per randomized request and replica: CI runs the CT algorithm on fewer seeds. */
  static final int MAX_CT_SEEDS = 100;

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

  // Reference: integrity paper §6 C1 ("All correct replicas deliver the same random number to the
  // application together with the associated request") and C2 with f Byzantine replicas: Twins (duplicate
  // shares, equivocation) and mutated coin shares; S1-S8 and L1 hold on every seed.
  @Test
  public void ctUnderTwinsAndMutateHasNoViolations() throws Exception {
    long[] range = seedRange();
    range[1] = Math.min(range[1], range[0] + MAX_CT_SEEDS - 1);
    List<SimOptions> runs = new ArrayList<>();
    for (long seed = range[0]; seed <= range[1]; seed++) {
      Byzantine b = seed % 2 == 0 ? Byzantine.TWINS : Byzantine.MUTATE;
      runs.add(SimOptions.of(seed, b).withRandom(SimOptions.Randomness.CT, SchemeId.CKS, false));
    }
    List<String> failures = failures(runAll(runs));
    assertEquals("seeds " + range[0] + ".." + range[1] + ":\n" + String.join("\n", failures), 0, failures.size());
  }

  // Reference: integrity paper §5 ("Most existing (k, l) threshold signature schemes ... can be used"):
  // the same runs with threshold BLS, Shoup RSA (512-bit moduli in the simulator, for speed) and one coin
  // per batch; a few seeds each.
  @Test
  public void ctWithBlsRsaAndPerBatchCoinsHasNoViolations() throws Exception {
    long[] range = seedRange();
    range[1] = Math.min(range[1], range[0] + 1);
    List<SimOptions> runs = new ArrayList<>();
    for (long seed = range[0]; seed <= range[1]; seed++) {
      Byzantine b = seed % 2 == 0 ? Byzantine.TWINS : Byzantine.MUTATE;
      runs.add(SimOptions.of(seed, b).withRandom(SimOptions.Randomness.CT, SchemeId.BLS, false));
      runs.add(SimOptions.of(seed, b).withRandom(SimOptions.Randomness.CT, SchemeId.RSA, false));
      runs.add(SimOptions.of(seed, b).withRandom(SimOptions.Randomness.CT, SchemeId.CKS, true));
    }
    List<String> failures = failures(runAll(runs));
    assertEquals(String.join("\n", failures), 0, failures.size());
  }

  // Reference: integrity paper §5 ("l = 3f+1 ... k = t+1"): f = 2, n = 7, k = 3 shares per coin.
  @Test
  public void ctWithSevenReplicas() throws Exception {
    List<SimOptions> runs = new ArrayList<>();
    for (long seed = 1; seed <= 4; seed++) {
      runs.add(new SimOptions(seed, 2, 3, 40, seed % 2 == 0 ? Byzantine.TWINS : Byzantine.MUTATE)
          .withRandom(SimOptions.Randomness.CT, SchemeId.CKS, false));
    }
    List<String> failures = failures(runAll(runs));
    assertEquals(String.join("\n", failures), 0, failures.size());
  }

  // Reference: TESTING.md N1 applied to S8: the checker must see a random number that is not the coin of
  // (group, n, d) — here the coin of another message, as a wrong coin encoding (e.g. one naming the view,
  // CRYPTO.md pitfall 6) would give — a missing one, and correct replicas that differ.
  @Test
  public void checkerReportsARandomNumberThatIsNotTheCoin() throws Exception {
    ThresholdScheme cks = Thresholds.scheme(SchemeId.CKS);
    Dealt dealt = cks.deal(ThresholdParams.forF(1), TestRandom.seeded(5));
    byte[] group = "urn:bftws:checker-test".getBytes(StandardCharsets.US_ASCII);
    Checker checker = new Checker(new Checker.CoinOracle(cks, dealt, group, false));
    Request q = new Request(4, "urn:uuid:c", 1, true, new byte[] {1, 2, 3});
    Signed s = Signed.of(Kind.REQUEST, 4, q.encode(), new byte[64]);
    checker.issued(q);
    PrePrepare pp = PrePrepare.of(0, 1, List.of(s));
    checker.event(0, new Event.Committed(0, 1, pp.digest(), pp.requests()));

    byte[] m = CoinConfig.requestCoinMessage(group, 1, q.encode());
    List<SignatureShare> shares = List.of(cks.share(dealt.group(), dealt.share(2), m), cks.share(dealt.group(), dealt.share(3), m));
    byte[] coin = cks.coinValue(cks.combine(dealt.group(), m, shares));
    checker.executed(0, new Effect.Execute(1, 0, pp.digest(), List.of(q), List.of(coin)));
    assertTrue(checker.violations().toString(), checker.violations().isEmpty());

    byte[] other = CoinConfig.requestCoinMessage(group, 1, new Request(4, "urn:uuid:c", 1, true, new byte[] {1, 2, 4}).encode());
    byte[] wrong = cks.coinValue(cks.combine(dealt.group(), other, List.of(
        cks.share(dealt.group(), dealt.share(1), other), cks.share(dealt.group(), dealt.share(4), other))));
    checker.executed(1, new Effect.Execute(1, 1, pp.digest(), List.of(q), List.of(wrong)));
    checker.executed(2, new Effect.Execute(1, 1, pp.digest(), List.of(q), List.of(new byte[0])));
    List<String> v = checker.violations();
    assertTrue(v.toString(), v.stream().anyMatch(x -> x.startsWith("S8") && x.contains("replica 1") && x.contains("not the coin")));
    assertTrue(v.toString(), v.stream().anyMatch(x -> x.startsWith("S8") && x.contains("replica 2") && x.contains("(none)")));
    assertTrue(v.toString(), v.stream().anyMatch(x -> x.startsWith("S8") && x.contains("different random numbers")));
  }

  /** Failing runs, each with the command that replays it; S8 must have checked some random numbers. */
  private static List<String> failures(List<SimResult> results) {
    List<String> failures = new ArrayList<>();
    long randoms = 0;
    for (SimResult r : results) {
      randoms += r.randomsChecked();
      if (!r.ok()) {
        failures.add(r.describe() + "\n  replay: " + r.options().replay());
      }
    }
    assertTrue("no randomized request was executed: S8 checked nothing", randoms > 0);
    return failures;
  }

  // TESTING.md: one seed replays exactly.
  @Test
  public void aSeedReplaysExactly() {
    SimOptions o = new SimOptions(7, 1, 3, 40, Byzantine.TWINS);
    assertEquals(Simulation.run(o).describe(), Simulation.run(o).describe());
  }

  // TESTING.md ("one long seed drives everything ... key material for test keys"): with the CT algorithm
  // the dealer's keys, and so every coin, come from the seed too.
  @Test
  public void aCtSeedReplaysExactly() {
    SimOptions o = new SimOptions(7, 1, 3, 40, Byzantine.MUTATE).withRandom(SimOptions.Randomness.CT, SchemeId.CKS, false);
    SimResult first = Simulation.run(o);
    assertTrue(first.describe(), first.randomsChecked() > 0);
    assertEquals(first.describe(), Simulation.run(o).describe());
  }
}
