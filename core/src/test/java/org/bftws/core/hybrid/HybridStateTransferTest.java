package org.bftws.core.hybrid;

import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.bftws.core.message.Request;
import org.junit.Test;

/**
 * A replica that catches up by state transfer while still in an old epoch whose fallback then finishes here
 * (docs/design/hybrid.md): what the checkpoint covers is not delivered again, and the replica goes on to the
 * next epoch as every correct replica did.
 */
public class HybridStateTransferTest {
  private static final int TIMEOUT = 20;

  // Reference: Castro-Liskov §4.3 (state transfer), BDT's Transformer (the next epoch from h*+1)
  @Test
  public void aCheckpointAboveTheFallbacksSlotIsInstalledBeforeTheFallbackFinishes() {
    HybridGroup g = new HybridGroup(4, 1, 1, Set.of(), HybridGroup.fifo(), HybridGroup.config(TIMEOUT));
    // replica 3 takes part in epoch 0's switch and agreement but hears no lane message, batch or checkpoint
    HybridGroup.Cut lagging = (from, to, what) -> to == 3 && from < 4 && (what.matches("hyb/0 (PROPOSE|PREPARE|COMMIT)")
        || what.startsWith("hyb-blocks") || what.equals("CHECKPOINT") || what.equals("STATE"));
    g.cut(lagging);
    for (int k = 0; k < 20; k++) {
      Request q = g.request(k % 2);
      g.await(() -> g.executedAt(q) == 3, 10 * TIMEOUT);
    }
    // leader 0 stops proposing and voting: epoch 0 falls back at h* = 20, replica 3 with the others
    g.cut((from, to, what) -> lagging.test(from, to, what)
        || from == 0 && what.matches("hyb/0 (PROPOSE|PREPARE|COMMIT)"));
    Request stalled = g.request(0);
    g.await(() -> g.executedAt(stalled) == 3, 10 * TIMEOUT);
    // epoch 1 goes on past a stable checkpoint above h*+1 = 21 while replica 3 still waits for epoch 0's chain
    g.cut(lagging);
    List<Request> sent = new ArrayList<>();
    while (g.replica(0).stableCheckpoint() < 32) {
      Request q = g.request(sent.size() % 2);
      sent.add(q);
      g.await(() -> g.executedAt(q) == 3, 10 * TIMEOUT);
    }
    assertTrue(g.describe(), g.replica(3).lastExecuted() == 0 && g.replica(3).view() == 0);
    g.healAndOrder(5, 40 * TIMEOUT);
    assertTrue("replica 3 installed " + g.installed(3), g.installed(3) >= 32);
    assertTrue(g.describe(), g.replica(3).view() >= 1);
    assertTrue(g.describe(), g.replica(3).deliveredSeq() == g.replica(0).deliveredSeq());
  }
}
