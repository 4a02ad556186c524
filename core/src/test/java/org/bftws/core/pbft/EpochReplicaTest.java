package org.bftws.core.pbft;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.bftws.core.crypto.Ed25519;
import org.bftws.core.message.Kind;
import org.bftws.core.reconfig.Member;
import org.bftws.core.reconfig.Reconfigure;
import org.junit.Test;

/**
 * PBFT's epoch change (docs/design/reconfiguration.md, "Where it takes effect" and "Views across the boundary"):
 * a RECONFIGURE ordered and executed at seq r ends the epoch at the first checkpoint c at or above r; nothing
 * above c executes in the old epoch; once c is stable (Castro-Liskov §4.3) the new membership's replicas order
 * from c in view 0, a joining replica catches up by state transfer and a removed one stops.
 */
public class EpochReplicaTest {

  /** Replicas executed nothing above the epoch's last seq in the old epoch (epoch < 0: not checked), no request twice. */
  private static void checkBoundaryAndExactlyOnce(EpochGroup g, long epoch, long lastSeq) {
    for (var e : g.batches.entrySet()) {
      for (long[] b : e.getValue()) {
        assertTrue("replica " + e.getKey() + " executed seq " + b[1] + " in epoch " + b[0] + " past " + lastSeq,
            epoch < 0 || b[0] != epoch || b[1] <= lastSeq);
      }
      Set<String> ops = new HashSet<>();
      for (String op : g.executed.get(e.getKey())) {
        assertTrue("replica " + e.getKey() + " executed " + op + " twice", ops.add(op));
      }
    }
  }

  /** The epoch's last seq an accepted verdict names ("... from the stable checkpoint at seq c"). */
  private static long lastSeq(String verdict) {
    return Long.parseLong(verdict.substring(verdict.lastIndexOf(' ') + 1));
  }

  private static void submitOps(EpochGroup g, String prefix, int count) {
    for (int k = 0; k < count; k++) {
      g.submit(prefix + k);
    }
  }

  private static void untilSettled(EpochGroup g) {
    g.tickUntil(x -> x.inNewestEpoch() && x.allAnswered() && x.divergent().isEmpty(), 4000);
  }

  // Replace (same n): the newcomer takes the replaced member's place; the service goes on.
  @Test
  public void replaceMovesTheGroupToANewEpochAndTheNewcomerCatchesUpByStateTransfer() {
    EpochGroup g = new EpochGroup(4);
    submitOps(g, "before-", 2);
    long r = g.submit(g.replace(3).encode());
    submitOps(g, "after-", 6);
    untilSettled(g);
    assertTrue(g.verdicts(r).toString(), g.verdicts(r).get(0).startsWith("accepted: epoch 1: n=4"));
    assertEquals(List.of(0, 1, 2, 4), g.replicas.get(0).membership().members().stream().map(Member::id).toList());
    assertNotNull(g.replicas.get(3).stopped());
    assertTrue(g.replicas.get(3).stopped().contains("removed"));
    assertNull(g.replicas.get(4).stopped());
    assertEquals("the newcomer is where the others are", g.replicas.get(0).lastExecuted(),
        g.replicas.get(4).lastExecuted());
    checkBoundaryAndExactlyOnce(g, 0, lastSeq(g.verdicts(r).get(0)));
  }

