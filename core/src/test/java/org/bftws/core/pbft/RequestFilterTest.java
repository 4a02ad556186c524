package org.bftws.core.pbft;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.bftws.core.engine.Event;
import org.bftws.core.message.Kind;
import org.bftws.core.message.PrePrepare;
import org.bftws.core.message.Request;
import org.bftws.core.message.SequenceOwner;
import org.bftws.core.message.Signed;
import org.bftws.core.replication.ReplicatedClients;
import org.bftws.core.voter.ClientCore;
import org.junit.Test;

/**
 * BFT-WS §3.4, multi-tier interactions: a replicated client (the 3p+1 replicas of a middle tier, here four
 * clients with p = 1) shares one sequence; a replica orders a request of it only with p+1 identical copies
 * from distinct members, executes it once and answers every member.
 */
public class RequestFilterTest {
  private static final String INC = "inc";

  /** A group of four replicas and a replicated client of four members n..n+3 on one sequence. */
  private static Cluster cluster() {
    Cluster c = new Cluster(GroupConfigs.withOutstanding(1), 4);
    c.replicatedClient(List.of(c.n, c.n + 1, c.n + 2, c.n + 3), SequenceOwner.bind(c.n, "middle"));
    return c;
  }

  private static ClientCore member(Cluster c, int k) {
    return c.clients.get(c.n + k);
  }

  private static void call(Cluster c, int k, String op) {
    ClientCore m = member(c, k);
    c.handleClient(m, m.invoke(op.getBytes(StandardCharsets.UTF_8), false));
  }

  /** Members 0..count−1 call {@code op}; everything is delivered. */
  private static void callFirst(Cluster c, int count, String op) {
    for (int k = 0; k < count; k++) {
      call(c, k, op);
    }
    c.deliverAll();
  }

  /** Every replica executed exactly {@code ops}, in order. */
  private static void assertExecuted(Cluster c, List<String> ops) {
    for (int i = 0; i < c.n; i++) {
      assertEquals("replica " + i, ops, c.operations(i));
    }
  }

  /** Member k's request with number 1 and operation {@code op}, signed by k, sent to every replica. */
  private static void sendAltered(Cluster c, int k, String op) {
    int id = c.n + k;
    Request q = new Request(id, member(c, 0).sequenceId(), 1, false, op.getBytes(StandardCharsets.UTF_8));
    Signed s = Signed.sign(Kind.REQUEST, id, q.encode(), c.signers.get(id));
    for (int i = 0; i < c.n; i++) {
      c.inject(id, i, s.encode());
    }
  }

  // Reference: §3.4 — "a server replica accepts a request from a replicated client if and only if it has
  // collected p+1 identical requests from different client replicas"; executed once, each member votes.
  @Test
  public void identicalCopiesOfEveryMemberExecuteOnceAndEveryMemberGetsTheVotedReply() {
    Cluster c = cluster();
    callFirst(c, 4, INC);
    assertExecuted(c, List.of(INC));
    assertEquals("each of the 4 members has its voted reply", 4, c.delivered.size());
    for (Event.Delivered d : c.delivered) {
      assertArrayEquals(c.delivered.get(0).result(), d.result());
    }
  }

  @Test
  public void oneCopyIsNeitherOrderedNorPendingNorWatchedByTheViewChangeTimer() {
    Cluster c = cluster();
    call(c, 0, INC);
    c.deliverAll();
    c.tick(3 * c.cfg.get(org.bftws.core.config.GroupConfig.VIEW_CHANGE_TIMEOUT));
    for (int i = 0; i < c.n; i++) {
      assertEquals(List.of(), c.operations(i));
      assertEquals(0, c.replicas[i].pendingRequests());
      assertEquals("no view change for a request only one member sent", 0, c.replicas[i].view());
    }
    call(c, 1, INC);
    c.deliverAll();
    assertExecuted(c, List.of(INC));
  }

  @Test
  public void duplicatesFromOneMemberCountOnce() {
    Cluster c = cluster();
    call(c, 0, INC);
    c.deliverAll();
    c.tick(c.cfg.get(org.bftws.core.config.GroupConfig.CLIENT_RETRANSMIT) * 3); // member 0 retransmits
    sendAltered(c, 0, INC); // and re-signs the same request
    c.deliverAll();
    assertTrue("member 0 retransmitted", c.sent.stream().filter(m -> m.from() == c.n).count() > c.n);
    assertExecuted(c, List.of());
  }

  // Reference: §3.4 — "if the faulty client replica sends a malformed nested request to all server replicas
  // ahead of other (correct) client replicas' request, it would prevent the request from the correct client
  // replicas from being accepted": the filter lets it neither block nor replace the correct request.
  @Test
  public void aFaultyMemberSendingAnAlteredRequestFirstNeitherBlocksNorReplacesTheCorrectOne() {
    Cluster c = cluster();
    sendAltered(c, 3, "altered");
    c.deliverAll();
    callFirst(c, 3, INC);
    assertExecuted(c, List.of(INC));
    assertEquals("the 3 correct members have their voted reply", 3, c.delivered.size());
    for (Event.Delivered d : c.delivered) {
      assertTrue(d.request().messageNumber() == 1);
    }
  }

