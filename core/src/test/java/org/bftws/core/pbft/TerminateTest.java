package org.bftws.core.pbft;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.bftws.core.config.GroupConfig;
import org.bftws.core.engine.Event;
import org.bftws.core.message.Kind;
import org.bftws.core.message.PrePrepare;
import org.bftws.core.message.Request;
import org.bftws.core.message.Signed;
import org.bftws.core.testkit.EngineHarness;
import org.bftws.core.voter.ClientCore;
import org.junit.Test;

/**
 * BFT-WS §3.3.1.1 (the client terminates its sequence after its last message) on Castro-Liskov §4.1's client
 * table: an ordered terminate leaves a tombstone that drops the cached reply and refuses every later request
 * of the sequence, including replays a Byzantine primary puts into a pre-prepare; a sequence belongs to the
 * client that first used it.
 */
public class TerminateTest {
  private static final String SEQ = "urn:uuid:client-0";

  @Test
  public void anOrderedTerminateIsVotedEmptyAndNeverReachesTheApplication() {
    Cluster c = new Cluster(1);
    c.invoke("last");
    c.deliverAll();
    c.handleClient(c.client(), c.client().terminate());
    c.deliverAll();
    for (int i = 0; i < c.n; i++) {
      assertEquals("replica " + i, List.of("last"), c.operations(i));
    }
    assertEquals(2, c.delivered.size());
    Event.Delivered d = c.delivered.get(1);
    assertEquals(Request.TERMINATE, d.request().messageNumber());
    assertArrayEquals(new byte[0], d.result());
    assertEquals(0, c.client().outstanding());
  }

  @Test(expected = IllegalStateException.class)
  public void nothingCanBeInvokedOnATerminatedSequence() {
    Cluster c = new Cluster(1);
    c.client().terminate();
    c.client().invoke(new byte[] {1}, false);
  }

  @Test
  public void aRetransmittedTerminateIsAnsweredFromTheTombstone() {
    Cluster c = new Cluster(1);
    c.handleClient(c.client(), c.client().terminate());
    c.deliverAll();
    Signed terminate = request(c, Request.TERMINATE);
    int before = c.sent.size();
    for (int i = 0; i < c.n; i++) {
      c.inject(c.n, i, terminate.encode());
    }
    c.deliverAll();
    long replies = c.sent.subList(before, c.sent.size()).stream().filter(m -> m.to() == c.n).count();
    assertEquals("each replica answers the retransmission from its tombstone", c.n, replies);
  }

  @Test
  public void afterTheTerminateAReplayedRequestIsNotExecutedNotEvenFromAPrePrepare() {
    Cluster c = new Cluster(1);
    c.invoke("once");
    c.deliverAll();
    Signed original = request(c, 1);
    c.handleClient(c.client(), c.client().terminate());
    c.deliverAll();
    int before = c.sent.size();
    for (int i = 0; i < c.n; i++) {
      c.inject(c.n, i, original.encode()); // the client's own old message, replayed by anyone
    }
    c.deliverAll();
    assertEquals("a replayed request is neither executed nor answered", 0,
        c.sent.subList(before, c.sent.size()).stream().filter(m -> m.to() == c.n).count());
    // The primary (replica 0) proposes it again at the next sequence number: the backups order it but skip it.
    Signed pp = Signed.sign(Kind.PRE_PREPARE, 0, PrePrepare.of(0, 3, List.of(original)).encode(), c.signers.get(0));
    for (int i = 1; i < c.n; i++) {
      c.inject(0, i, pp.encode());
    }
    c.deliverAll();
    for (int i = 0; i < c.n; i++) {
      assertEquals("replica " + i, List.of("once"), c.operations(i));
    }
  }

  @Test
  public void theTombstoneSurvivesStateTransfer() {
    Cluster c = new Cluster(GroupConfig.builder().set(GroupConfig.F, 1).set(GroupConfig.CHECKPOINT_INTERVAL, 4)
        .set(GroupConfig.LOG_WINDOW, 8).build(), 2); // as Cluster(1), with a second client
    c.isolate(3);
    c.invoke("once");
    c.deliverAll();
    Signed original = request(c, 1);
    c.handleClient(c.client(), c.client().terminate());
    c.deliverAll();
    ClientCore other = c.clients.get(c.n + 1);
    for (int k = 0; k < 7; k++) {
      c.handleClient(other, other.invoke(("other-" + k).getBytes(StandardCharsets.UTF_8), false));
      c.deliverAll();
    }
    c.restart(3);
    c.heal(3);
    c.tick(200);
    assertEquals("replica 3 caught up by state transfer", 1, c.eventsOf(3, Event.StateInstalled.class).size());
    c.handle(3, c.replicas[3].receive(original.encode()));
    assertEquals("the replayed request is not pending at replica 3", 0, c.replicas[3].pendingRequests());
  }

