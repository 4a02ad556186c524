package org.bftws.core.pbft;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.bftws.core.config.GroupConfig;
import org.bftws.core.engine.Event;
import org.bftws.core.message.Kind;
import org.bftws.core.message.Request;
import org.bftws.core.message.Signed;
import org.bftws.core.replication.RandomizedOperations;
import org.junit.Test;

/**
 * PBFT's read-only optimisation (Castro-Liskov OSDI'99 and TOCS 2002 §5.1.3): a read-only request is
 * executed at once by every replica against its current state, without ordering; the client accepts 2f+1
 * matching replies and otherwise sends the operation again as an ordered request.
 */
public class ReadOnlyTest {

  /** 8 bytes of replica i's current state: what a correct replica answers a read with. */
  private static byte[] current(Cluster c, int i) {
    return Arrays.copyOf(c.apps[i].getState(), 8);
  }

  private static Cluster afterTwoWrites() {
    Cluster c = new Cluster(1);
    c.invoke("op-1");
    c.deliverAll();
    c.invoke("op-2");
    c.deliverAll();
    return c;
  }

  // Reference: §5.1.3 — "The replicas execute the request immediately ... The client waits for 2f+1 replies
  // from different replicas with the same result."
  @Test
  public void readIsExecutedEverywhereWithoutOrderingAndAcceptedWith2fPlus1MatchingReplies() {
    Cluster c = afterTwoWrites();
    long prePrepares = c.sentOfKind(Kind.PRE_PREPARE);
    byte[] state = current(c, 0);
    c.invokeReadOnly("read");
    c.deliverAll();
    assertEquals(3, c.delivered.size());
    assertArrayEquals("the state after op-1 and op-2", state, c.delivered.get(2).result());
    assertEquals("delivered under the number an ordered fallback would take", 3,
        c.delivered.get(2).request().messageNumber());
    assertEquals("no message number consumed", 3, c.client().nextMessageNumber());
    assertEquals("nothing ordered", prePrepares, c.sentOfKind(Kind.PRE_PREPARE));
    assertTrue(c.fallbacks.isEmpty());
    for (int i = 0; i < c.n; i++) {
      assertEquals("replica " + i, 1, c.readOnlyExecuted.get(i).size());
      assertEquals(2, c.replicas[i].lastExecuted());
      assertEquals(0, c.replicas[i].pendingRequests());
    }
  }

  // Reference: §5.1.3 — a read-only request "never changes state": the next ordered request takes the number
  // the read did not consume, and the replicas' states, client tables and checkpoints stay as they were.
  @Test
  public void readChangesNoStateNoClientTableAndNoCheckpoint() {
    Cluster c = afterTwoWrites();
    byte[][] before = new byte[c.n][];
    for (int i = 0; i < c.n; i++) {
      before[i] = c.apps[i].getState();
    }
    for (int k = 0; k < 3; k++) {
      c.invokeReadOnly("read");
      c.deliverAll();
    }
    for (int i = 0; i < c.n; i++) {
      assertArrayEquals("replica " + i, before[i], c.apps[i].getState());
    }
    c.invoke("op-3");
    c.deliverAll();
    c.invoke("op-4");
    c.deliverAll();
    assertEquals(List.of(1L, 2L, 3L, 3L, 3L, 3L, 4L),
        c.delivered.stream().map(d -> d.request().messageNumber()).toList());
    for (int i = 0; i < c.n; i++) {
      assertEquals(List.of("op-1", "op-2", "op-3", "op-4"), c.operations(i));
      assertEquals("checkpoint after 4 batches", 1, c.eventsOf(i, Event.CheckpointStable.class).size());
    }
    Event.CheckpointStable withReads = c.eventsOf(0, Event.CheckpointStable.class).get(0);
    Cluster written = afterTwoWrites();
    written.invoke("op-3");
    written.deliverAll();
    written.invoke("op-4");
    written.deliverAll();
    Event.CheckpointStable withoutReads = written.eventsOf(0, Event.CheckpointStable.class).get(0);
    assertArrayEquals("the same checkpoint as without the reads", withReads.digest(), withoutReads.digest());
    assertArrayEquals("the same service state as without the reads", withReads.executionDigest(),
        withoutReads.executionDigest());
  }

