package org.bftws.core.pbft;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.util.List;
import org.bftws.core.config.GroupConfig;
import org.junit.Test;

/** BFT-WS §3.3.3 (configuration III): agreement replicas order without executing or replying. */
public class RoleTest {

  // Reference: BFT-WS §3.3.3 — "agreement nodes" order requests; execution happens elsewhere, so they
  // hand each committed batch on, send no replies and checkpoint the ordering state alone.
  @Test
  public void agreementReplicasOrderAndCheckpointWithoutReplying() {
    Cluster c = new Cluster(GroupConfig.builder().set(GroupConfig.CHECKPOINT_INTERVAL, 4)
        .set(GroupConfig.LOG_WINDOW, 8).set(GroupConfig.MAX_OUTSTANDING_BATCHES, 2).executing(List.of()).build(), 1);
    for (int k = 0; k < 5; k++) {
      c.invoke("op-" + k);
      c.deliverAll();
    }
    for (int i = 0; i < c.n; i++) {
      assertEquals(List.of("op-0", "op-1", "op-2", "op-3", "op-4"), c.operations(i));
      assertEquals(4, c.replicas[i].stableCheckpoint());
    }
    assertTrue("no replies from agreement replicas", c.delivered.isEmpty());
  }

  @Test
  public void executionOnlyNodesAreNotReplicas() {
    Cluster c = new Cluster(1);
    assertThrows(IllegalArgumentException.class,
        () -> new Replica(c.cfg, 0, c.signers.get(0), c.verifier, Role.EXECUTION));
  }
}
