package org.bftws.sim;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.bftws.core.crypto.threshold.SchemeId;
import org.junit.Test;

/**
 * {@code scripts/simulate --keys dkg}: every run starts with the replicas' individual keys only, generates the
 * coin's and the TDH2 key over the group's PBFT ordering under the seed's faults and nemesis (GJKR over the
 * agreed sequence), then serves randomized and sealed requests with them. Every invariant of the simulator
 * holds, and the key generation's: D1 agreement on group.pub, the seq and QUAL; D2 correct shares that match
 * and interpolate to the group keys; D3 every correct replica finishes and certifies; D4 a correct dealer in
 * QUAL; D5 fewer than k shares in Byzantine hands; D6 no correct replica that caught up past the key switch by
 * state transfer executes above it without the keys. f+1 colluding dealers are caught (D4, D5).
 *
 * <p>Seeds: {@code -Dsim.dkgSeeds=A..B} (default 1..6; {@code sim.seeds} is the PBFT sweep's, 1,000 in CI).
 */
public class DkgSimulationTest {
  private static final List<Byzantine> NEMESES = List.of(Byzantine.NONE, Byzantine.TWINS, Byzantine.MUTATE,
      Byzantine.SILENT, Byzantine.CLIENT, Byzantine.DEALER);
  private static final Pattern REFUSED = Pattern.compile("refused-before-keys=(\\d+)");

  static SimOptions dkg(long seed, int f, Byzantine b) {
    return new SimOptions(seed, f, 3, 40, b, SimOptions.Randomness.CT, SchemeId.CKS, false).withConfidential(true)
        .withDkg(true);
  }

  private static long[] seeds() {
    String[] r = System.getProperty("sim.dkgSeeds", "1..6").split("\\.\\.");
    long from = Long.parseLong(r[0]);
    return new long[] {from, r.length > 1 ? Long.parseLong(r[1]) : from};
  }

  @Test
  public void generatedKeysServeTheWorkloadUnderEveryNemesis() throws Exception {
    long[] range = seeds();
    List<SimOptions> runs = new ArrayList<>();
    for (long seed = range[0]; seed <= range[1]; seed++) {
      runs.add(dkg(seed, 1, NEMESES.get((int) Math.floorMod(seed, (long) NEMESES.size()))));
    }
    runs.add(dkg(range[0], 2, Byzantine.DEALER)); // n = 7: the quorums of a larger group
    runs.add(dkg(range[0] + 1, 1, Byzantine.DEALER).withRandom(SimOptions.Randomness.CT, SchemeId.BLS, false));
    List<String> failures = new ArrayList<>();
    long served = 0;
    long refused = 0;
    for (SimResult r : SimulationTest.runAll(runs)) {
      served += r.randomsChecked();
      Matcher m = REFUSED.matcher(r.describe());
      refused += m.find() ? Long.parseLong(m.group(1)) : 0;
      if (!r.ok() || r.describe().contains("keys@none") || r.requestsDelivered() == 0) {
        failures.add(r.report(false) + "\n  replay: " + r.options().replay());
      }
    }
    System.out.println("dkg simulation: seeds=" + runs.size() + " failures=" + failures.size() + " randoms_served="
        + served + " refused_before_keys=" + refused);
    assertTrue(failures.size() + " failing seeds:\n" + String.join("\n", failures), failures.isEmpty());
    assertTrue("random numbers of the generated coin key checked: " + served, served > 0);
    // requests ordered before the keys serve were refused, and S7 found the clients' replies equal to the
    // refusal the replay gives them, alike at every replica
    assertTrue("randomized or sealed requests refused before the keys: " + refused, refused > 0);
  }

