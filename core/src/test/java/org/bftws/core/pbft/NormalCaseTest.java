package org.bftws.core.pbft;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.bftws.core.engine.Effect;
import org.bftws.core.engine.Event;
import org.bftws.core.engine.Ready;
import org.bftws.core.message.Kind;
import org.bftws.core.message.PrePrepare;
import org.bftws.core.message.Request;
import org.bftws.core.message.Signed;
import org.bftws.core.testkit.EngineHarness;
import org.bftws.core.testkit.HashChainApp;
import org.junit.Test;

/** Castro-Liskov OSDI'99 §4.1–§4.2 and §5.1: the client, the three phases, batching, exactly-once. */
public class NormalCaseTest {

  // Reference: §4.2 — "the primary ... assigns a sequence number n to the request, multicasts a
  // pre-prepare"; backups prepare; at 2f+1 commits every replica executes; the client takes f+1 replies.
  @Test
  public void requestIsOrderedExecutedEverywhereAndDeliveredToTheClient() {
    Cluster c = new Cluster(1);
    c.invoke("op-1");
    c.deliverAll();
    for (int i = 0; i < c.n; i++) {
      assertEquals("replica " + i, List.of("op-1"), c.operations(i));
      assertEquals(1, c.eventsOf(i, Event.Committed.class).size());
    }
    assertEquals(1, c.delivered.size());
    Effect.Execute ex = c.executed.get(0).get(0);
    assertArrayEquals("the service's reply to op-1", new HashChainApp().execute(ex.requests().get(0), ex.randoms().get(0)),
        c.delivered.get(0).result());
  }

  // Reference: §4.2 — total order: every replica executes the same sequence.
  @Test
  public void manyRequestsExecuteInTheSameOrderEverywhere() {
    Cluster c = new Cluster(1);
    for (int k = 0; k < 10; k++) {
      c.invoke("op-" + k);
      c.deliverAll();
    }
    for (int i = 1; i < c.n; i++) {
      assertEquals(c.operations(0), c.operations(i));
    }
    assertEquals(10, c.operations(0).size());
    assertEquals(10, c.delivered.size());
  }

  // Reference: §5.1 — batching: requests waiting while a batch is in flight are ordered together.
  @Test
  public void requestsArrivingTogetherShareABatch() {
    Cluster c = new Cluster(GroupConfigs.withOutstanding(1), 4);
    for (int id = c.n; id < c.n + 4; id++) {
      var client = c.clients.get(id);
      c.handleClient(client, client.invoke(("op-" + id).getBytes(StandardCharsets.UTF_8), false));
    }
    c.deliverAll();
    assertEquals(4, c.operations(1).size());
    List<Event.Committed> commits = c.eventsOf(1, Event.Committed.class);
    assertTrue("4 requests in fewer than 4 batches, got " + commits.size(), commits.size() < 4);
  }

  // Reference: §4.1 — "replicas ... remember the last reply sent to each client": a retransmitted
  // request is answered from the cache and not executed again (exactly-once).
  @Test
  public void retransmittedRequestIsAnsweredFromTheReplyCacheNotReExecuted() {
    Cluster c = new Cluster(1);
    c.invoke("once");
    c.deliverAll();
    Signed original = firstRequest(c);
    for (int i = 0; i < c.n; i++) {
      c.inject(c.n, i, original.encode());
    }
    int before = c.net.size();
    c.deliverAll();
    for (int i = 0; i < c.n; i++) {
      assertEquals(List.of("once"), c.operations(i));
    }
    assertTrue(c.sent.size() > before);
    long replies = c.sent.stream().filter(m -> m.to() == c.n).count();
    assertEquals("4 first replies + 4 cached ones", 8, replies);
  }

  // Reference: §4.2 — a backup accepts a pre-prepare only from the primary of its view.
  @Test
  public void prePrepareFromABackupIsRejectedAsEvidence() {
    Cluster c = new Cluster(1);
    Signed req = signedRequest(c, 1, "x");
    PrePrepare pp = PrePrepare.of(0, 1, List.of(req));
    Signed forged = Signed.sign(Kind.PRE_PREPARE, 2, pp.encode(), c.signers.get(2));
    c.inject(2, 1, forged.encode());
    c.deliverAll();
    assertTrue(c.operations(1).isEmpty());
    assertTrue(hasEvidence(c, 1, 2, "pre-prepare from a backup"));
  }

