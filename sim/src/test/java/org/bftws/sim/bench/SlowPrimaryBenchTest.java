package org.bftws.sim.bench;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.bftws.sim.SimOptions;
import org.junit.Test;

/**
 * The slow-primary benchmark's code path on a few requests: every request of every closed-loop client is
 * delivered under each ordering (PBFT, async, hybrid) with the primary slowed just under the view-change timeout,
 * no invariant is violated, PBFT's slowed primary is never replaced (the attack stays under the timeout), and
 * the CSV holds a row per (delay, ordering). No figure is asserted: it is a benchmark.
 */
public class SlowPrimaryBenchTest {
  @Test
  public void everyOrderingDeliversEveryRequestUnderASlowPrimary() throws Exception {
    int requests = 24;
    List<SlowPrimaryBench.Row> rows = SlowPrimaryBench.measure(new int[] {0, 180}, 1, 4, requests, 2);
    assertEquals(2 * SimOptions.Ordering.values().length, rows.size());
    for (SlowPrimaryBench.Row r : rows) {
      assertEquals(r.toString(), requests, r.delivered());
      assertEquals(r.toString(), 0, r.violations());
      assertTrue(r.toString(), r.ticks() > 0 && r.messages() > 0);
      if (r.ordering() == SimOptions.Ordering.PBFT) {
        assertEquals("the slow primary stays under the view-change timeout: " + r, 0, r.viewChanges());
      }
    }
    Path csv = Files.createTempFile("slow-primary", ".csv");
    SlowPrimaryBench.write(csv, rows, 4, 2);
    List<String> lines = Files.readAllLines(csv);
    assertEquals(rows.size() + 1, lines.size());
    assertTrue(lines.get(0), lines.get(0).startsWith("ordering,slow_delay_ticks,"));
    assertTrue(lines.toString(), lines.stream().anyMatch(l -> l.startsWith("async,180,2,4,1,24,")));
    assertTrue(lines.toString(), lines.stream().anyMatch(l -> l.startsWith("hybrid,180,2,4,1,24,")));
    Files.delete(csv);
  }
}
