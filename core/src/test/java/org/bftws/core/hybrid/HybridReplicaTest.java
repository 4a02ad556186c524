package org.bftws.core.hybrid;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.bftws.core.async.Pid;
import org.bftws.core.config.GroupConfig;
import org.bftws.core.message.Request;
import org.bftws.core.message.hybrid.LaneBatch;
import org.bftws.core.message.hybrid.LaneProposal;
import org.bftws.core.message.hybrid.LaneVote;
import org.bftws.core.message.Signed;
import org.junit.Test;

/**
 * The hybrid engine's transitions (docs/design/hybrid.md), each on a small group with FIFO delivery: the fast
 * lane alone, fast lane → fallback → fast lane, a fallback entered while a batch is half committed, a leader
 * equivocating just before the switch, and a slow leader replaced by the slow-leader rule. Properties checked
 * in each: agreement (same batches at the same seqs, same executions in the same order) and that every
 * request submitted is executed at every correct replica.
 */
public class HybridReplicaTest {
  private static final int TIMEOUT = 20;

  private static HybridGroup group(Set<Integer> absent) {
    return new HybridGroup(4, 1, 1, absent, HybridGroup.fifo(), HybridGroup.config(TIMEOUT));
  }

  // Reference: Castro-Liskov §4.2 (normal case), BDT §4 (the optimistic lane)
  @Test
  public void aTimelyLeaderOrdersEverythingWithoutAFallback() {
    HybridGroup g = group(Set.of());
    List<Request> sent = new ArrayList<>();
    for (int k = 0; k < 20; k++) {
      sent.add(g.request(k % 3));
    }
    g.await(() -> sent.stream().allMatch(g::executedEverywhere), 50);
    g.assertAgreement();
    for (int i = 0; i < 4; i++) {
      assertEquals(0, g.replica(i).fallbacks());
      assertEquals(0, g.replica(i).view());
      assertEquals(20, g.executed.get(i).size());
      assertTrue(g.evidence.get(i).toString(), g.evidence.get(i).isEmpty());
    }
  }

  // Reference: Castro-Liskov §4.2 (a replica is prepared on the pre-prepare and 2f prepares from others: the
  // primary's pre-prepare stands for its prepare). The leader's PROPOSE carries its prepare share and it sends
  // no PREPARE; with replica 3's PREPAREs lost, replicas 1 and 2 hold q = 3 shares only with the leader's, so
  // every slot commits on certificates that count the PROPOSE's share: 3 PROPOSEs, 9 PREPAREs and 12 COMMITs
  // per slot at n = 4 (24, PBFT's count), here without replica 3's 3 PREPAREs
  @Test
  public void theLeaderSendsNoPrepareAndCertificatesCountItsProposesShare() {
    HybridGroup g = group(Set.of());
    Map<String, Integer> sent = new HashMap<>();
    g.cut((from, to, what) -> {
      sent.merge(from + " " + what, 1, Integer::sum);
      return from == 3 && what.endsWith("PREPARE");
    });
    for (int k = 0; k < 6; k++) {
      Request q = g.request(k % 2);
      g.await(() -> g.executedEverywhere(q), 50);
    }
    g.assertAgreement();
    long slots = g.committed.get(1).size();
    assertEquals("one slot per request", 6, slots);
    assertEquals("no PREPARE from the leader: " + sent, null, sent.get("0 hyb/0 PREPARE"));
    assertEquals(3 * slots, (long) sent.get("0 hyb/0 PROPOSE"));
    for (int i = 1; i < 4; i++) {
      assertEquals("replica " + i + "'s PREPAREs", 3 * slots, (long) sent.get(i + " hyb/0 PREPARE"));
    }
    for (int i = 0; i < 4; i++) {
      assertEquals("replica " + i + "'s COMMITs", 3 * slots, (long) sent.get(i + " hyb/0 COMMIT"));
      assertEquals(0, g.replica(i).fallbacks());
      assertTrue(g.evidence.get(i).toString(), g.evidence.get(i).isEmpty());
    }
  }

