package org.bftws.sim;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.Test;

/**
 * {@code scripts/simulate --reconfigure} as a test (docs/simulator.md): seeded runs in which administrators add,
 * remove and replace replicas under the usual network faults and a Byzantine member, every invariant of {@link
 * EpochChecker} holding; a seed replays exactly; the negative control (a replica that ignores the epoch boundary)
 * is caught. The seed range is {@code -Dreconfigure.seeds} (1..6 by default).
 */
public class ReconfigureSimulationTest {
  private static long[] seeds() {
    // its own property: the build passes sim.seeds=1..1000 to every simulation test, too many for these runs
    String[] r = System.getProperty("reconfigure.seeds", "1..6").split("\\.\\.");
    long from = Long.parseLong(r[0]);
    return new long[] {from, r.length > 1 ? Long.parseLong(r[1]) : from};
  }

  @Test
  public void seededRunsKeepEveryInvariantAcrossEpochs() {
    long[] range = seeds();
    List<String> failures = new ArrayList<>();
    int epochs = 0;
    for (long seed = range[0]; seed <= range[1]; seed++) {
      ReconfigureSimulation.Result r = new ReconfigureSimulation(ReconfigureSimulation.Options.of(seed)).run();
      epochs += r.epochs();
      if (!r.ok()) {
        failures.add(r.describe() + "\n  " + String.join("\n  ", r.violations()) + "\n  replay: " + r.options().replay());
      }
    }
    System.out.println("reconfigure simulation: seeds " + range[0] + ".." + range[1] + " epochs begun " + epochs);
    assertTrue(failures.size() + " failing seeds:\n" + String.join("\n", failures), failures.isEmpty());
    assertTrue("the runs changed the membership", epochs > range[1] - range[0]);
  }

  // 4 → 5 → 6 → 7 → 6 → 5 → 4, every change taking effect with clients calling throughout.
  @Test
  public void growsToSevenAndBackToFour() {
    ReconfigureSimulation.Options o = new ReconfigureSimulation.Options(7, 3, 20,
        ReconfigureSimulation.Control.NONE, false, 0, 0, "aaarrr");
    ReconfigureSimulation.Result r = new ReconfigureSimulation(o).run();
    assertTrue(r.describe() + " " + r.violations(), r.ok());
    assertEquals(6, r.changes().size());
    assertEquals(60, r.delivered());
  }

  @Test
  public void aSeedReplaysExactly() {
    ReconfigureSimulation.Options o = ReconfigureSimulation.Options.of(3);
    assertEquals(new ReconfigureSimulation(o).run().describe(), new ReconfigureSimulation(o).run().describe());
  }

  // The negative control: a replica that knows nothing of epochs executes the reconfiguration as an operation
  // and stays in the first epoch; the checker must say so.
  @Test
  public void aReplicaThatIgnoresTheEpochBoundaryIsCaught() {
    for (long seed = 1; seed <= 3; seed++) {
      ReconfigureSimulation.Result r = new ReconfigureSimulation(
          ReconfigureSimulation.Options.of(seed).withControl(ReconfigureSimulation.Control.IGNORES_BOUNDARY)).run();
      assertFalse("seed " + seed + " control not caught: " + r.describe(), r.ok());
      assertTrue(r.violations().toString(), r.violations().stream().anyMatch(v -> v.startsWith("R1 agreement")));
    }
  }
}
