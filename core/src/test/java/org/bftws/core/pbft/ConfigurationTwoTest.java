package org.bftws.core.pbft;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.bftws.core.config.ConfigException;
import org.bftws.core.config.GroupConfig;
import org.bftws.core.crypto.Digests;
import org.bftws.core.engine.Event;
import org.bftws.core.message.Checkpoint;
import org.bftws.core.message.Kind;
import org.bftws.core.message.ReplyBundle;
import org.bftws.core.message.ReplyCertificate;
import org.bftws.core.message.Signed;
import org.bftws.core.message.StateTransfer;
import org.bftws.core.testkit.HashChainApp;
import org.junit.Test;

/**
 * BFT-WS §3.3.2 (configuration II): 3f+1 replicas order, only 2f+1 of them execute and reply. Here f = 1,
 * replica 0 (the primary of view 0, as in the paper's measurements) only orders, replicas 1, 2 and 3 execute.
 */
public class ConfigurationTwoTest {
  static GroupConfig configurationTwo() {
    return GroupConfig.builder().set(GroupConfig.CHECKPOINT_INTERVAL, 4).set(GroupConfig.LOG_WINDOW, 8)
        .set(GroupConfig.MAX_OUTSTANDING_BATCHES, 1).executing(List.of(1, 2, 3)).build();
  }

  private static void invokeAll(Cluster c, int count) {
    for (int k = 0; k < count; k++) {
      c.invoke("op-" + k);
      c.deliverAll();
    }
  }

  private static long repliesFrom(Cluster c, int replica) {
    return c.sent.stream().filter(m -> m.from() == replica && m.to() >= c.n).count();
  }

  // Reference: BFT-WS §3.3.2 — "the Web services for the application are loaded only at 2f+1 replicas, i.e.,
  // the remaining f replicas do not deliver the application requests and they are not bothered with the
  // handling of application responses".
  @Test
  public void onlyTheExecutingReplicasExecuteAndReply() {
    Cluster c = new Cluster(configurationTwo(), 1);
    invokeAll(c, 9);
    assertEquals(9, c.delivered.size());
    assertEquals(Role.AGREEMENT, c.replicas[0].role());
    assertTrue("replica 0 executes nothing", c.executed.get(0).isEmpty());
    assertEquals("replica 0 answers no client", 0, repliesFrom(c, 0));
    assertArrayEquals("replica 0 holds no service state", new HashChainApp().getState(), c.apps[0].getState());
    for (int i = 1; i < c.n; i++) {
      assertEquals(9, c.operations(i).size());
      assertTrue(repliesFrom(c, i) >= 9);
      assertArrayEquals(c.apps[1].getState(), c.apps[i].getState());
    }
  }

  // Reference: §3.3.2 with Castro-Liskov §4.3 — the agreement-only replica's checkpoint votes carry the
  // ordering digest alone, yet it garbage-collects with the others and learns the certified execution digest.
  @Test
  public void everyReplicaGarbageCollectsOnTheSameCheckpoint() {
    Cluster c = new Cluster(configurationTwo(), 1);
    invokeAll(c, 9);
    Event.CheckpointStable first = c.eventsOf(1, Event.CheckpointStable.class).get(1);
    assertEquals(8, first.seq());
    for (int i = 0; i < c.n; i++) {
      assertEquals(8, c.replicas[i].stableCheckpoint());
      assertTrue(c.replicas[i].logSize() <= 1);
      Event.CheckpointStable s = c.eventsOf(i, Event.CheckpointStable.class).get(1);
      assertArrayEquals(first.digest(), s.digest());
      assertArrayEquals(first.executionDigest(), s.executionDigest());
    }
    Event.CheckpointTaken own = c.eventsOf(0, Event.CheckpointTaken.class).get(0);
    assertArrayEquals(Checkpoint.NO_EXECUTION, own.executionDigest());
    assertEquals(Digests.LENGTH, first.executionDigest().length);
  }

  // Reference: §3.3.2 — 2f+1 matching ordering digests are not enough while fewer than f+1 executing
  // replicas vouch for one execution digest: here replica 2 is down and replica 3 lies about its state.
  @Test
  public void stabilityWaitsForFPlusOneMatchingExecutionDigests() {
    Cluster c = new Cluster(configurationTwo(), 1);
    c.isolate(2);
    c.hold = m -> m.from() == 3 && Cluster.kind(m) == Kind.CHECKPOINT;
    invokeAll(c, 5);
    assertEquals(5, c.delivered.size());
    Signed honest = Signed.decode(c.held.get(0).bytes());
    Checkpoint cp = Checkpoint.decode(honest.body());
    byte[] other = cp.executionDigest().clone();
    other[0] ^= 1;
    Signed lie = Signed.sign(Kind.CHECKPOINT, 3, new Checkpoint(cp.seq(), cp.stateDigest(), other).encode(),
        c.signers.get(3));
    c.held.clear();
    for (int to : new int[] {0, 1}) {
      c.deliver(to, lie.encode());
    }
    c.deliverAll();
    assertEquals("0, 1 and 3 match on the ordering digest but only replica 1 on the execution digest", 0,
        c.replicas[0].stableCheckpoint());
    assertEquals(0, c.replicas[1].stableCheckpoint());
    c.hold = m -> false;
    c.heal(2);
    c.tickUntil(x -> x.replicas[0].stableCheckpoint() == 4 && x.replicas[1].stableCheckpoint() == 4, 400);
  }

