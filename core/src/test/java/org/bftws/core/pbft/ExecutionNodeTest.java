package org.bftws.core.pbft;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.bftws.core.engine.Event;
import org.bftws.core.message.Kind;
import org.bftws.core.message.OrderedBatch;
import org.bftws.core.message.Request;
import org.bftws.core.message.Signed;
import org.bftws.core.testkit.EngineHarness;
import org.junit.Test;

/**
 * Configuration III (BFT-WS §3.3.3; Yin et al., SOSP'03): agreement replicas order and certify, execution
 * nodes check the certificates, execute, reply, checkpoint among themselves and catch up.
 */
public class ExecutionNodeTest {

  // Reference: BFT-WS §3.3.3 and Yin et al. §3 — the agreement cluster orders, the execution cluster executes
  // and replies; the client's Voter counts f+1 matching replies of execution nodes.
  @Test
  public void executionNodesExecuteInOrderAndAloneReplyToClients() {
    SeparatedGroup g = new SeparatedGroup(1);
    g.invokeAll(6, "op-");
    assertEquals(6, g.delivered.size());
    List<String> expected = List.of("op-0", "op-1", "op-2", "op-3", "op-4", "op-5");
    for (int e : g.executionIds) {
      assertEquals("execution node " + e, expected, g.operations(e));
      assertArrayEquals(g.apps.get(g.executionIds.get(0)).getState(), g.apps.get(e).getState());
    }
    for (int i = 0; i < g.n; i++) {
      assertTrue("agreement replica " + i + " executed nothing", g.executed.get(i).isEmpty());
    }
    for (EngineHarness.Msg m : g.sent) {
      if (m.to() == g.clientId) {
        assertTrue("reply from " + m.from() + ", not an execution node", g.cfg.isExecutionNode(m.from()));
      }
    }
  }

  // Reference: Yin et al. §3.3 — execution checkpoints certified by g+1 matching votes let the execution nodes
  // and, through the votes sent to them, the agreement nodes garbage-collect the batches they hold.
  @Test
  public void executionCheckpointsReleaseTheBatchesBothSidesHold() {
    SeparatedGroup g = new SeparatedGroup(1);
    g.invokeAll(9, "op-");
    g.tick(120); // votes resent in a retransmission round reach every node
    for (int e : g.executionIds) {
      ExecutionNode x = g.execution.get(e);
      assertEquals(9, x.lastExecuted());
      assertEquals(8, x.stableCheckpoint());
      assertEquals("only the batch above the stable checkpoint is held", 1, x.heldBatches());
    }
    for (int i = 0; i < g.n; i++) {
      Replica r = g.agreement[i];
      assertEquals(8, r.handoutsReleased());
      assertTrue("replica " + i + " holds " + r.handoutsHeld(), r.handoutsHeld() <= 1);
    }
    // the execution nodes' ordering digest is the agreement replicas' own: one client table on both sides
    Event.CheckpointStable atAgreement = g.eventsAt(0, Event.CheckpointStable.class).get(1);
    Event.CheckpointStable atExecution = g.eventsAt(g.executionIds.get(0), Event.CheckpointStable.class).get(1);
    assertEquals(8, atAgreement.seq());
    assertArrayEquals(atAgreement.digest(), atExecution.digest());
  }

  // Reference: §3.3.3 "a proof that 2f+1 agreement nodes committed it" — a certificate with fewer commits, a
  // commit on another batch, a forged signature or a repeated signer is refused, whoever sends it.
  @Test
  public void forgedAgreementCertificatesAreRefused() {
    SeparatedGroup g = new SeparatedGroup(1);
    int target = g.executionIds.get(0);
    g.drop = m -> m.to() == target && SeparatedGroup.kind(m) == Kind.ORDERED;
    g.invoke("op-0");
    g.tickUntil(() -> g.delivered.size() == 1, 1_000);
    Signed genuine = null;
    for (EngineHarness.Msg m : g.sent) {
      if (SeparatedGroup.kind(m) == Kind.ORDERED) {
        genuine = Signed.decode(m.bytes());
        break;
      }
    }
    assertNotNull(genuine);
    OrderedBatch b = OrderedBatch.decode(genuine.body());
    List<Signed> commits = b.commits();
    Signed otherRequest = Signed.sign(Kind.REQUEST, g.clientId, new Request(g.clientId, "urn:uuid:separated-client", 1,
        false, "forged".getBytes(StandardCharsets.UTF_8)).encode(), g.signers.get(g.clientId));
    Signed badSignature = Signed.of(Kind.COMMIT, commits.get(2).sender(), commits.get(2).body(), new byte[64]);
    List<OrderedBatch> forgeries = List.of(
        new OrderedBatch(b.seq(), b.view(), b.requests(), commits.subList(0, 2)),
        new OrderedBatch(b.seq(), b.view(), List.of(otherRequest), commits),
        new OrderedBatch(b.seq(), b.view(), b.requests(), List.of(commits.get(0), commits.get(1), badSignature)),
        new OrderedBatch(b.seq(), b.view(), b.requests(), List.of(commits.get(0), commits.get(1), commits.get(1))),
        new OrderedBatch(b.seq(), b.view() + 1, b.requests(), commits));
    int byzantine = 3;
    for (OrderedBatch forged : forgeries) {
      g.deliver(target, Signed.sign(Kind.ORDERED, byzantine, forged.encode(), g.signers.get(byzantine)).encode());
    }
    assertEquals(0, g.execution.get(target).lastExecuted());
    long refused = g.events.get(target).stream()
        .filter(e -> e instanceof Event.Evidence ev && ev.node() == byzantine && ev.what().contains("invalid agreement"))
        .count();
    assertEquals(forgeries.size(), refused);
    g.deliver(target, genuine.encode());
    assertEquals(1, g.execution.get(target).lastExecuted());
    assertEquals(List.of("op-0"), g.operations(target));
  }