  // Add (4 → 5 → 6 → 7, f = 1 → 2) and remove back to 4, with one replica crashed throughout; a bogus
  // reconfiguration and a replayed one are refused with their reasons and change nothing.
  @Test
  public void addsGrowTheGroupToSevenAndRemovesShrinkItBackWithAReplicaDown() {
    EpochGroup g = new EpochGroup(4);
    g.down.add(1);
    Reconfigure first = null;
    int[] sizes = {5, 6, 7};
    for (int n : sizes) {
      Reconfigure add = g.add();
      first = first == null ? add : first;
      long r = g.submit(add.encode());
      submitOps(g, "grow-" + n + "-", 3);
      untilSettled(g);
      assertTrue(g.verdicts(r).toString(), g.verdicts(r).get(0).startsWith("accepted: epoch " + (n - 4) + ": n=" + n));
      assertEquals(n, g.replicas.get(0).membership().n());
    }
    assertEquals(2, g.replicas.get(0).membership().f());
    long bogus = g.submit(Reconfigure.remove(EpochGroup.GROUP, 3, 0).encode());
    long replayed = g.submit(first.encode());
    untilSettled(g);
    assertTrue(g.verdicts(bogus).get(0), g.verdicts(bogus).get(0).startsWith("refused: reconfiguration needs 1 of 1"));
    assertTrue(g.verdicts(replayed).get(0),
        g.verdicts(replayed).get(0).contains("signed for epoch 0, the group is in epoch 3"));
    assertEquals(3, g.replicas.get(0).membership().epoch());
    for (int id = 6; id >= 4; id--) {
      long r = g.submit(g.remove(id).encode());
      submitOps(g, "shrink-" + id + "-", 3);
      untilSettled(g);
      assertTrue(g.verdicts(r).get(0), g.verdicts(r).get(0).startsWith("accepted"));
      assertNotNull(g.replicas.get(id).stopped());
    }
    assertEquals(List.of(0, 1, 2, 3), g.replicas.get(0).membership().members().stream().map(Member::id).toList());
    assertEquals(6, g.replicas.get(2).membership().epoch());
    checkBoundaryAndExactlyOnce(g, -1, 0);
  }

  // The dead host is the primary: the old epoch changes view first (§4.4), orders the replace, and the new
  // epoch starts in view 0 with the member at index 0 (stable id 1) as its primary.
  @Test
  public void replacingACrashedPrimaryGoesThroughAViewChangeInTheOldEpoch() {
    EpochGroup g = new EpochGroup(4);
    submitOps(g, "before-", 2);
    g.tickUntil(EpochGroup::allAnswered, 100);
    g.down.add(0);
    long r = g.submit(g.replace(0).encode());
    submitOps(g, "after-", 2);
    untilSettled(g);
    assertTrue(g.verdicts(r).get(0), g.verdicts(r).get(0).startsWith("accepted: epoch 1"));
    assertEquals(List.of(1, 2, 3, 4), g.replicas.get(1).membership().members().stream().map(Member::id).toList());
    assertEquals("the new epoch starts in view 0", 0, g.replicas.get(2).view());
    submitOps(g, "later-", 3);
    untilSettled(g);
    assertEquals(0, g.replicas.get(2).view());
    checkBoundaryAndExactlyOnce(g, 0, lastSeq(g.verdicts(r).get(0)));
  }

  // A view change in the new epoch (§4.4): its primary (index 0) crashes right after the boundary.
  @Test
  public void theNewEpochChangesViewWhenItsPrimaryCrashes() {
    EpochGroup g = new EpochGroup(4);
    long r = g.submit(g.replace(2).encode());
    untilSettled(g);
    assertTrue(g.verdicts(r).get(0), g.verdicts(r).get(0).startsWith("accepted: epoch 1"));
    g.down.add(0);
    submitOps(g, "new-epoch-", 3);
    untilSettled(g);
    assertEquals(1, g.replicas.get(1).view());
    assertEquals(List.of("new-epoch-0", "new-epoch-1", "new-epoch-2"), g.executed.get(3));
  }

  // The epoch's last seq is reached with no other request: the primary fills it with empty batches.
  @Test
  public void aReconfigurationAloneTakesEffect() {
    EpochGroup g = new EpochGroup(4);
    long r = g.submit(g.add().encode());
    untilSettled(g);
    assertTrue(g.verdicts(r).get(0), g.verdicts(r).get(0).startsWith("accepted: epoch 1: n=5"));
    assertEquals(5, g.replicas.get(4).membership().n());
    assertEquals(g.replicas.get(0).stableCheckpoint(), g.replicas.get(4).stableCheckpoint());
  }