  // Seed 67 under twins: replica 3 installs a checkpoint above the key switch by state transfer with the batch
  // after it, which holds a randomized request, committed there already; its engine holds that batch's shares
  // until the simulator has installed the keys the checkpoint delivered (D6), and a twin answering alike finds
  // no f+1 equal wrong replies to make (S7).
  @Test
  public void aReplicaCatchingUpPastTheKeySwitchTossesWithTheKeysItsCheckpointDelivered() {
    SimResult r = new Simulation(new SimOptions(67, 1, 3, 60, Byzantine.TWINS, SimOptions.Randomness.CT, SchemeId.CKS,
        false).withConfidential(true).withDkg(true)).run();
    assertTrue(r.report(true) + "\n  replay: " + r.options().replay(), r.ok());
    assertTrue("a state transfer: " + r.describe(), r.stateTransfers() > 0);
  }

  // Negative control N2: f+1 dealers accuse every correct dealer; their complaints fill the first n - t, so QUAL
  // holds colluders only (D4), and they hold k shares (D5). The checker must say so.
  @Test
  public void fPlusOneCollidingDealersAreCaught() throws Exception {
    List<SimOptions> runs = new ArrayList<>();
    for (long seed = 1; seed <= 2; seed++) {
      runs.add(dkg(seed, 1, Byzantine.COLLUDERS));
    }
    for (SimResult r : SimulationTest.runAll(runs)) {
      assertTrue("seed " + r.options().seed() + " caught: " + r.violations(),
          r.violations().stream().anyMatch(v -> v.startsWith("D5 secrecy")));
      assertTrue("seed " + r.options().seed() + ": QUAL of colluders only: " + r.violations(),
          r.violations().stream().anyMatch(v -> v.startsWith("D4 secrecy")));
    }
  }

  // What a replica keeps of the key generation (its checkpoint state) ends with group.cert: the same at every
  // correct replica, and bounded by the operations of one run (dealing, complaints, justification and opening of
  // each key, one signature: 9 per replica, 2 more from an equivocating dealer), whatever is ordered later.
  @Test
  public void theKeptKeyGenerationEndsWithTheCertificate() {
    for (long seed = 1; seed <= 2; seed++) {
      Simulation sim = new Simulation(dkg(seed, 1, Byzantine.DEALER));
      SimResult r = sim.run();
      assertTrue(r.report(false), r.ok());
      Integer size = null;
      for (ReplicaNode node : sim.replicas) {
        if (node.judged()) {
          SimDkg.State st = node.instances.get(0).keyGen;
          assertTrue("replica " + node.id + " certified", st.certified);
          size = size == null ? st.transcript.size() : size;
          assertEquals("replica " + node.id + " keeps what the others keep", (int) size, st.transcript.size());
          assertTrue(st.transcript.size() + " operations kept", st.transcript.size() <= 9 * 4 + 2);
        }
      }
    }
  }

  @Test
  public void combinationsThatCannotWorkAreRefusedNamingTheOption() {
    SimOptions ok = dkg(1, 1, Byzantine.NONE);
    assertEquals(ok, ok.check());
    assertRefused(ok.withOrdering(SimOptions.Ordering.ASYNC), "--ordering pbft");
    assertRefused(ok.withRandom(SimOptions.Randomness.NONE, SchemeId.CKS, false), "--random ct");
    assertRefused(ok.withRandom(SimOptions.Randomness.CT, SchemeId.RSA, false), "--scheme rsa");
    assertRefused(ok.withConfiguration(SimOptions.Configuration.III), "configuration III");
    assertRefused(ok.withRestarts(SimOptions.Restarts.JOURNAL), "--restarts journal");
    assertRefused(ok.withDkg(false).with(1, Byzantine.DEALER), "--keys dkg");
    assertRefused(ok.withDkg(false).with(1, Byzantine.COLLUDERS), "--keys dkg");
    assertTrue(ok.replay(), ok.replay().contains("--keys dkg"));
  }

  private static void assertRefused(SimOptions o, String naming) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, o::check);
    assertTrue(e.getMessage(), e.getMessage().contains(naming));
  }
}
