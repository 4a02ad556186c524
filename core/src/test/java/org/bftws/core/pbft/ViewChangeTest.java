package org.bftws.core.pbft;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.List;
import org.bftws.core.engine.Event;
import org.bftws.core.message.Kind;
import org.bftws.core.message.NewView;
import org.bftws.core.message.PrePrepare;
import org.bftws.core.message.Signed;
import org.bftws.core.testkit.EngineHarness;
import org.junit.Test;

/** Castro-Liskov §4.4 (view changes) and §4.5.2 (liveness: timers, doubling, joining). */
public class ViewChangeTest {

  // Reference: §4.4 — backups whose timer expires move to v+1; the new primary (v+1 mod n) sends
  // NEW-VIEW and the request executes in the new view.
  @Test
  public void crashedPrimaryIsReplacedAndTheRequestCompletes() {
    Cluster c = new Cluster(1);
    c.isolate(0);
    c.invoke("after-crash");
    c.tick(500);
    for (int i = 1; i < c.n; i++) {
      assertEquals("replica " + i, 1, c.replicas[i].view());
      assertTrue(c.replicas[i].isActive());
      assertEquals(List.of("after-crash"), c.operations(i));
    }
    assertEquals(1, c.delivered.size());
  }

  // Reference: §4.4 — what committed in view v is re-proposed with the same digest in view v+1 (safety
  // across views): commit a request, then replace the primary and order more.
  @Test
  public void committedRequestsSurviveTheViewChange() {
    Cluster c = new Cluster(1);
    c.invoke("before");
    c.deliverAll();
    c.isolate(0);
    c.invoke("after");
    c.tick(500);
    for (int i = 1; i < c.n; i++) {
      assertEquals(List.of("before", "after"), c.operations(i));
    }
  }

  // Reference: §4.4 — a prepared but uncommitted batch is carried into the new view by its prepared
  // certificate: commits are lost, the primary dies, the batch still executes once, in the same place.
  @Test
  public void preparedBatchIsCarriedIntoTheNewView() {
    Cluster c = new Cluster(1);
    c.drop = ViewChangeTest::commitOfViewZero;
    c.invoke("prepared-only");
    c.deliverAll();
    for (int i = 0; i < c.n; i++) {
      assertTrue(c.operations(i).isEmpty());
    }
    c.isolate(0);
    c.tick(500);
    for (int i = 1; i < c.n; i++) {
      assertEquals(List.of("prepared-only"), c.operations(i));
      assertTrue(c.eventsOf(i, Event.PrePrepared.class).stream().anyMatch(p -> p.view() == 1 && p.seq() == 1));
    }
  }

  // Reference: §4.5.2 — the timeout doubles for each consecutive view change without progress: primary 0
  // is down and view 1's NEW-VIEW is lost, so view 2 is reached only after a timeout twice as long.
  @Test
  public void timeoutDoublesForConsecutiveViewChanges() {
    Cluster c = new Cluster(1);
    c.isolate(0);
    c.drop = m -> m.from() == 1 && Cluster.kind(m) == Kind.NEW_VIEW; // view 1 fails too
    c.invoke("x");
    c.deliverAll();
    c.tick(199);
    assertEquals(0, c.replicas[2].view());
    c.tick(1);
    assertEquals(1, c.replicas[2].view());
    c.tick(399);
    assertEquals("second view change waits twice as long", 1, c.replicas[2].view());
    c.tick(1);
    assertEquals(2, c.replicas[2].view());
  }

  // Reference: §4.4 — backups recompute O from the view-changes in NEW-VIEW: a new primary that drops a
  // prepared batch from O is rejected.
  @Test
  public void newViewWhoseOIsNotDerivedFromItsViewChangesIsRejected() {
    Cluster c = new Cluster(1);
    c.drop = ViewChangeTest::commitOfViewZero;
    c.invoke("keep-me");
    c.deliverAll();
    // Replica 1 becomes primary of view 1 but its NEW-VIEW is lost; forge one with an empty O.
    c.drop = m -> commitOfViewZero(m) || m.from() == 1 && Cluster.kind(m) == Kind.NEW_VIEW;
    c.isolate(0);
    c.tick(300);
    Signed real = c.replicas[1].viewChanges.currentNewView();
    assertTrue("replica 1 became primary of view 1", real != null);
    NewView nv = NewView.decode(real.body());
    Signed forged = Signed.sign(Kind.NEW_VIEW, 1, new NewView(nv.view(), nv.viewChanges(), List.<Signed>of()).encode(),
        c.signers.get(1));
    c.handle(2, c.replicas[2].receive(forged.encode()));
    assertTrue(NormalCaseTest.hasEvidence(c, 2, 1, "do not follow"));
    assertTrue(c.operations(2).isEmpty());
  }

  static boolean commitOfViewZero(EngineHarness.Msg m) {
    return Cluster.kind(m) == Kind.COMMIT && org.bftws.core.message.Vote.decode(Signed.decode(m.bytes()).body()).view() == 0;
  }

  // Reference: §4.5.2 — a replica that sees f+1 replicas in a higher view joins it (here: a backup that
  // missed the whole view change catches up with the group).
  @Test
  public void replicaThatMissedTheViewChangeJoinsTheGroup() {
    Cluster c = new Cluster(1);
    c.isolate(0);
    c.isolate(3);
    c.invoke("x");
    c.tick(250); // 1 and 2 alone cannot form a view: heal 3 so that view 1 forms, 0 stays down
    c.heal(3);
    c.tick(600);
    c.heal(0);
    c.invoke("y");
    c.tick(600);
    assertEquals(c.replicas[1].view(), c.replicas[0].view());
    assertEquals(List.of("x", "y"), c.operations(0).isEmpty() ? c.operations(1) : c.operations(0));
    assertEquals(2, c.delivered.size());
  }

  static PrePrepare pp(Signed s) {
    return PrePrepare.decode(s.body());
  }
}