  // Reference: Castro-Liskov TOCS 2002 §3.2 (a prepare's signature is checked where it forms the certificate)
  // and §4.2: a PROPOSE whose share does not verify gives the batch but is not the leader's prepare, and is
  // evidence against it. With replica 3's PREPAREs lost, replicas 1 and 2 then hold two good shares of the
  // three a certificate needs and nothing commits, where the same PROPOSE with a good share commits
  @Test
  public void aProposeWithABadShareIsEvidenceAndNoPrepare() {
    for (boolean good : new boolean[] {true, false}) {
      HybridGroup g = group(Set.of(0)); // replica 0, epoch 0's leader, is Byzantine
      Request a = g.request(0);
      g.run();
      LaneBatch batch = new LaneBatch(1, new byte[32], List.of(g.signed(a).encode()));
      byte[] proposal = good ? g.proposal(0, 0, batch)
          : new LaneProposal(batch, LaneProposal.decode(g.proposal(0, 1, batch), 8).share()).encode();
      g.cut((from, to, what) -> from == 3 && what.endsWith("PREPARE"));
      for (int i = 1; i < 4; i++) {
        g.forge(0, i, HybridReplica.ROOT.child(0).child(1), Epoch.Type.PROPOSE.code(), proposal);
      }
      g.run();
      for (int i = 1; i < 4; i++) {
        assertEquals("good share " + good + ", replica " + i, good ? 1 : 0, g.committed.get(i).size());
      }
      for (int i = 1; i < 3; i++) {
        final int at = i;
        assertEquals("good share " + good + ": " + g.evidence.get(i), !good, g.evidence.get(at).stream()
            .anyMatch(e -> e.node() == 0 && e.what().contains("bad PROPOSE share for seq 1")));
      }
      g.cut((from, to, what) -> false);
      g.await(() -> g.executedEverywhere(a), 10 * TIMEOUT);
      g.assertAgreement();
    }
  }

  // Reference: Castro-Liskov §4.2 and TOCS 2002 §3.2. n = 7 (q = 5), replicas 5 and 6 Byzantine, with good
  // prepare shares for the others and bad ones for replica 1: replica 1 misses the leader's PROPOSE, fetches
  // the batch on the PREPAREs of 2, 3, 4, 5 and 6 and holds four good shares with its own; the PROPOSE, coming
  // after the fetched batch, still gives the leader's share, and replica 1 prepares and commits
  @Test
  public void aProposeAfterTheBatchWasFetchedStillCountsAsTheLeadersPrepare() {
    HybridGroup g = new HybridGroup(7, 2, 1, Set.of(5, 6), HybridGroup.fifo(), HybridGroup.config(TIMEOUT));
    Map<String, Integer> sent = new HashMap<>();
    g.cut((from, to, what) -> {
      sent.merge(from + " " + what, 1, Integer::sum);
      return from == 0 && to == 1 && what.endsWith("PROPOSE");
    });
    Request a = g.request(0);
    g.run();
    assertEquals("replica 1 misses the leader's PROPOSE", null, sent.get("1 hyb/0 PREPARE"));
    LaneBatch batch = new LaneBatch(1, new byte[32], List.of(g.signed(a).encode()));
    byte[] d = batch.digest();
    Pid slot = HybridReplica.ROOT.child(0).child(1);
    for (int faulty : new int[] {5, 6}) {
      for (int to = 0; to < 5; to++) {
        byte[] share = to == 1 ? new byte[64] : g.prepareShare(faulty, 0, 1, d);
        g.forge(faulty, to, slot, Epoch.Type.PREPARE.code(), new LaneVote(1, d, share).encode());
      }
    }
    g.run();
    assertEquals("replica 1 fetched the batch and prepares on it", 4, (int) sent.get("1 hyb/0 PREPARE")); // to 0, 2-4
    assertEquals("four good shares: not prepared", null, sent.get("1 hyb/0 COMMIT"));
    g.cut((from, to, what) -> {
      sent.merge(from + " " + what, 1, Integer::sum);
      return false;
    });
    g.forge(0, 1, slot, Epoch.Type.PROPOSE.code(), g.proposal(0, 0, batch));
    g.run();
    assertEquals("prepared on the PROPOSE's share", 4, (int) sent.get("1 hyb/0 COMMIT"));
    String top = g.committed.get(0).get(1L);
    assertEquals("the leader's batch", HexFormat.of().formatHex(d), top.substring(top.indexOf(':') + 1));
    assertTrue(g.evidence.get(1).toString(), g.evidence.get(1).stream()
        .anyMatch(e -> e.node() == 5 && e.what().contains("bad PREPARE share for seq 1")));
  }

