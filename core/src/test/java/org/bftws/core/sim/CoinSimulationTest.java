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
 * C1: the CT algorithm in the seeded simulator (integrity paper §5, §6 C1/C2; TESTING.md S8). Seeds come
 * from {@code -Dsim.seeds=A..B} (default 1..1000); these runs take the first {@link #MAX_SEEDS} of the range,
 * 60 requests each, so that CI stays within budget — scripts/simulate --random ct runs long soaks.
 */
public class CoinSimulationTest {
  static final int MAX_SEEDS = 100;

  /** The seed range of {@code sim.seeds}, cut to its first {@code max} seeds. */
  static long[] seeds(int max) {
    String spec = System.getProperty("sim.seeds", "1..1000").trim();
    if (spec.isEmpty() || spec.startsWith("$")) {
      spec = "1..1000";
    }
    String[] r = spec.split("\\.\\.");
    long from = Long.parseLong(r[0].trim());
    long to = r.length > 1 ? Long.parseLong(r[1].trim()) : from;
    return new long[] {from, Math.min(to, from + max - 1)};
  }

  private static List<String> runAll(List<SimOptions> runs) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Math.min(2, Runtime.getRuntime().availableProcessors())));
    try {
      List<Future<SimResult>> futures = new ArrayList<>();
      for (SimOptions o : runs) {
        futures.add(pool.submit(() -> Simulation.run(o)));
      }
      List<String> failures = new ArrayList<>();
      long randoms = 0;
      for (Future<SimResult> f : futures) {
        SimResult r = f.get();
        randoms += r.randomsChecked();
        if (!r.ok()) {
          failures.add(r.describe() + " replay: " + r.options().replay());
        }
      }
      assertTrue("no randomized request was executed: S8 checked nothing", randoms > 0);
      return failures;
    } finally {
      pool.shutdown();
    }
  }

  // Reference: integrity paper §6 C1 ("All correct replicas deliver the same random number to the
  // application together with the associated request") and C2 with f Byzantine replicas: Twins (duplicate
  // shares, equivocation) and mutated coin shares; S1-S8 and L1 hold on every seed.
  @Test
  public void ctUnderTwinsAndMutateHasNoViolations() throws Exception {
    long[] range = seeds(MAX_SEEDS);
    List<SimOptions> runs = new ArrayList<>();
    for (long seed = range[0]; seed <= range[1]; seed++) {
      Byzantine b = seed % 2 == 0 ? Byzantine.TWINS : Byzantine.MUTATE;
      runs.add(SimOptions.of(seed, b).withRandom(SimOptions.Randomness.CT, SchemeId.CKS, false));
    }
    List<String> failures = runAll(runs);
    assertEquals("seeds " + range[0] + ".." + range[1] + ":\n" + String.join("\n", failures), 0, failures.size());
  }

  // Reference: integrity paper §5 ("Most existing (k, l) threshold signature schemes ... can be used"):
  // the same runs with threshold BLS, Shoup RSA (512-bit moduli in the simulator, for speed) and one coin
  // per batch; a few seeds each.
  @Test
  public void ctWithBlsRsaAndPerBatchCoinsHasNoViolations() throws Exception {
    long[] range = seeds(2);
    List<SimOptions> runs = new ArrayList<>();
    for (long seed = range[0]; seed <= range[1]; seed++) {
      Byzantine b = seed % 2 == 0 ? Byzantine.TWINS : Byzantine.MUTATE;
      runs.add(SimOptions.of(seed, b).withRandom(SimOptions.Randomness.CT, SchemeId.BLS, false));
      runs.add(SimOptions.of(seed, b).withRandom(SimOptions.Randomness.CT, SchemeId.RSA, false));
      runs.add(SimOptions.of(seed, b).withRandom(SimOptions.Randomness.CT, SchemeId.CKS, true));
    }
    List<String> failures = runAll(runs);
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

    byte[] withView = CoinConfig.requestCoinMessage(group, 1, new Request(4, "urn:uuid:c", 1, true, new byte[] {1, 2, 4}).encode());
    byte[] wrong = cks.coinValue(cks.combine(dealt.group(), withView, List.of(
        cks.share(dealt.group(), dealt.share(1), withView), cks.share(dealt.group(), dealt.share(4), withView))));
    checker.executed(1, new Effect.Execute(1, 1, pp.digest(), List.of(q), List.of(wrong)));
    checker.executed(2, new Effect.Execute(1, 1, pp.digest(), List.of(q), List.of(new byte[0])));
    List<String> v = checker.violations();
    assertTrue(v.toString(), v.stream().anyMatch(x -> x.startsWith("S8") && x.contains("replica 1") && x.contains("not the coin")));
    assertTrue(v.toString(), v.stream().anyMatch(x -> x.startsWith("S8") && x.contains("replica 2") && x.contains("(none)")));
    assertTrue(v.toString(), v.stream().anyMatch(x -> x.startsWith("S8") && x.contains("different random numbers")));
  }
}
