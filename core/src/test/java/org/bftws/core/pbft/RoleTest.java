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
  // hand each committed batch on (to execution nodes, absent here), execute nothing, send no replies and
  // checkpoint the ordering state alone.
  @Test
  public void agreementReplicasOrderAndCheckpointWithoutReplying() {
    Cluster c = new Cluster(GroupConfig.builder().set(GroupConfig.CHECKPOINT_INTERVAL, 4)
        .set(GroupConfig.LOG_WINDOW, 8).set(GroupConfig.MAX_OUTSTANDING_BATCHES, 2)
        .executionNodes(List.of(10, 11, 12)).build(), 1);
    for (int k = 0; k < 5; k++) {
      c.invoke("op-" + k);
      c.deliverAll();
    }
    for (int i = 0; i < c.n; i++) {
      assertEquals(List.of(), c.operations(i));
      assertEquals(5, c.replicas[i].lastExecuted());
      assertEquals(4, c.replicas[i].stableCheckpoint());
      assertEquals(Role.AGREEMENT, c.replicas[i].role());
    }
    assertEquals(Role.EXECUTION, Role.of(c.cfg, 10));
    assertTrue("no replies from agreement replicas", c.delivered.isEmpty());
  }

  @Test
  public void executionOnlyNodesAreNotReplicas() {
    Cluster c = new Cluster(1);
    assertThrows(IllegalArgumentException.class,
        () -> Replica.builder(c.cfg, 0, c.signers.get(0), c.verifier).role(Role.EXECUTION).build());
  }
}