  // Reference: BDT §5 (Transformer), §6 (back to the fast lane)
  @Test
  public void aStalledLaneFallsBackThenTheNextLeaderOrdersOnTheFastLane() {
    HybridGroup g = group(Set.of());
    g.cut((from, to, what) -> from == 0 && what.startsWith("hyb/0 "));
    Request first = g.request(0);
    g.await(() -> g.executedEverywhere(first), 10 * TIMEOUT);
    for (int i = 0; i < 4; i++) {
      assertEquals(g.describe(), 1, g.replica(i).fallbacks());
      assertEquals(1, g.replica(i).view());
    }
    g.cut((from, to, what) -> false);
    long before = g.now();
    List<Request> sent = new ArrayList<>();
    for (int k = 0; k < 10; k++) {
      sent.add(g.request(k % 2));
    }
    g.await(() -> sent.stream().allMatch(g::executedEverywhere), 10);
    g.assertAgreement();
    for (int i = 0; i < 4; i++) {
      assertEquals("no second fallback: leader 1 is timely", 1, g.replica(i).fallbacks());
      assertTrue(g.now() - before < TIMEOUT);
      assertEquals(11, g.executed.get(i).size());
    }
  }

  // Reference: BDT §5 (safety of the Transformer), Castro-Liskov §4.4 (prepared certificates survive)
  @Test
  public void aBatchCommittedAtOneReplicaSurvivesTheFallback() {
    HybridGroup g = group(Set.of());
    // replica 3 gets no prepare, so it is not prepared; commits reach replica 1 only
    g.cut((from, to, what) -> what.endsWith("PREPARE") && to == 3 || what.endsWith("COMMIT") && to != 1);
    Request q = g.request(0);
    g.run();
    assertEquals(1, g.committed.get(1).size());
    for (int i : new int[] {0, 2, 3}) {
      assertTrue(g.committed.get(i).isEmpty());
    }
    String atOne = g.committed.get(1).get(1L);
    // the leader goes silent: the lane stalls, every replica falls back
    g.cut((from, to, what) -> from == 0 && what.startsWith("hyb/0 "));
    Request next = g.request(1);
    g.await(() -> g.executedEverywhere(q) && g.executedEverywhere(next), 10 * TIMEOUT);
    g.assertAgreement();
    for (int i = 0; i < 4; i++) {
      assertEquals(atOne, g.committed.get(i).get(1L));
      assertEquals(q.id(), g.executed.get(i).get(0).id());
      assertEquals(2, g.executed.get(i).size());
    }
  }

  // Reference: Castro-Liskov §4.2 (quorum intersection), BDT §5
  @Test
  public void aLeaderEquivocatingJustBeforeTheSwitchCannotSplitTheGroup() {
    HybridGroup g = group(Set.of(0)); // replica 0, epoch 0's leader, is Byzantine
    Request a = g.request(0);
    Request b = g.request(1);
    g.run();
    Signed sa = g.signed(a);
    Signed sb = g.signed(b);
    LaneBatch one = new LaneBatch(1, new byte[32], List.of(sa.encode()));
    LaneBatch two = new LaneBatch(1, new byte[32], List.of(sb.encode()));
    g.forge(0, 1, HybridReplica.ROOT.child(0).child(1), Epoch.Type.PROPOSE.code(), g.proposal(0, 0, one));
    g.forge(0, 2, HybridReplica.ROOT.child(0).child(1), Epoch.Type.PROPOSE.code(), g.proposal(0, 0, two));
    g.forge(0, 3, HybridReplica.ROOT.child(0).child(1), Epoch.Type.PROPOSE.code(), g.proposal(0, 0, two));
    g.forge(0, 3, HybridReplica.ROOT.child(0).child(1), Epoch.Type.PROPOSE.code(), g.proposal(0, 0, one));
    g.await(() -> g.executedEverywhere(a) && g.executedEverywhere(b), 10 * TIMEOUT);
    g.assertAgreement();
    assertTrue(g.evidence.get(3).stream().anyMatch(e -> e.node() == 0 && e.what().contains("two batches")));
    for (int i = 1; i < 4; i++) {
      assertEquals(2, g.executed.get(i).size());
      assertTrue(g.replica(i).fallbacks() >= 1);
    }
  }