  @Test
  public void aRequestOnAnotherClientsSequenceIsEvidenceAndNeverExecuted() {
    Cluster c = new Cluster(GroupConfigs.withOutstanding(1), 2);
    c.invoke("owner-1");
    c.deliverAll();
    Signed s = intrude(c, SEQ, 1_000);
    // Even a primary that orders it: every correct replica skips it, and the owner's numbers are not pushed on.
    Signed pp = Signed.sign(Kind.PRE_PREPARE, 0, PrePrepare.of(0, 2, List.of(s)).encode(), c.signers.get(0));
    for (int i = 1; i < c.n; i++) {
      c.inject(0, i, pp.encode());
    }
    c.deliverAll();
    // The primary's own proposal of the owner's next request at that number now conflicts at the backups: the
    // view changes, and the next primary orders it.
    c.invoke("owner-2");
    c.tick(2000);
    for (int i = 1; i < c.n; i++) {
      assertEquals("replica " + i, List.of("owner-1", "owner-2"), c.operations(i));
    }
    assertEquals(2, c.delivered.size());
    assertFalse(c.operations(1).contains("intruder"));
  }

  @Test
  public void aSequenceThatNamesItsClientIsNeverTakenOverNotEvenBeforeItsFirstRequest() {
    Cluster c = new Cluster(GroupConfigs.withOutstanding(1), 2);
    String bound = c.bindClientSequence();
    Signed s = intrude(c, bound, 1);
    Request q = Request.decode(s.body());
    // A primary that proposes it anyway (first-come ownership would hand the sequence to the intruder here):
    // the id alone shows the batch is wrong, so no correct backup accepts it.
    Signed pp = Signed.sign(Kind.PRE_PREPARE, 0, PrePrepare.of(0, 1, List.of(s)).encode(), c.signers.get(0));
    for (int i = 1; i < c.n; i++) {
      c.inject(0, i, pp.encode());
    }
    c.deliverAll();
    for (int i = 1; i < c.n; i++) {
      assertTrue("replica " + i + " refused the pre-prepare", c.eventsOf(i, Event.Evidence.class).stream()
          .anyMatch(e -> e.node() == 0 && e.what().contains("batch with request " + q.id())));
      assertEquals("replica " + i, 0, c.eventsOf(i, Event.PrePrepared.class).size());
    }
    c.invoke("owner-1");
    c.tick(2000);
    for (int i = 1; i < c.n; i++) {
      assertEquals("replica " + i, List.of("owner-1"), c.operations(i));
    }
    assertEquals(1, c.delivered.size());
  }

  /**
   * The second client sends every replica a request on {@code sequence}, the first client's: each records
   * evidence and keeps nothing pending. Returns the signed request.
   */
  private static Signed intrude(Cluster c, String sequence, long number) {
    int intruder = c.n + 1;
    Request q = new Request(intruder, sequence, number, false, "intruder".getBytes(StandardCharsets.UTF_8));
    Signed s = Signed.sign(Kind.REQUEST, intruder, q.encode(), c.signers.get(intruder));
    for (int i = 0; i < c.n; i++) {
      c.inject(intruder, i, s.encode());
    }
    c.deliverAll();
    for (int i = 0; i < c.n; i++) {
      assertTrue("replica " + i + " recorded evidence", c.eventsOf(i, Event.Evidence.class).stream()
          .anyMatch(e -> e.node() == intruder && e.what().contains("on another client's sequence")));
      assertEquals("not pending at replica " + i, 0, c.replicas[i].pendingRequests());
    }
    return s;
  }

  /** The client's signed request numbered {@code number}, as it went out. */
  private static Signed request(Cluster c, long number) {
    List<Signed> found = new ArrayList<>();
    for (EngineHarness.Msg m : c.sent) {
      if (Cluster.kind(m) == Kind.REQUEST) {
        Signed s = Signed.decode(m.bytes());
        if (Request.decode(s.body()).messageNumber() == number) {
          found.add(s);
        }
      }
    }
    if (found.isEmpty()) {
      throw new AssertionError("no request numbered " + number + " was sent");
    }
    return found.get(0);
  }
}