  // Reference: §4.2 — "it has not accepted a pre-prepare for view v and sequence number n containing a
  // different digest": a second pre-prepare is equivocation, recorded as evidence and ignored.
  @Test
  public void equivocatingPrimaryIsRecordedAndItsSecondProposalIgnored() {
    Cluster c = new Cluster(1);
    c.drop = m -> true; // keep the group quiet: only the injected messages matter
    Signed a = signedRequest(c, 1, "a");
    Signed b = signedRequest(c, 1, "b");
    Signed ppA = Signed.sign(Kind.PRE_PREPARE, 0, PrePrepare.of(0, 1, List.of(a)).encode(), c.signers.get(0));
    Signed ppB = Signed.sign(Kind.PRE_PREPARE, 0, PrePrepare.of(0, 1, List.of(b)).encode(), c.signers.get(0));
    c.handle(1, c.replicas[1].receive(ppA.encode()));
    c.handle(1, c.replicas[1].receive(ppB.encode()));
    assertTrue(hasEvidence(c, 1, 0, "equivocation"));
    assertEquals(1, c.eventsOf(1, Event.PrePrepared.class).size());
  }

  // Reference: §4.2 — the backup verifies the requests: one the client did not sign is refused.
  @Test
  public void batchWithARequestTheClientDidNotSignIsRefused() {
    Cluster c = new Cluster(1);
    c.drop = m -> true;
    Request q = new Request(c.n, "urn:uuid:client-0", 1, false, "forged".getBytes(StandardCharsets.UTF_8));
    Signed forged = Signed.sign(Kind.REQUEST, c.n, q.encode(), c.signers.get(0)); // signed by replica 0's key
    Signed pp = Signed.sign(Kind.PRE_PREPARE, 0, PrePrepare.of(0, 1, List.of(forged)).encode(), c.signers.get(0));
    c.handle(1, c.replicas[1].receive(pp.encode()));
    assertTrue(hasEvidence(c, 1, 0, "did not sign"));
    assertTrue(c.eventsOf(1, Event.PrePrepared.class).isEmpty());
  }

  // Reference: §4.2 — the backup verifies the requests. One it holds verified already skips the check only
  // if byte-identical: a faulty primary that keeps a held request's id and signature and changes its
  // operation is refused (found by the simulator's mutate nemesis).
  @Test
  public void heldRequestsSignatureOnAnotherOperationIsRefused() {
    Cluster c = new Cluster(1);
    c.drop = m -> true;
    Signed real = signedRequest(c, 1, "real");
    c.handle(1, c.replicas[1].receive(real.encode()));
    Request altered = new Request(c.n, "urn:uuid:client-0", 1, false, "altered".getBytes(StandardCharsets.UTF_8));
    Signed relabelled = Signed.of(Kind.REQUEST, c.n, altered.encode(), real.signature());
    Signed pp = Signed.sign(Kind.PRE_PREPARE, 0, PrePrepare.of(0, 1, List.of(relabelled)).encode(),
        c.signers.get(0));
    c.handle(1, c.replicas[1].receive(pp.encode()));
    assertTrue(hasEvidence(c, 1, 0, "did not sign"));
    assertTrue(c.eventsOf(1, Event.PrePrepared.class).isEmpty());
  }

  // Reference: §4 — messages are authenticated: a bad signature is evidence, never a crash.
  @Test
  public void garbageAndBadSignaturesAreEvidenceNotExceptions() {
    Cluster c = new Cluster(1);
    Ready r = c.replicas[1].receive(new byte[] {1, 2, 3});
    assertTrue(r.events.get(0) instanceof Event.Evidence);
    Signed req = signedRequest(c, 1, "x");
    byte[] sig = req.signature().clone();
    sig[0] ^= 1;
    Signed bad = Signed.of(Kind.REQUEST, req.sender(), req.body(), sig);
    r = c.replicas[1].receive(bad.encode());
    assertTrue(r.events.get(0) instanceof Event.Evidence);
    assertEquals(0, c.replicas[1].pendingRequests());
  }

  static Signed signedRequest(Cluster c, long number, String op) {
    Request q = new Request(c.n, "urn:uuid:client-0", number, false, op.getBytes(StandardCharsets.UTF_8));
    return Signed.sign(Kind.REQUEST, c.n, q.encode(), c.signers.get(c.n));
  }

  static boolean hasEvidence(Cluster c, int at, int against, String text) {
    return c.eventsOf(at, Event.Evidence.class).stream().anyMatch(e -> e.node() == against && e.what().contains(text));
  }

  private static Signed firstRequest(Cluster c) {
    for (EngineHarness.Msg m : c.sent) {
      if (Cluster.kind(m) == Kind.REQUEST) {
        return Signed.decode(m.bytes());
      }
    }
    throw new AssertionError("no request was sent");
  }

  // Reference: §4.1 with bounded memory — a client running far ahead of execution cannot fill a replica.
  @Test
  public void requestsFarAheadOfExecutionAreDroppedUnseen() {
    Cluster c = new Cluster(1);
    c.drop = m -> true;
    for (long k = 1; k <= 200; k++) {
      c.handle(1, c.replicas[1].receive(signedRequest(c, k, "r" + k).encode()));
    }
    assertEquals(64, c.replicas[1].pendingRequests());
  }
}
