package org.bftws.core.pbft;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.util.List;
import org.bftws.core.codec.DecodeException;
import org.bftws.core.engine.Event;
import org.bftws.core.engine.Ready;
import org.bftws.core.message.Kind;
import org.bftws.core.message.Signed;
import org.bftws.core.message.Status;
import org.bftws.core.testkit.EngineHarness;
import org.junit.Test;

/**
 * Status messages (Castro-Liskov TOCS 2002 §5.2) and what they let a replica that is behind do: join the
 * group's view from a forwarded new-view, and, alone in a view change the group never joined, execute
 * what the group commits without voting in its view.
 */
public class StatusTest {
  private static final int ROUND = 50;

  // Reference: TOCS 2002 §5.2 — a replica multicasts its status; peers resend what it lacks. Here a backup
  // is cut off from the other replicas (clients still reach it): its timer fires and it is alone in a view
  // change to view 1 while the group keeps ordering in view 0. After the link heals it executes what the
  // group committed, from their commits, never voting in view 0.
  @Test
  public void aReplicaAloneInAViewChangeExecutesWhatTheGroupCommits() {
    Cluster c = new Cluster(1);
    c.drop = m -> m.from() < c.n && m.to() < c.n && (m.from() == 3 || m.to() == 3);
    c.invoke("a");
    c.tick(250);
    assertEquals("replica 3 is alone in a view change", 1, c.replicas[3].view());
    assertFalse(c.replicas[3].isActive());
    c.invoke("b");
    c.tick(10);
    assertEquals(List.of("a", "b"), c.operations(0));
    assertTrue(c.operations(3).isEmpty());
    c.drop = m -> false;
    c.tick(3 * ROUND);
    assertEquals("replica 3 caught up", c.operations(0), c.operations(3));
    assertEquals("the group stayed in view 0", 0, c.replicas[0].view());
    assertEquals("replica 3 still waits for view 1", 1, c.replicas[3].view());
    assertFalse(c.replicas[3].isActive());
    for (EngineHarness.Msg m : c.sent) {
      Kind k = Cluster.kind(m);
      assertFalse("replica 3 voted in view 0", m.from() == 3 && (k == Kind.PREPARE || k == Kind.COMMIT));
    }
  }

  // Reference: TOCS 2002 §5.2 — a replica that is in a view change its group completed gets the new-view
  // from any peer that holds it: the new primary's link to replica 3 is down, so its own retransmission of
  // NEW-VIEW never arrives; replica 2 forwards it on 3's status.
  @Test
  public void aReplicaThatMissedTheNewViewGetsItForwardedOnItsStatus() {
    Cluster c = new Cluster(1);
    c.isolate(0);
    c.drop = m -> m.from() == 1 && m.to() == 3;
    c.invoke("x");
    c.tick(600);
    assertEquals(1, c.replicas[1].view());
    assertTrue(c.replicas[1].isActive());
    assertEquals(1, c.replicas[3].view());
    assertTrue("replica 3 entered view 1", c.replicas[3].isActive());
    assertTrue(c.sent.stream().anyMatch(m -> m.from() == 2 && m.to() == 3 && Cluster.kind(m) == Kind.NEW_VIEW));
  }

  // Reference: TOCS 2002 §5.2 — status is cheap: with nobody behind, one multicast per replica every
  // QUIET_ROUNDS retransmission rounds.
  @Test
  public void anIdleGroupSendsOneStatusPerReplicaEveryFewRounds() {
    Cluster c = new Cluster(1);
    c.invoke("x");
    c.tick(10);
    int before = c.sent.size();
    c.tick(Statuses.QUIET_ROUNDS * ROUND);
    long statuses = c.sent.subList(before, c.sent.size()).stream()
        .filter(m -> m.from() == 0 && Cluster.kind(m) == Kind.STATUS).count();
    assertEquals("one multicast to the 3 others", c.n - 1, statuses);
  }

  // A status signed by another replica than its sender is evidence and changes nothing.
  @Test
  public void aForgedStatusIsEvidenceAndAnsweredWithNothing() {
    Cluster c = new Cluster(1);
    Signed genuine = Signed.sign(Kind.STATUS, 1, new Status(0, true, 0, 0).encode(), c.signers.get(1));
    Signed forged = Signed.of(Kind.STATUS, 1, new Status(5, false, 0, 0).encode(), genuine.signature());
    String before = c.replicas[0].describe();
    Ready r = c.replicas[0].receive(forged.encode());
    assertTrue(r.messages.isEmpty());
    assertTrue(r.events.stream().anyMatch(e -> e instanceof Event.Evidence ev && ev.node() == 1
        && ev.what().contains("bad signature on STATUS")));
    assertEquals(before, c.replicas[0].describe());
  }

  // A replayed status changes no state: it makes the peer resend what it sent already, once per
  // retransmission interval at most.
  @Test
  public void aReplayedStatusChangesNoStateAndIsAnsweredOncePerInterval() {
    Cluster c = new Cluster(1);
    c.invoke("x");
    c.tick(10);
    // replica 3, alone in a view change to view 1, executed nothing: it is answered with what it can follow
    Signed behind = Signed.sign(Kind.STATUS, 3, new Status(1, false, 0, 0).encode(), c.signers.get(3));
    String before = c.replicas[0].describe();
    Ready first = c.replicas[0].receive(behind.encode());
    Ready replay = c.replicas[0].receive(behind.encode());
    assertFalse("the first is answered", first.messages.isEmpty());
    assertTrue(first.events.isEmpty() && first.effects.isEmpty());
    assertTrue("the replay within the interval is not", replay.messages.isEmpty());
    assertEquals(before, c.replicas[0].describe());
    for (Ready.Outbound m : first.messages) {
      Kind k = Signed.decode(m.bytes()).kind();
      assertEquals(3, m.to());
      assertTrue("resends what was sent: " + k, k == Kind.PRE_PREPARE || k == Kind.COMMIT);
    }
  }

  @Test
  public void statusRoundTripsAndRefusesNegativeNumbers() {
    Status s = new Status(7, false, 16, 19);
    assertEquals(s, Status.decode(s.encode()));
    byte[] bad = new Status(0, true, 0, 0).encode();
    bad[0] = (byte) 0x80;
    try {
      Status.decode(bad);
      throw new AssertionError("a negative view decoded");
    } catch (DecodeException expected) {
      // refused
    }
  }
}