  // A joiner takes the epoch's first checkpoint only with a quorum of the previous epoch behind it (§4.3's proof,
  // checked under the previous membership): one vote short, or a proof whose votes it checks under the new
  // epoch's keys, is refused.
  @Test
  public void aJoinerRefusesAStartWithoutAQuorumOfThePreviousEpoch() {
    EpochGroup g = new EpochGroup(4);
    long r = g.submit(g.add().encode());
    untilSettled(g);
    assertTrue(g.verdicts(r).get(0).startsWith("accepted"));
    EpochReplica.Start start = g.replicas.get(0).start();
    assertEquals(3, start.proof().size());
    EpochReplica.Start short1 = new EpochReplica.Start(start.previous(), start.seq(), start.digest(),
        start.proof().subList(0, 2));
    EpochReplica.Start wrongEpoch = new EpochReplica.Start(g.replicas.get(0).membership(), start.seq(), start.digest(),
        start.proof());
    EpochReplica.Setup setup = new EpochReplica.Setup(g.base, g.admins, EpochGroup.GROUP, EpochGroup.KEYS.signer(4),
        Ed25519.verifier(Map.of()));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new EpochReplica(setup, g.newest, 4).join(short1, g.replicas.get(0).chain()));
    assertTrue(e.getMessage(), e.getMessage().contains("invalid proof"));
    assertThrows(IllegalArgumentException.class,
        () -> new EpochReplica(setup, g.newest, 4).join(wrongEpoch, g.replicas.get(0).chain()));
    new EpochReplica(setup, g.newest, 4).join(start, g.replicas.get(0).chain());
  }

  // The old epoch orders nothing above its last seq c once c is known. Checkpoint votes are held back, so the
  // old primary could go on up to its log window, and replica 3 is cut off: no replica executes past c in the
  // old epoch, so no later checkpoint of it can become stable, and the replica behind starts the new epoch from
  // c by state transfer once the votes flow; the requests sent meanwhile execute once each, in the new epoch.
  @Test
  public void theOldEpochOrdersNothingPastItsLastSeqSoAReplicaBehindStillStartsTheNext() {
    EpochGroup g = new EpochGroup(4);
    g.drop = m -> m.to() == 3 || m.from() == 3 || EpochGroup.kind(m) == Kind.CHECKPOINT;
    long r = g.submit(g.add().encode());
    submitOps(g, "during-", 10);
    g.tickUntil(x -> !x.verdicts(r).isEmpty()
        && List.of(0, 1, 2).stream().allMatch(i -> x.replicas.get(i).lastExecuted() >= lastSeq(x.verdicts(r).get(0))),
        1000);
    long c = lastSeq(g.verdicts(r).get(0));
    submitOps(g, "after-", 6);
    g.tick(60); // the window in which an old primary that ignored c would order and execute them past it
    for (int i = 0; i < 3; i++) {
      assertEquals("replica " + i + " " + g.replicas.get(i).describe(), c, g.replicas.get(i).lastExecuted());
      assertEquals(0, g.replicas.get(i).membership().epoch());
    }
    g.drop = m -> false;
    untilSettled(g);
    assertEquals(1, g.replicas.get(3).membership().epoch());
    assertEquals(g.replicas.get(0).stableCheckpoint(), g.replicas.get(3).stableCheckpoint());
    checkBoundaryAndExactlyOnce(g, 0, c);
    for (int k = 0; k < 6; k++) {
      assertTrue("replica 0 lacks after-" + k, g.executed.get(0).contains("after-" + k));
    }
  }

  // A request that arrives while the epoch ends (after c is known, before it is stable) is kept and ordered in
  // the next epoch: every client gets its reply without resending anything.
  @Test
  public void requestsSentDuringTheChangeAreAnsweredInTheNewEpochWithoutARetransmission() {
    EpochGroup g = new EpochGroup(4);
    g.retransmits = false;
    g.drop = m -> EpochGroup.kind(m) == Kind.CHECKPOINT;
    long r = g.submit(g.replace(3).encode());
    submitOps(g, "during-", 8);
    g.tickUntil(x -> !x.verdicts(r).isEmpty(), 1000);
    submitOps(g, "late-", 4);
    g.drop = m -> false;
    g.tickUntil(x -> x.inNewestEpoch() && x.allAnswered() && x.divergent().isEmpty(), 4000);
    assertEquals("no request resent", 0, g.resent);
    assertTrue(g.verdicts(r).get(0), g.verdicts(r).get(0).startsWith("accepted: epoch 1"));
    checkBoundaryAndExactlyOnce(g, 0, lastSeq(g.verdicts(r).get(0)));
    List<String> newcomer = g.executed.get(4);
    assertTrue("the newcomer executed requests of the new epoch: " + newcomer, newcomer.contains("late-3"));
  }
}