  // Reference: Yin et al. §3.3 — an execution node that missed batches the others have checkpointed past
  // fetches the stable checkpoint's state from another execution node and goes on from there.
  @Test
  public void laggingExecutionNodeCatchesUpByStateTransferFromPeers() {
    SeparatedGroup g = new SeparatedGroup(1);
    int lagging = g.executionIds.get(2);
    g.down.add(lagging);
    g.invokeAll(10, "op-");
    assertEquals(0, g.execution.get(lagging).lastExecuted());
    g.down.remove(lagging);
    g.tickUntil(() -> g.execution.get(lagging).lastExecuted() == 10, 2_000);
    assertEquals(10, g.execution.get(lagging).lastExecuted());
    assertFalse("installed a stable checkpoint", g.eventsAt(lagging, Event.StateInstalled.class).isEmpty());
    assertArrayEquals(g.apps.get(g.executionIds.get(0)).getState(), g.apps.get(lagging).getState());
    g.invokeAll(1, "after-");
    assertEquals(List.of("after-0"), lastOperations(g, lagging, 1));
  }

  // Reference: Yin et al. §3.3 — with nothing from the agreement replicas, an execution node gets from another
  // execution node its stable checkpoint and the certified batches above it, relayed with their certificates.
  @Test
  public void executionNodeCutOffFromAgreementGetsStateAndBatchesFromPeers() {
    SeparatedGroup g = new SeparatedGroup(1);
    int cut = g.executionIds.get(0);
    g.drop = m -> m.to() == cut && m.from() < g.n;
    g.invokeAll(6, "op-");
    g.tickUntil(() -> g.execution.get(cut).lastExecuted() == 6, 2_000);
    assertEquals(6, g.execution.get(cut).lastExecuted());
    assertEquals(4, g.eventsAt(cut, Event.StateInstalled.class).get(0).seq());
    assertEquals(List.of("op-4", "op-5"), g.operations(cut));
    assertTrue("batches relayed by a peer", g.sent.stream().anyMatch(m -> m.to() == cut
        && g.cfg.isExecutionNode(m.from()) && SeparatedGroup.kind(m) == Kind.ORDERED));
  }

  // Reference: Yin et al. §3.3 — a restarted execution node, its state lost, recovers it from the others.
  @Test
  public void restartedExecutionNodeRecoversFromOtherExecutionNodes() {
    SeparatedGroup g = new SeparatedGroup(1);
    g.invokeAll(6, "op-");
    int restarted = g.executionIds.get(1);
    g.restartExecution(restarted);
    g.invokeAll(4, "more-");
    g.tickUntil(() -> g.execution.get(restarted).lastExecuted() == 10, 2_000);
    assertEquals(10, g.execution.get(restarted).lastExecuted());
    assertArrayEquals(g.apps.get(g.executionIds.get(0)).getState(), g.apps.get(restarted).getState());
  }

  // Reference: §3.3.3 — a Byzantine execution node is out-voted (f+1 matching replies of the 2f+1), and so is
  // a Byzantine agreement node (here silent: 2f+1 agreement replicas still commit and certify).
  @Test
  public void faultyExecutionNodeAndSilentAgreementReplicaAreOutvoted() {
    SeparatedGroup g = new SeparatedGroup(1);
    int liar = g.executionIds.get(0);
    g.lying.add(liar);
    g.down.add(1);
    g.invokeAll(5, "op-");
    assertEquals(5, g.delivered.size());
    int honest = g.executionIds.get(1);
    List<Event.Delivered> seen = new ArrayList<>(g.delivered);
    SeparatedGroup replay = new SeparatedGroup(1);
    replay.invokeAll(5, "op-");
    for (int k = 0; k < 5; k++) {
      assertArrayEquals("the correct result of call " + k, replay.delivered.get(k).result(), seen.get(k).result());
    }
    assertEquals(5, g.execution.get(honest).lastExecuted());
  }

  // Reference: Yin et al. §3.3 — the agreement cluster keeps what the execution cluster has not checkpointed;
  // with no execution node up it orders at most one log window on and holds a bounded number of batches.
  @Test
  public void agreementReplicasStopHandingOutWhenNoExecutionNodeCheckpoints() {
    SeparatedGroup g = new SeparatedGroup(1);
    g.down.addAll(g.executionIds);
    for (int k = 0; k < 30; k++) {
      g.invoke("op-" + k);
      g.tick(5);
    }
    for (int i = 0; i < g.n; i++) {
      assertTrue("replica " + i + " executed " + g.agreement[i].lastExecuted(),
          g.agreement[i].lastExecuted() <= g.cfg.logWindow());
      assertTrue("replica " + i + " holds " + g.agreement[i].handoutsHeld(),
          g.agreement[i].handoutsHeld() <= 2 * g.cfg.logWindow());
    }
    g.down.removeAll(g.executionIds);
    g.tickUntil(() -> g.delivered.size() == 30, 20_000);
    assertEquals(30, g.delivered.size());
  }

  private static List<String> lastOperations(SeparatedGroup g, int node, int count) {
    List<String> ops = g.operations(node);
    return ops.subList(ops.size() - count, ops.size());
  }
}