  // Reference: §5.1.3 — f Byzantine replicas answer wrongly and one correct replica is behind: 2f+1 matching
  // replies can no longer come, so the client at once orders the operation and gets the correct value.
  @Test
  public void mismatchingRepliesMakeTheClientFallBackToAnOrderedRequest() {
    Cluster c = new Cluster(1);
    c.invoke("op-1");
    c.deliverAll();
    c.hold = m -> m.to() == 2 && m.from() < c.n; // replica 2 misses the ordering of op-2
    c.invoke("op-2");
    c.deliverAll();
    c.hold = m -> false;
    c.lyingReaders.add(3);
    c.invokeReadOnly("read");
    c.deliverAll();
    assertEquals(1, c.fallbacks.size());
    assertEquals(3, c.fallbacks.get(0).request().messageNumber());
    c.release(m -> true);
    c.tickUntil(g -> g.delivered.size() == 3, 200);
    for (int i = 0; i < 3; i++) {
      assertEquals("replica " + i, List.of("op-1", "op-2", "read"), c.operations(i));
    }
    Cluster reference = new Cluster(1);
    reference.invoke("op-1");
    reference.deliverAll();
    reference.invoke("op-2");
    reference.deliverAll();
    reference.invoke("read");
    reference.deliverAll();
    assertArrayEquals("the ordered read's correct value", reference.delivered.get(2).result(),
        c.delivered.get(2).result());
    assertEquals(4, c.client().nextMessageNumber());
  }

  // Reference: §5.1.3 — "If the client cannot collect 2f+1 such replies, it retransmits the request as a
  // regular read-write request": f replicas lie and one correct reply is late past the client's timeout.
  @Test
  public void tooFewMatchingRepliesInTimeMakeTheClientFallBack() {
    Cluster c = afterTwoWrites();
    c.lyingReaders.add(3);
    c.hold = m -> m.from() == 2 && m.to() == c.n; // replica 2's answers to the client are late
    c.invokeReadOnly("read");
    c.deliverAll();
    assertEquals("2 matching, 1 lie, 1 still possible: waiting", 2, c.delivered.size());
    assertTrue(c.fallbacks.isEmpty());
    c.tick(c.cfg.get(GroupConfig.CLIENT_RETRANSMIT));
    assertEquals(1, c.fallbacks.size());
    c.hold = m -> false;
    c.held.forEach(c.net::post); // the late read-only reply answers nothing any more
    c.held.clear();
    c.tickUntil(g -> g.delivered.size() == 3, 200);
    assertEquals(3, c.delivered.get(2).request().messageNumber());
    for (int i = 0; i < c.n; i++) {
      assertEquals(List.of("op-1", "op-2", "read"), c.operations(i));
    }
  }

  // Reference: §5.1.3 — replicas check "that the request is in fact read-only": a client must not bypass
  // ordering for a write. Refused with evidence everywhere, executed nowhere, answered by nobody.
  @Test
  public void readOnlyRequestForAnOperationNotDeclaredReadOnlyIsRefused() {
    Cluster c = afterTwoWrites();
    Request q = new Request(c.rawClient(), Cluster.RAW_SEQUENCE, 1, false, "write".getBytes(StandardCharsets.UTF_8));
    c.toReplicas(Signed.sign(Kind.READ_ONLY_REQUEST, c.rawClient(), q.encode(), c.signers.get(c.rawClient())),
        0, 1, 2, 3);
    c.deliverAll();
    for (int i = 0; i < c.n; i++) {
      assertTrue("replica " + i, c.evidenceAt(i, c.rawClient(), "for an operation that is not read-only"));
      assertTrue(c.readOnlyExecuted.get(i).isEmpty());
      assertEquals(0, c.replicas[i].pendingRequests());
    }
    // A client that asks for it anyway gets no answer and has the write ordered.
    c.invokeReadOnly("write");
    c.deliverAll();
    assertEquals(2, c.delivered.size());
    c.tickUntil(g -> g.delivered.size() == 3, 200);
    assertEquals(1, c.fallbacks.size());
    for (int i = 0; i < c.n; i++) {
      assertEquals(List.of("op-1", "op-2", "write"), c.operations(i));
      assertTrue(c.readOnlyExecuted.get(i).isEmpty());
    }
  }

