package org.bftws.core.hybrid;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.Set;
import org.bftws.core.message.Request;
import org.junit.Test;

/** Checkpoints carry the epoch ({@link CheckpointPosition}): a replica far behind rejoins through one. */
public class HybridEpochCheckpointTest {
  private static final int TIMEOUT = 20;

  // Reference: Castro-Liskov §4.3 (state transfer by a stable checkpoint); BDT's Transformer (epochs)
  @Test
  public void aReplicaCutOffForMoreEpochsThanPeersKeepRejoinsThroughACheckpointOfTheirEpoch() {
    HybridGroup g = new HybridGroup(4, 1, 1, Set.of(), HybridGroup.fifo(), HybridGroup.config(TIMEOUT));
    // replica 3 hears nothing and is heard by no one; every leader's PROPOSE is lost, so each request is
    // ordered by a fallback and each fallback ends an epoch
    g.cut((from, to, what) -> from == 3 || to == 3 || what.endsWith("PROPOSE"));
    for (int k = 0; g.replica(0).view() <= EpochEnds.KEPT + 4; k++) {
      Request q = g.request(k % 2);
      g.await(() -> g.executedAt(q) == 3, 40 * TIMEOUT);
    }
    long epochs = g.replica(0).view();
    assertEquals(0, g.replica(3).view());
    assertTrue("a stable checkpoint", g.replica(1).stableCheckpoint() >= 16);
    // healed, and replica 0 falls silent: n - f = 3 of replicas 1, 2 and 3 are needed for every step now
    g.cut((from, to, what) -> from == 0 || to == 0);
    for (int k = 0; k < 6; k++) {
      Request q = g.request(k % 2);
      g.await(() -> executed(g, 1, q) && executed(g, 2, q), 60 * TIMEOUT);
    }
    g.await(() -> g.replica(3).lastExecuted() == g.replica(1).lastExecuted(), 60 * TIMEOUT);
    assertTrue("replica 3 installed " + g.installed(3), g.installed(3) >= 16);
    assertTrue("replica 3 in epoch " + g.replica(3).view(), g.replica(3).view() >= epochs);
    // the checkpoints replica 3 took after it rejoined are the others' to the byte (assertAgreement compares
    // every checkpoint two correct replicas took at one seq)
    assertTrue("replica 3 took checkpoints " + g.checkpoints.get(3).keySet(),
        g.checkpoints.get(3).keySet().stream().anyMatch(seq -> seq > g.installed(3)));
    g.assertAgreement();
  }

  private static boolean executed(HybridGroup g, int r, Request q) {
    return g.executed.get(r).stream().anyMatch(x -> x.id().equals(q.id()));
  }
}