  // Reference: Castro-Liskov §4.2 (backups verify the requests), SINTRA §2.5 (external validity). A faulty
  // leader that keeps a held request's id and signature and changes its operation is refused, not ordered
  // with the signature check skipped (found by the simulator's mutate nemesis).
  @Test
  public void aLeaderRelabellingAHeldRequestIsRefused() {
    HybridGroup g = group(Set.of(0));
    Request a = g.request(0);
    g.run();
    Signed sa = g.signed(a);
    Request altered = new Request(a.client(), a.sequenceId(), a.messageNumber(), false,
        "altered".getBytes(StandardCharsets.UTF_8));
    Signed relabelled = Signed.of(sa.kind(), sa.sender(), altered.encode(), sa.signature());
    LaneBatch forged = new LaneBatch(1, new byte[32], List.of(relabelled.encode()));
    for (int i = 1; i < 4; i++) {
      g.forge(0, i, HybridReplica.ROOT.child(0).child(1), Epoch.Type.PROPOSE.code(), g.proposal(0, 0, forged));
    }
    g.await(() -> g.executedEverywhere(a), 10 * TIMEOUT);
    g.assertAgreement();
    for (int i = 1; i < 4; i++) {
      final int at = i;
      assertTrue(g.evidence.get(at).stream().anyMatch(e -> e.node() == 0 && e.what().contains("invalid request")));
      assertTrue(g.executed.get(at).stream().noneMatch(q -> new String(q.operation(),
          StandardCharsets.UTF_8).equals("altered")));
    }
  }

  // Reference: Aardvark's regular view changes (a primary must keep up the throughput recently achieved)
  @Test
  public void aLeaderSlowerThanTheFallbackIsReplacedBeforeTheTimeout() {
    HybridGroup g = new HybridGroup(4, 1, 1, Set.of(), HybridGroup.fifo(), HybridGroup.config(200));
    g.cut((from, to, what) -> from == 0 && what.startsWith("hyb/0 "));
    Request first = g.request(0);
    g.await(() -> g.executedEverywhere(first), 1000);
    long budget = g.replica(2).slowLeader().budget();
    assertTrue("the fallback's cost, measured, is below the timeout: " + budget, budget < 200);
    g.slow(1, 150); // epoch 1's leader keeps every message 150 ticks, under the 200-tick timeout
    long start = g.now();
    Request second = g.request(1);
    g.await(() -> g.executedEverywhere(second), 1000);
    assertTrue("replaced after " + (g.now() - start) + " ticks", g.now() - start < 150);
    for (int i = 0; i < 4; i++) {
      assertTrue(g.replica(i).view() >= 2);
    }
    g.assertAgreement();
  }

  // Reference: Castro-Liskov §4.3 (checkpoints), integrity paper §5 (CT: a coin per randomized request)
  @Test
  public void checkpointsBecomeStableAndRandomizedRequestsGetOneNumberAcrossAFallback() {
    HybridGroup g = group(Set.of());
    List<Request> sent = new ArrayList<>();
    for (int k = 0; k < 20; k++) {
      if (k == 10) {
        g.cut((from, to, what) -> from == 0 && what.startsWith("hyb/0 ")); // a fallback half way
      }
      Request q = g.request(k % 2, k % 3 == 0);
      sent.add(q);
      g.await(() -> g.executedEverywhere(q), 10 * TIMEOUT);
    }
    g.assertAgreement();
    for (int i = 0; i < 4; i++) {
      assertEquals(1, g.replica(i).fallbacks());
      assertTrue("stable " + g.stable.get(i), g.stable.get(i).contains(16L));
      assertEquals(16, g.replica(i).stableCheckpoint());
      for (int k = 0; k < 20; k += 3) {
        String random = g.randoms.get(i).get(sent.get(k).id().toString());
        assertTrue("request " + k + " got a random number", random != null && !random.isEmpty());
        assertEquals(g.randoms.get(0).get(sent.get(k).id().toString()), random);
      }
    }
  }

  // Reference: Castro-Liskov §4.3 (garbage collection at stable checkpoints)
  @Test
  public void aLongEpochKeepsItsResendLogAndInstancesWithinTheLogWindow() {
    HybridGroup g = group(Set.of());
    int window = g.cfg.logWindow();
    int mostResent = 0;
    int mostInstances = 0;
    for (int k = 0; k < 120; k++) {
      Request q = g.request(k % 2);
      g.await(() -> g.executedEverywhere(q), 10);
      for (int i = 0; i < 4; i++) {
        mostResent = Math.max(mostResent, g.replica(i).resendLog());
        mostInstances = Math.max(mostInstances, g.replica(i).instances());
      }
    }
    assertEquals("one epoch throughout", 0, g.replica(1).view());
    // per slot a replica sends a PROPOSE (the leader) or a PREPARE, and a COMMIT; slots above the stable
    // checkpoint and within the log window are kept
    assertTrue("resend log " + mostResent, mostResent <= 2 * window);
    // the open slots, the epoch, its agreement (n broadcasts and a binary agreement) and the block store
    assertTrue("instances " + mostInstances, mostInstances <= window + 4 + 8);
  }