  @Test
  public void aFaultyMembersAlteredRequestAloneIsNeverOrdered() {
    Cluster c = cluster();
    sendAltered(c, 3, "altered");
    c.deliverAll();
    assertExecuted(c, List.of());
  }

  @Test
  public void aMemberJoiningAfterExecutionIsAnsweredFromTheCacheNotExecutedAgain() {
    Cluster c = cluster();
    call(c, 0, INC);
    call(c, 1, INC);
    c.deliverAll();
    call(c, 2, INC);
    call(c, 3, INC);
    c.deliverAll();
    assertExecuted(c, List.of(INC));
    assertEquals(4, c.delivered.size());
  }

  // A member lags behind the others (a middle replica executing its total order later than the rest): its
  // requests were executed long before it sends them, and it still gets each voted reply, nothing re-executed.
  @Test
  public void aLaggingMemberGetsTheRepliesOfRequestsTheOthersHadExecutedLongAgo() {
    Cluster c = cluster();
    for (int call = 1; call <= 3; call++) {
      call(c, 0, INC + call);
      call(c, 1, INC + call);
      c.deliverAll();
    }
    assertEquals(6, c.delivered.size());
    for (int call = 1; call <= 3; call++) {
      call(c, 2, INC + call);
      c.deliverAll();
      assertEquals("member 2's call " + call + " is answered", 6 + call, c.delivered.size());
      assertArrayEquals(c.delivered.get(2 * call - 1).result(), c.delivered.get(c.delivered.size() - 1).result());
    }
    assertExecuted(c, List.of("inc1", "inc2", "inc3"));
  }

  @Test
  public void manyCallsThroughTheGroupExecuteExactlyOnceEach() {
    Cluster c = cluster();
    for (int call = 1; call <= 5; call++) {
      for (int k = 0; k < 4; k++) {
        call(c, k, INC + call);
      }
      c.deliverAll();
    }
    assertExecuted(c, List.of("inc1", "inc2", "inc3", "inc4", "inc5"));
    assertEquals(20, c.delivered.size());
  }

  @Test
  public void backupsRefuseAPrePrepareWithFewerThanPPlusOneCopies() {
    Cluster c = cluster();
    int id = c.n + 3;
    Request q = new Request(id, member(c, 0).sequenceId(), 1, false, "altered".getBytes(StandardCharsets.UTF_8));
    Signed copy = Signed.sign(Kind.REQUEST, id, q.encode(), c.signers.get(id));
    Signed pp = Signed.sign(Kind.PRE_PREPARE, 0, PrePrepare.of(0, 1, List.of(copy)).encode(), c.signers.get(0));
    for (int i = 1; i < c.n; i++) {
      c.inject(0, i, pp.encode());
    }
    c.deliverAll();
    for (int i = 1; i < c.n; i++) {
      assertTrue("replica " + i, c.evidenceAt(i, 0, "identical copies from distinct members"));
      assertFalse(c.sent.stream().anyMatch(m -> Cluster.kind(m) == Kind.PREPARE));
      assertEquals(List.of(), c.operations(i));
    }
  }

  @Test
  public void aNonMemberCannotUseTheReplicatedClientsSequence() {
    Cluster c = cluster();
    Signed forged = c.request(INC, false);
    Request q = Request.decode(forged.body());
    Request onGroup = new Request(q.client(), member(c, 0).sequenceId(), 1, false, q.operation());
    c.toReplicas(Signed.sign(Kind.REQUEST, q.client(), onGroup.encode(), c.signers.get(q.client())), 0, 1, 2, 3);
    c.deliverAll();
    for (int i = 0; i < c.n; i++) {
      assertTrue(c.evidenceAt(i, q.client(), "another client's sequence"));
      assertEquals(List.of(), c.operations(i));
    }
  }

  @Test
  public void parsesGroupsAndDerivesPFromTheirSize() {
    ReplicatedClients rc = ReplicatedClients.parse("4-7; 8,9,10");
    assertEquals(List.of(4, 5, 6, 7), rc.members(6));
    assertEquals(4, rc.principal(7));
    assertEquals(2, rc.copiesNeeded(5));
    assertEquals(1, rc.copiesNeeded(9)); // 3 members: p = 0
    assertEquals(List.of(11), rc.members(11));
    assertEquals(1, rc.copiesNeeded(11));
    assertTrue(ReplicatedClients.parse(" ").isEmpty());
    assertTrue(ReplicatedClients.parse(ReplicatedClients.none().toText()).isEmpty());
    assertEquals("4,5,6,7;8,9,10", rc.toText());
    assertEquals(rc.toText(), ReplicatedClients.parse(rc.toText()).toText());
  }

  @Test(expected = IllegalArgumentException.class)
  public void refusesOverlappingGroups() {
    ReplicatedClients.parse("4-7;7-10");
  }
}