  // Reference: §3.3.2 — a vote whose shape does not fit the sender's role is refused as evidence.
  @Test
  public void aCheckpointVoteMustFitItsSendersRole() {
    Cluster c = new Cluster(configurationTwo(), 1);
    c.hold = m -> Cluster.kind(m) == Kind.CHECKPOINT;
    invokeAll(c, 4);
    Checkpoint cp = Checkpoint.decode(Signed.decode(c.held.stream().filter(m -> m.from() == 1).findFirst()
        .orElseThrow().bytes()).body());
    c.deliver(2, Signed.sign(Kind.CHECKPOINT, 0, cp.encode(), c.signers.get(0)).encode());
    c.deliver(2, Signed.sign(Kind.CHECKPOINT, 3, new Checkpoint(4, cp.stateDigest(), Checkpoint.NO_EXECUTION).encode(),
        c.signers.get(3)).encode());
    assertTrue(c.evidenceAt(2, 0, "execution digest from a replica that does not execute"));
    assertTrue(c.evidenceAt(2, 3, "without an execution digest from a replica that executes"));
  }

  // Reference: §3.3.2 — the agreement-only replica restarted empty catches up on the ordering part alone:
  // nothing is installed in a service it does not host.
  @Test
  public void agreementOnlyReplicaRecoversTheOrderingStateOnly() {
    Cluster c = new Cluster(configurationTwo(), 1);
    c.isolate(0); // the primary: the group moves to view 1 first
    invokeAll(c, 1);
    c.tickUntil(x -> x.delivered.size() == 1, 2000);
    for (int k = 1; k < 9; k++) {
      c.invoke("op-" + k);
      c.tickUntil(x -> x.delivered.size() == x.client().nextMessageNumber() - 1, 2000);
    }
    c.restart(0);
    c.heal(0);
    c.tickUntil(x -> !x.eventsOf(0, Event.StateInstalled.class).isEmpty(), 400);
    Event.StateInstalled installed = c.eventsOf(0, Event.StateInstalled.class).get(0);
    assertEquals(c.replicas[1].stableCheckpoint(), installed.seq());
    assertArrayEquals(Checkpoint.NO_EXECUTION, installed.executionDigest());
    assertArrayEquals(new HashChainApp().getState(), c.apps[0].getState());
    assertEquals(0, repliesFrom(c, 0));
  }

  // Reference: §3.3.2 — an executing replica restarted empty fetches the service state only from executing
  // replicas whose execution digest is the certified one, and then answers clients again.
  @Test
  public void executingReplicaRecoversTheServiceStateFromExecutingReplicas() {
    Cluster c = new Cluster(configurationTwo(), 1);
    c.isolate(3);
    invokeAll(c, 9);
    c.restart(3);
    c.heal(3);
    c.tickUntil(x -> !x.eventsOf(3, Event.StateInstalled.class).isEmpty(), 400);
    assertTrue(c.sent.stream().filter(m -> m.from() == 3 && Cluster.kind(m) == Kind.FETCH_STATE)
        .allMatch(m -> m.to() == 1 || m.to() == 2));
    Event.StateInstalled installed = c.eventsOf(3, Event.StateInstalled.class).get(0);
    assertArrayEquals(c.eventsOf(1, Event.CheckpointStable.class).get(1).executionDigest(), installed.executionDigest());
    // with replica 1 down, the executing replicas 2 and 3 are the f+1 that answer
    c.isolate(1);
    c.invoke("after");
    c.tickUntil(x -> x.delivered.size() == 10, 2000);
    assertArrayEquals(c.apps[2].getState(), c.apps[3].getState());
  }

  // Reference: §3.3.2 — a state transfer whose execution part does not hash to the certified digest is refused.
  @Test
  public void aForgedExecutionPartIsRefused() {
    Cluster c = new Cluster(configurationTwo(), 1);
    c.isolate(3);
    invokeAll(c, 9);
    c.restart(3);
    c.heal(3);
    c.hold = m -> m.to() == 3 && Cluster.kind(m) == Kind.STATE;
    c.tickUntil(x -> !x.held.isEmpty(), 400);
    Signed honest = Signed.decode(c.held.get(0).bytes());
    StateTransfer st = StateTransfer.decode(honest.body());
    byte[] bad = st.execution().clone();
    bad[bad.length - 1] ^= 1;
    c.deliver(3, Signed.sign(Kind.STATE, honest.sender(), new StateTransfer(st.seq(), st.checkpoint(), bad, st.proof())
        .encode(), c.signers.get(honest.sender())).encode());
    assertTrue(c.evidenceAt(3, honest.sender(), "execution state does not match its proof"));
    assertTrue(c.eventsOf(3, Event.StateInstalled.class).isEmpty());
  }