  // Reference: Castro-Liskov §4.3 (state transfer), BFT-WS §3.3.1.8
  @Test
  public void aReplicaCutOffPastAStableCheckpointCatchesUpByStateTransfer() {
    HybridGroup g = group(Set.of());
    g.cut((from, to, what) -> to == 3 && from < 4); // replica 3 hears no replica, only clients
    for (int k = 0; k < 20; k++) {
      Request q = g.request(k % 2);
      g.await(() -> g.executedAt(q) == 3, 10 * TIMEOUT);
    }
    assertEquals(0, g.replica(3).lastExecuted());
    g.healAndOrder(5, 40 * TIMEOUT);
    assertTrue("replica 3 installed " + g.installed(3), g.installed(3) >= 16);
  }

  // Reference: SINTRA §2.4 (agreement of the multi-valued agreement): f+1 matching ends include a correct one's
  @Test
  public void aReplicaCutOffForTwoEpochsLearnsHowTheyEndedAndRejoins() {
    HybridGroup g = group(Set.of());
    // replica 3 hears nothing and is heard by no one; epoch 0's leader, then epoch 1's, stall their lanes (their
    // SWITCHes go out: three replicas are all the agreement has)
    g.cut((from, to, what) -> from == 3 || to == 3 || from == 0 && lane(what, 0));
    g.request(0);
    g.await(() -> g.replica(1).view() >= 1 && g.replica(1).lastExecuted() >= 1, 20 * TIMEOUT);
    g.cut((from, to, what) -> from == 3 || to == 3 || from == 1 && lane(what, 1));
    g.request(1);
    g.await(() -> g.replica(0).view() >= 2 && g.replica(2).view() >= 2, 20 * TIMEOUT);
    assertEquals(0, g.replica(3).view());
    // healed: replica 3 is two epochs behind, whose messages its peers no longer send
    g.healAndOrder(5, 60 * TIMEOUT);
    assertEquals(g.replica(0).view(), g.replica(3).view());
    assertEquals(g.replica(0).lastExecuted(), g.replica(3).lastExecuted());
  }

  /** A fast-lane message (PROPOSE, PREPARE, COMMIT) of epoch e, not its SWITCH. */
  private static boolean lane(String what, long e) {
    return what.startsWith("hyb/" + e + " ") && !what.endsWith("SWITCH");
  }

  // Bounds on what a Byzantine replica chooses: votes for any seq and digest, far ahead or not
  @Test
  public void votesAFaultyReplicaInventsStayWithinTheWindow() {
    HybridGroup g = group(Set.of(3));
    int window = g.cfg.logWindow();
    java.util.Random rng = new java.util.Random(5);
    for (int k = 1; k <= 5000; k++) {
      byte[] d = new byte[32];
      rng.nextBytes(d);
      long seq = 1 + rng.nextInt(4 * window);
      int type = (k % 2 == 0 ? Epoch.Type.PREPARE : Epoch.Type.COMMIT).code();
      g.forge(3, 0, HybridReplica.ROOT.child(0).child(seq), type,
          new org.bftws.core.message.hybrid.LaneVote(seq, d, new byte[] {1}).encode());
    }
    g.run();
    assertTrue("votes " + g.replica(0).laneVotes(), g.replica(0).laneVotes() <= 2 * window);
    assertTrue("buffered " + g.replica(0).logSize(), g.replica(0).logSize() <= 1024);
    Request q = g.request(0);
    g.await(() -> g.executedEverywhere(q), 10 * TIMEOUT);
    g.assertAgreement();
  }

  @Test
  public void separatedExecutionIsRefusedAtConstructionNamingTheKeys() {
    GroupConfig cfg = GroupConfig.builder().executing(List.of(0, 1, 2)).build();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> HybridReplica.builder(cfg, 0, null, null).build());
    assertTrue(e.getMessage(), e.getMessage().contains("bftws.executingReplicas"));
  }
}
