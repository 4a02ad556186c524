package org.bftws.core.pbft;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;
import org.bftws.core.engine.Event;
import org.bftws.core.engine.Ready;
import org.bftws.core.message.Kind;
import org.bftws.core.message.Signed;
import org.junit.Test;

/**
 * A replica restarted empty while it is the primary of the group's view (Castro-Liskov §4.4): peers resend it
 * its own NEW-VIEW (TOCS 2002 §5.2), which proves the view change happened; it adopts it and orders again as
 * primary, without another view change and without taking its own message for evidence against itself.
 */
public class RestartedPrimaryTest {

  // Reference: §4.4 — a NEW-VIEW is valid from whoever forwards it; the one the restarted primary signed
  // itself before the restart carries 2f+1 view-changes and O, like any other, and O holds the only
  // pre-prepares it issued for those sequence numbers in that view.
  @Test
  public void aPrimaryRestartedEmptyAdoptsItsRelayedNewViewAndOrdersInThatView() {
    Cluster c = new Cluster(1);
    c.drop = ViewChangeTest::commitOfViewZero; // x prepares in view 0 only: O of view 1 carries it
    c.invoke("x");
    c.deliverAll();
    c.isolate(0);
    c.tickUntil(cl -> cl.operations(1).contains("x"), 1000);
    c.drop = m -> false;
    c.heal(0);
    c.tickUntil(cl -> everyoneIn(cl, 1), 2000);
    int before = c.events.get(1).size();

    c.restart(1);
    c.tickUntil(cl -> everyoneIn(cl, 1), 2000);
    c.invoke("y");
    c.tickUntil(cl -> allExecuted(cl, "y"), 1000);

    List<Event> since = c.events.get(1).subList(before, c.events.get(1).size());
    assertFalse("evidence against itself: " + since,
        since.stream().anyMatch(e -> e instanceof Event.Evidence ev && ev.node() == 1));
    for (int i = 0; i < c.n; i++) {
      assertEquals("replica " + i + " stayed in view 1", 1, c.replicas[i].view());
      assertTrue(c.eventsOf(i, Event.ViewChangeStarted.class).stream().noneMatch(v -> v.view() > 1));
    }
    assertEquals("the restarted primary executed O and then y", List.of("x", "y"), c.operations(1));
    assertTrue("y pre-prepared by replica 1 in view 1", c.sent.stream().anyMatch(m -> m.from() == 1
        && Cluster.kind(m) == Kind.PRE_PREPARE && ViewChangeTest.pp(Signed.decode(m.bytes())).view() == 1
        && ViewChangeTest.pp(Signed.decode(m.bytes())).seq() == 2));
    assertEquals(2, c.delivered.size());
  }

  // Reference: §4.2 — a primary restarted empty after it ordered above O in its view no longer knows which
  // sequence numbers it used there: what it proposes again at one of them is a second pre-prepare, which the
  // backups refuse as equivocation (it is the one faulty replica f allows), and the request completes after
  // the next view change; every replica executes the same operations.
  @Test
  public void aPrimaryRestartedAfterOrderingInItsViewStaysSafe() {
    Cluster c = viewOneWithoutReplicaZero();
    c.heal(0);
    c.invoke("y");
    c.tickUntil(cl -> allExecuted(cl, "y"), 2000);
    c.restart(1);
    c.tickUntil(cl -> everyoneIn(cl, 1), 2000);
    c.invoke("z");
    c.tickUntil(cl -> allExecuted(cl, "z"), 3000);
    for (int i = 0; i < c.n; i++) {
      assertEquals("replica " + i, c.operations(0), c.operations(i));
    }
    assertEquals(3, c.delivered.size());
  }

  // Its own VIEW-CHANGE relayed back is not evidence either: it signed it before the restart.
  @Test
  public void anOwnViewChangeRelayedBackIsNotEvidence() {
    Cluster c = viewOneWithoutReplicaZero();
    Signed own = c.sent.stream().filter(m -> m.from() == 2 && Cluster.kind(m) == Kind.VIEW_CHANGE)
        .map(m -> Signed.decode(m.bytes())).findFirst().orElseThrow();
    c.restart(2);
    Ready r = c.replicas[2].receive(own.encode());
    assertTrue(r.events.stream().noneMatch(e -> e instanceof Event.Evidence));
  }

  /** Primary 0 is cut off: replicas 1-3 move to view 1 (primary 1) and execute "x" there. */
  private static Cluster viewOneWithoutReplicaZero() {
    Cluster c = new Cluster(1);
    c.isolate(0);
    c.invoke("x");
    c.tickUntil(cl -> IntStream.range(1, cl.n).allMatch(i -> cl.operations(i).contains("x")), 1000);
    return c;
  }

  private static boolean everyoneIn(Cluster c, long view) {
    return Arrays.stream(c.replicas).allMatch(r -> r.view() == view && r.isActive());
  }

  private static boolean allExecuted(Cluster c, String op) {
    return IntStream.range(0, c.n).allMatch(i -> c.operations(i).contains(op));
  }
}