  // Reference: §3.3.2 — a stopped agreement-only primary is replaced by a view change; an executing
  // replica stopped leaves f+1 executing replicas to answer.
  @Test
  public void theGroupStaysLiveWithOneReplicaOfEitherKindDown() {
    Cluster c = new Cluster(configurationTwo(), 1);
    c.isolate(0);
    c.invoke("a");
    c.tickUntil(x -> x.delivered.size() == 1, 2000);
    c.heal(0);
    c.isolate(2);
    c.invoke("b");
    c.tickUntil(x -> x.delivered.size() == 2, 2000);
    assertEquals(List.of("a", "b"), c.operations(1));
    assertEquals(List.of("a", "b"), c.operations(3));
  }

  // Reference: §3.3.2 with Castro-Liskov §4.4 — replica 2 misses the commits of a batch and its timer starts a
  // view change nobody joins: the others have executed everything. With replica 3 down, replicas 1 and 2 are
  // the f+1 executing replicas the client needs, so 2 executes what committed in the view it left, on the
  // pre-prepare and 2f+1 commits of that view that the others resend while nothing moves.
  @Test
  public void aReplicaAloneInAViewChangeStillExecutesWhatCommittedInTheViewItLeft() {
    Cluster c = new Cluster(configurationTwo(), 1);
    c.isolate(3);
    invokeAll(c, 2);
    assertEquals(2, c.delivered.size());
    c.drop = m -> m.to() == 2 && Cluster.kind(m) == Kind.COMMIT;
    c.invoke("missed");
    c.tickUntil(x -> !x.replicas[2].isActive(), 2000);
    assertEquals("only replica 1 answered", 2, c.delivered.size());
    assertTrue("the others stay in view 0", c.replicas[0].isActive() && c.replicas[0].view() == 0);
    c.drop = m -> false;
    c.tickUntil(x -> x.delivered.size() == 3, 400);
    assertEquals(List.of("op-0", "op-1", "missed"), c.operations(2));
    assertFalse("still alone in its view change", c.replicas[2].isActive());
    assertTrue(c.eventsOf(2, Event.Committed.class).stream().anyMatch(e -> e.view() == 0 && e.seq() == 3));
  }

  // Reference: §3.3.2 — the client's Voter counts the executing replicas only: f+1 matching replies of which
  // one comes from the agreement-only replica decide nothing.
  @Test
  public void theClientIgnoresRepliesOfTheAgreementOnlyReplica() {
    Cluster c = new Cluster(configurationTwo(), 1);
    c.drop = m -> true;
    c.invoke("x");
    byte[] wrong = "wrong".getBytes(StandardCharsets.UTF_8);
    for (int replica : new int[] {0, 1}) {
      ReplyCertificate cert = new ReplyCertificate(0, List.of(new ReplyCertificate.Entry(c.client().sequenceId(), 1,
          ReplyCertificate.resultDigest(wrong, new byte[0]))));
      Signed signed = Signed.sign(Kind.REPLY, replica, cert.encode(), c.signers.get(replica));
      c.handleClient(c.client(), c.client().receive(ReplyBundle.of(signed, 0, wrong, new byte[0]).encode()));
    }
    assertTrue("two matching replies, one not counted", c.delivered.isEmpty());
    assertEquals(1, c.client().outstanding());
  }

  @Test
  public void executingReplicasAreCheckedAgainstF() {
    assertThrows(ConfigException.class, () -> GroupConfig.builder().executing(List.of(1, 2)).build());
    assertThrows(ConfigException.class, () -> GroupConfig.builder().executing(List.of(1, 2, 4)).build());
    assertThrows(ConfigException.class, () -> GroupConfig.builder().executing(List.of(1, 1, 2, 3)).build());
    GroupConfig cfg = GroupConfig.fromProperties(Map.of("bftws.executingReplicas", "3, 1 2"));
    assertEquals(List.of(1, 2, 3), cfg.executingReplicas());
    assertFalse(cfg.executes(0));
    assertEquals(List.of(0, 1, 2, 3), GroupConfig.defaults().executingReplicas());
  }

  @Test
  public void aReplicasRoleMustBeTheOneTheGroupGivesIt() {
    Cluster c = new Cluster(configurationTwo(), 1);
    assertThrows(IllegalArgumentException.class,
        () -> Replica.builder(c.cfg, 0, c.signers.get(0), c.verifier).role(Role.BOTH).build());
    assertThrows(IllegalArgumentException.class,
        () -> Replica.builder(c.cfg, 1, c.signers.get(1), c.verifier).role(Role.AGREEMENT).build());
  }
}
