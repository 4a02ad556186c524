package org.bftws.sim;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.Test;

/**
 * The hybrid engine in the simulator ({@code scripts/simulate --ordering hybrid}, docs/design/hybrid.md): the
 * asynchronous engine's nemeses and adversarial scheduler, with ticks (the engine switches on them), every
 * invariant, the catch-up check (L2) included, and the negative control.
 */
public class HybridSimulationTest {
  /** The asynchronous engine's nemeses apply: a leader's lane messages go in {@code Kind.ASYNC} envelopes too. */
  private static final List<Byzantine> NEMESES = List.of(Byzantine.NONE, Byzantine.TWINS, Byzantine.MUTATE,
      Byzantine.SILENT, Byzantine.CLIENT, Byzantine.EQUIVOCATE);

  private static SimOptions hybrid(long seed, int requests, Byzantine b) {
    return new SimOptions(seed, 1, 3, requests, b).withOrdering(SimOptions.Ordering.HYBRID);
  }

  @Test
  public void hybridOrderingKeepsEveryInvariantUnderEveryNemesis() throws Exception {
    List<SimOptions> runs = new ArrayList<>();
    for (long seed = 1; seed <= 2; seed++) {
      for (Byzantine b : NEMESES) {
        runs.add(hybrid(seed, 30, b));
      }
    }
    for (SimResult r : SimulationTest.runAll(runs)) {
      String why = r.report(false) + "\n  replay: " + r.options().replay();
      assertTrue(why, r.ok());
      assertTrue(why, r.options().replay().endsWith(" --ordering hybrid"));
      assertTrue(why, r.requestsDelivered() >= (r.options().byzantine() == Byzantine.CLIENT ? 20 : 30));
      if (r.options().byzantine() == Byzantine.MUTATE) {
        assertTrue("mutated messages left no evidence: " + why, r.evidence() > 0);
      }
    }
    SimOptions o = hybrid(3, 20, Byzantine.EQUIVOCATE);
    assertEquals(Simulation.run(o).describe(), Simulation.run(o).describe());
  }

  // A replica paused while the three others, one of them Byzantine, went through several fallbacks: it must
  // learn how the epochs it missed ended (EpochEnds), or the next agreement lacks n − f correct replicas.
  @Test
  public void aReplicaPausedThroughSeveralFallbacksCatchesUpAndTheGroupGoesOn() throws Exception {
    SimResult r = Simulation.run(hybrid(26, 200, Byzantine.MUTATE));
    String why = r.report(false) + "\n  replay: " + r.options().replay();
    assertTrue(why, r.ok());
    assertEquals(why, 200, r.requestsDelivered());
  }

  // TOCS 2002 §4.3 and docs/journal.md "The hybrid engine": a correct replica's crash is a kill and a restart
  // from its journal, under the nemeses; it stays correct, so every invariant (S11 included) holds, and some
  // runs do restart a replica.
  @Test
  public void hybridJournalRestartsKeepEveryInvariant() throws Exception {
    List<SimOptions> runs = new ArrayList<>();
    for (long seed = 13; seed <= 24; seed++) {
      runs.add(hybrid(seed, 40, NEMESES.get((int) (seed % NEMESES.size()))).withRestarts(SimOptions.Restarts.JOURNAL));
    }
    int restarted = 0;
    for (SimResult r : SimulationTest.runAll(runs)) {
      assertTrue(r.report(false) + "\n  replay: " + r.options().replay(), r.ok());
      restarted += r.faults().contains("journal-restarts=") ? 1 : 0;
    }
    assertTrue("only " + restarted + " runs restarted a replica from its journal", restarted >= 2);
  }

  // Its control: restarted without its journal's committing messages, a replica is caught sending a second
  // SWITCH in an epoch or a second SEND in its fallback's agreement (S11), on seeds 35 and 38 of these runs
  // (40 requests, no randomness), the two of seeds 1..40 that catch it: which seeds do moves with the schedule,
  // so with any change to the messages the lane sends.
  @Test
  public void hybridForgetfulRestartsAreCaught() throws Exception {
    List<SimOptions> runs = new ArrayList<>();
    for (long seed : new long[] {35, 38}) {
      runs.add(hybrid(seed, 40, Byzantine.NONE).withRestarts(SimOptions.Restarts.FORGETFUL));
    }
    long caught = SimulationTest.runAll(runs).stream().filter(r -> r.violations().stream()
        .anyMatch(v -> v.startsWith("S11"))).count();
    assertTrue("only " + caught + " of 2 forgetful restarts caught contradicting themselves", caught >= 1);
  }

  // N1: f+1 Byzantine replicas (twins splitting the group) show up as violations.
  @Test
  public void hybridOverThresholdIsCaught() throws Exception {
    List<SimOptions> runs = new ArrayList<>();
    for (long seed = 1; seed <= 3; seed++) {
      runs.add(hybrid(seed, 30, Byzantine.OVER_THRESHOLD));
    }
    long caught = SimulationTest.runAll(runs).stream().filter(r -> r.violations().stream()
        .anyMatch(v -> v.startsWith("S1") || v.startsWith("S7"))).count();
    assertTrue("only " + caught + " of 3 hybrid over-threshold runs violated S1 or S7", caught >= 2);
  }
}
