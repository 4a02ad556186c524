package org.bftws.core.hybrid;

import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.bftws.core.message.Request;
import org.junit.Test;

/**
 * The slow-leader rule in logical time (docs/design/hybrid.md): every message takes one tick, replica 0's take
 * {@code delay} ticks, under the 20-tick timeout (so a fixed-timeout leader would never be replaced), and four
 * closed-loop clients each send their next request once f+1 correct replicas executed the last one. The same
 * run with SINTRA's engine is the yardstick: the hybrid must deliver at least 0.8 of what the asynchronous
 * engine delivers at every delay. Logical time, so the counts are deterministic; the table is
 * printed for docs/design/hybrid.md.
 */
public class HybridSlowLeaderTest {
  private static final int TIMEOUT = 20;
  private static final int TICKS = 300;

  @Test
  public void aSlowLeaderDoesNotHoldTheGroupBelowTheAsynchronousEngine() {
    StringBuilder table = new StringBuilder("delay | hybrid | async | ratio\n");
    for (int delay : new int[] {1, 10, 19}) {
      long hybrid = completed(false, delay);
      long async = completed(true, delay);
      double ratio = (double) hybrid / async;
      table.append(delay).append(" | ").append(hybrid).append(" | ").append(async)
          .append(String.format(" | %.2f%n", ratio));
      assertTrue("delay " + delay + ": hybrid " + hybrid + " against async " + async + "\n" + table, ratio >= 0.8);
    }
    System.out.print("requests completed in " + TICKS + " ticks, replica 0's messages late by delay ticks\n" + table);
  }

  private static long completed(boolean async, int delay) {
    HybridGroup g = new HybridGroup(4, 1, 7, Set.of(), HybridGroup.fifo(), HybridGroup.config(TIMEOUT), async);
    for (int i = 0; i < 4; i++) {
      g.slow(i, i == 0 ? delay : 1);
    }
    List<Request> last = new ArrayList<>();
    for (int c = 0; c < 4; c++) {
      last.add(g.request(c));
    }
    long done = 0;
    for (int t = 0; t < TICKS; t++) {
      g.run();
      for (int c = 0; c < 4; c++) {
        if (g.executedAt(last.get(c)) >= 2) {
          done++;
          last.set(c, g.request(c));
        }
      }
      g.tick();
    }
    g.assertAgreement();
    return done;
  }
}
