package org.bftws.sim;

import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.Test;

/**
 * Secure causal atomic broadcast (SINTRA §2.6) in the simulator: about half the requests are sealed under
 * the group's TDH2 key and opened after ordering. Every invariant holds across the nemeses, under PBFT and
 * asynchronous ordering; S3 and S7 check that each replica executed the plaintext the client sealed, in the
 * agreed order, and a mutating replica's bad decryption shares never stop it.
 */
public class ConfidentialSimulationTest {
  private static final List<Byzantine> PBFT_NEMESES = List.of(Byzantine.NONE, Byzantine.TWINS, Byzantine.MUTATE,
      Byzantine.SILENT, Byzantine.CLIENT, Byzantine.ISOLATE);
  private static final List<Byzantine> ASYNC_NEMESES = List.of(Byzantine.NONE, Byzantine.MUTATE, Byzantine.SILENT,
      Byzantine.EQUIVOCATE);

  @Test
  public void sealedRequestsOpenInOneOrderUnderEveryNemesis() throws Exception {
    List<SimOptions> runs = new ArrayList<>();
    for (long seed = 1; seed <= 12; seed++) {
      runs.add(new SimOptions(seed, 1, 3, 40, PBFT_NEMESES.get((int) (seed % PBFT_NEMESES.size())))
          .withConfidential(true));
    }
    for (long seed = 1; seed <= 4; seed++) {
      runs.add(new SimOptions(seed, 1, 3, 30, ASYNC_NEMESES.get((int) (seed % ASYNC_NEMESES.size())))
          .withOrdering(SimOptions.Ordering.ASYNC).withConfidential(true));
    }
    List<String> failures = new ArrayList<>();
    for (SimResult r : SimulationTest.runAll(runs)) {
      if (!r.ok() || r.requestsDelivered() == 0) {
        failures.add(r.report(false) + "\n  replay: " + r.options().replay());
      }
    }
    assertTrue(failures.size() + " failing seeds:\n" + String.join("\n", failures), failures.isEmpty());
  }
}