  @Test
  public void readOnlyRequestsThatNeedOrderingOrUseAnotherSequenceAreRefused() {
    Cluster c = afterTwoWrites();
    int raw = c.rawClient();
    Request randomized = new Request(raw, Cluster.RAW_SEQUENCE, 1, true, "read".getBytes(StandardCharsets.UTF_8));
    Request others = new Request(raw, c.client().sequenceId(), 1, false, "read".getBytes(StandardCharsets.UTF_8));
    for (Request q : List.of(randomized, others)) {
      c.toReplicas(Signed.sign(Kind.READ_ONLY_REQUEST, raw, q.encode(), c.signers.get(raw)), 0, 1, 2, 3);
    }
    c.toReplicas(Signed.sign(Kind.REQUEST, raw, Request.terminate(raw, Cluster.RAW_SEQUENCE).encode(),
        c.signers.get(raw)), 0, 1, 2, 3);
    c.deliverAll();
    Request afterTerminate = new Request(raw, Cluster.RAW_SEQUENCE, 2, false, "read".getBytes(StandardCharsets.UTF_8));
    c.toReplicas(Signed.sign(Kind.READ_ONLY_REQUEST, raw, afterTerminate.encode(), c.signers.get(raw)), 0, 1, 2, 3);
    c.deliverAll();
    for (int i = 0; i < c.n; i++) {
      assertTrue(c.evidenceAt(i, raw, "needs ordering"));
      assertTrue(c.evidenceAt(i, raw, "another client's sequence"));
      assertTrue(c.evidenceAt(i, raw, "on a terminated sequence"));
      assertTrue(c.readOnlyExecuted.get(i).isEmpty());
    }
  }

  // A read issued while an ordered request of the client is outstanding must reflect it: it is ordered too.
  // A random number needs ordering (integrity paper §4-§5): an operation the embedding calls randomized is never
  // executed unordered, even if it is also declared read-only and the client did not flag it randomized.
  @Test
  public void aRandomizedOperationIsNeverExecutedWithoutOrdering() {
    RandomizedOperations randomized = q -> new String(q.operation(), StandardCharsets.UTF_8).equals("read-random");
    GroupConfig cfg = GroupConfig.builder().set(GroupConfig.F, 1).build();
    Cluster c = new Cluster(cfg, 1, Cluster.Randomness.NONE.withOperations(randomized));
    c.invokeReadOnly("read-random");
    c.deliverAll();
    for (int i = 0; i < c.n; i++) {
      assertTrue(c.evidenceAt(i, c.n, "needs ordering"));
      assertTrue(c.readOnlyExecuted.get(i).isEmpty());
    }
    c.tickUntil(g -> g.delivered.size() == 1, 200);
    assertEquals(1, c.fallbacks.size());
    assertEquals(List.of("read-random"), c.operations(0));
  }

  @Test
  public void aReadBehindAnOutstandingWriteIsOrdered() {
    Cluster c = new Cluster(1);
    c.invoke("op-1");
    c.invokeReadOnly("read");
    c.deliverAll();
    assertEquals(2, c.delivered.size());
    assertEquals(List.of("op-1", "read"), c.operations(0));
    assertTrue(c.readOnlyExecuted.get(0).isEmpty());
  }

  // A caller that gave up on a read and calls again: the abandoned read never falls back.
  @Test
  public void anAbandonedReadNeverFallsBack() {
    Cluster c = afterTwoWrites();
    c.hold = m -> m.to() == c.n; // no replies for now
    c.invokeReadOnly("read");
    c.deliverAll();
    c.invoke("op-3");
    c.hold = m -> false;
    c.held.forEach(c.net::post);
    c.held.clear();
    c.tickUntil(g -> g.delivered.size() == 3, 200);
    assertTrue(c.fallbacks.isEmpty());
    assertEquals(3, c.delivered.get(2).request().messageNumber());
    for (int i = 0; i < c.n; i++) {
      assertEquals(List.of("op-1", "op-2", "op-3"), c.operations(i));
    }
    assertEquals(0, c.client().outstanding());
  }
}
