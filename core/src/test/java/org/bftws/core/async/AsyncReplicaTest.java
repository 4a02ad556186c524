package org.bftws.core.async;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.bftws.core.codec.ByteWriter;
import org.bftws.core.config.GroupConfig;
import org.bftws.core.crypto.Digests;
import org.bftws.core.message.Kind;
import org.bftws.core.message.Request;
import org.bftws.core.message.RequestId;
import org.bftws.core.message.Signed;
import org.bftws.core.message.async.AbcBatch;
import org.bftws.core.testkit.TestKeys;
import org.junit.Test;

public class AsyncReplicaTest {
  // Reference: SINTRA §2.3 (binary agreement tosses the group's threshold coin)
  @Test
  public void aReplicaIsNotBuiltWithoutTheGroupsCoin() {
    TestKeys keys = TestKeys.seeded(4, 1);
    GroupConfig cfg = GroupConfig.builder().set(GroupConfig.F, 1).build();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> AsyncReplica.builder(cfg, 0, keys.signer(0), keys.verifier()).build());
    assertTrue(e.getMessage(), e.getMessage().contains("threshold coin"));
  }

  private static final int SEEDS = 8;

  /**
   * Closed-loop clients: each sends {@code perClient} requests, one at a time (the next once f+1 replies to
   * the previous arrived), each to a random set of at least f+1 replicas, at random points of the run;
   * returns the requests' ids. (A client with several requests outstanding on one sequence could see a
   * later one ordered first and the earlier one then skipped as old: the client table keeps the last
   * number per sequence, as PBFT's does.)
   */
  private static List<RequestId> load(AsyncCluster c, int perClient, long seed) {
    Random rng = new Random(seed * 17 + 3);
    List<RequestId> sent = new ArrayList<>();
    int[] count = new int[c.clients];
    while (sent.size() < perClient * c.clients) {
      List<Integer> ready = new ArrayList<>();
      for (int client = 0; client < c.clients; client++) {
        if (count[client] < perClient
            && (count[client] == 0 || c.matchingReplies(client, count[client]) >= c.f + 1)) {
          ready.add(client);
        }
      }
      if (ready.isEmpty()) {
        assertTrue("clients wait but nothing is pending, seed " + seed, c.step());
        continue;
      }
      int client = ready.get(rng.nextInt(ready.size()));
      List<Integer> to = new ArrayList<>();
      for (int i = 0; i < c.n; i++) {
        to.add(i);
      }
      Collections.shuffle(to, rng);
      Signed s = c.request(client, to.subList(0, c.f + 1 + rng.nextInt(c.n - c.f)));
      count[client]++;
      sent.add(Request.decode(s.body()).id());
      for (int steps = rng.nextInt(150); steps > 0 && c.step(); steps--) {
        // the network runs a while between requests
      }
    }
    c.run();
    return sent;
  }

  /** Agreement and total order at every correct replica; every request executed exactly once. */
  private static void allExecutedOnceInOneOrder(AsyncCluster c, List<RequestId> sent) {
    List<Request> first = null;
    for (int i = 0; i < c.n; i++) {
      if (!c.correct(i)) {
        continue;
      }
      List<Request> mine = c.executed.get(i);
      if (first == null) {
        first = mine;
      }
      assertEquals("executed sequence at replica " + i + ", seed " + c.seed, ids(first), ids(mine));
    }
    assertEquals("each request once, seed " + c.seed, new HashSet<>(sent), new HashSet<>(ids(first)));
    assertEquals("no request twice, seed " + c.seed, sent.size(), first.size());
  }

  private static List<RequestId> ids(List<Request> rs) {
    return rs.stream().map(Request::id).toList();
  }

  private static int correctCount(AsyncCluster c) {
    int k = 0;
    for (int i = 0; i < c.n; i++) {
      k += c.correct(i) ? 1 : 0;
    }
    return k;
  }

  // Reference: SINTRA §2.5 (agreement and total order), Castro-Liskov §4.1 (exactly-once, one reply each)
  @Test
  public void correctReplicasExecuteTheSameSequenceExactlyOnceOverManySeeds() {
    for (long seed = 0; seed < SEEDS; seed++) {
      AsyncCluster c = new AsyncCluster(4, 1, 3, seed, Set.of(), 4);
      List<RequestId> sent = load(c, 6, seed);
      allExecutedOnceInOneOrder(c, sent);
      for (int client = 0; client < c.clients; client++) {
        for (long number = 1; number <= 6; number++) {
          assertEquals("matching replies to client " + client + " #" + number + ", seed " + seed, 4,
              c.matchingReplies(client, number));
        }
      }
      for (int i = 0; i < c.n; i++) {
        assertTrue("checkpoints stable at " + i + ": " + c.replica(i).describe(),
            c.replica(i).stableCheckpoint() >= 4 || c.replica(i).lastExecuted() < 8);
        assertEquals("nothing pending at " + i, 0, c.replica(i).pendingRequests());
        assertTrue("no evidence at " + i + ": " + c.evidence.get(i), c.evidence.get(i).isEmpty());
      }
    }
  }

  // Reference: Castro-Liskov §4.3 (a checkpoint is stable at 2f+1 matching digests of the state after it)
  @Test
  public void checkpointsEveryKRoundsBecomeStableWithMatchingDigests() {
    for (long seed = 0; seed < SEEDS / 2; seed++) {
      AsyncCluster c = new AsyncCluster(4, 1, 3, seed, Set.of(3), 2); // 3 correct replicas: the quorum
      allExecutedOnceInOneOrder(c, load(c, 4, seed));
      for (int i = 0; i < 3; i++) {
        long last = c.replica(i).lastExecuted();
        assertTrue("rounds, seed " + seed, last >= 4);
        assertEquals("stable at replica " + i + ", seed " + seed, last - last % 2, c.replica(i).stableCheckpoint());
        assertEquals("every even round stable at " + i, last / 2, c.stable.get(i).size());
        assertTrue(c.evidence.get(i).isEmpty());
      }
    }
  }

  // Reference: BFT-WS §3.3.1.8 (execution waits for get_state; ordering goes on meanwhile)
  @Test
  public void slowStateCapturesPauseExecutionNotOrdering() {
    for (long seed = 0; seed < SEEDS / 2; seed++) {
      AsyncCluster c = new AsyncCluster(4, 1, 3, seed, Set.of(), 1); // a checkpoint after every round
      c.slowCaptures();
      allExecutedOnceInOneOrder(c, load(c, 4, seed));
      for (int i = 0; i < 4; i++) {
        assertEquals("stable at " + i + ", seed " + seed, c.replica(i).lastExecuted(), c.replica(i).stableCheckpoint());
        assertTrue(c.evidence.get(i).isEmpty());
      }
    }
  }

  // Hostile bytes: garbage and bit-flipped envelopes of every kind never throw; they are evidence or ignored.
  @Test
  public void hostileBytesNeverCrashTheEngine() {
    AsyncCluster c = new AsyncCluster(4, 1, 1, 9, Set.of(), 4);
    Signed q = c.request(0, List.of());
    Random rng = new Random(9);
    for (int i = 0; i < 2000; i++) {
      byte[] b = q.encode().clone();
      if (i % 2 == 0) {
        b = new byte[rng.nextInt(120)];
        rng.nextBytes(b);
      } else {
        b[rng.nextInt(b.length)] ^= (byte) (1 << rng.nextInt(8));
      }
      c.replica(1).receive(b);
    }
    c.post(4, 1, q.encode());
    c.run();
    assertEquals("a real request still executes everywhere", 1, c.executed.get(0).size());
  }

  // Reference: Castro-Liskov §4.1 (a retransmitted request is answered from the reply cache)
  @Test
  public void retransmittedRequestIsAnsweredFromTheCacheAndNotExecutedAgain() {
    AsyncCluster c = new AsyncCluster(4, 1, 1, 5, Set.of(), 4);
    Signed s = c.request(0, List.of(0, 1, 2, 3));
    c.run();
    assertEquals(4, c.matchingReplies(0, 1));
    int before = c.replies.get(0);
    for (int i = 0; i < 4; i++) {
      c.post(4, i, s.encode());
    }
    assertEquals("the four requests and four replies, nothing between replicas", 8, c.run());
    assertEquals("a second reply from each replica", before + 4, (int) c.replies.get(0));
    assertEquals(4, c.matchingReplies(0, 1));
    for (int i = 0; i < 4; i++) {
      assertEquals(1, c.executed.get(i).size());
    }
  }

  // Reference: SINTRA §2.5 (n−f round proposals suffice)
  @Test
  public void fSilentReplicasDoNotStopOrdering() {
    for (long seed = 0; seed < SEEDS / 2; seed++) {
      AsyncCluster c = new AsyncCluster(4, 1, 2, seed, Set.of((int) (seed % 4)), 4);
      allExecutedOnceInOneOrder(c, load(c, 5, seed));
    }
    for (long seed = 0; seed < 2; seed++) {
      AsyncCluster c = new AsyncCluster(7, 2, 2, seed, Set.of(1, (int) (4 + seed)), 4);
      allExecutedOnceInOneOrder(c, load(c, 3, seed));
    }
  }

  // Reference: SINTRA §2.5 (external validity: every request of an ordered batch is client-signed)
  @Test
  public void byzantineReplicaProposingForgedRequestsIsRefused() {
    for (long seed = 0; seed < SEEDS / 2; seed++) {
      AsyncCluster c = new AsyncCluster(4, 1, 2, seed, Set.of(3), 4);
      // a request of client 0 (node 4) that the Byzantine replica signs with its own key
      Request q = new Request(4, "seq-4", 1, false, "forged".getBytes(StandardCharsets.US_ASCII));
      Signed forged = Signed.sign(Kind.REQUEST, 4, q.encode(), c.signer(3));
      byte[] batch = new AbcBatch(List.of(forged.encode())).encode();
      byte[] name = AsyncReplica.CHANNEL.bind(AtomicBroadcast.BATCH,
          new ByteWriter(48).i64(1).raw(Digests.sha256(batch)).toBytes());
      byte[] proposal = new ByteWriter(batch.length + 80).bytes(batch).bytes(c.signer(3).sign(name)).toBytes();
      byte[] body = new AsyncMessage(AsyncReplica.CHANNEL.child(1), AtomicBroadcast.Type.PROPOSAL.code(), proposal)
          .encode();
      for (int i = 0; i < 3; i++) {
        c.post(3, i, Signed.sign(Kind.ASYNC, 3, body, c.signer(3)).encode());
      }
      c.run();
      List<RequestId> sent = load(c, 4, seed);
      allExecutedOnceInOneOrder(c, sent); // the forged request (client 0, number 1) is the real one's id:
      for (int i = 0; i < 3; i++) {     // only the real one executed
        assertFalse(c.executed.get(i).stream().anyMatch(r -> new String(r.operation(),
            StandardCharsets.US_ASCII).equals("forged")));
        assertTrue("evidence against 3 at " + i + ", seed " + seed,
            c.evidence.get(i).stream().anyMatch(e -> e.node() == 3));
      }
    }
  }

  // Reference: ASYNC.md (ticks drive no decision: the scheduler delays the leader of the moment at will)
  @Test
  public void deliversEverythingWithTicksFrozenWhileEachRoundsFirstCandidateIsDelayed() {
    for (long seed = 0; seed < SEEDS / 2; seed++) {
      AsyncCluster c = new AsyncCluster(4, 1, 2, seed, Set.of(), 4);
      c.holdBack((from, to, s) -> {
        if (s.kind() != Kind.ASYNC) {
          return false;
        }
        List<String> seg = AsyncMessage.decode(s.body()).pid().segments();
        Pid mvba = AsyncReplica.CHANNEL.child(seg.get(1)).child("mvba");
        return MultiValuedAgreement.order(mvba, c.n)[0] == from;
      });
      allExecutedOnceInOneOrder(c, load(c, 5, seed));
    }
  }

  // Reference: ASYNC.md (ticks drive no decision), with one replica's every message delayed throughout
  @Test
  public void deliversEverythingWhileOneReplicasEveryMessageIsDelayed() {
    for (long seed = 0; seed < SEEDS / 2; seed++) {
      AsyncCluster c = new AsyncCluster(4, 1, 2, seed, Set.of(), 4);
      c.holdBack((from, to, s) -> from == 0);
      allExecutedOnceInOneOrder(c, load(c, 5, seed));
    }
  }

  // Reference: SINTRA §2.5 (n−f parties order without the others; a starved party catches up from its buffer,
  // or by state transfer, Castro-Liskov §4.3, where it must fetch a round its peers forgot at a checkpoint)
  @Test
  public void replicaWhoseIncomingMessagesAreAllDelayedCatchesUp() {
    for (long seed = 0; seed < 2; seed++) {
      AsyncCluster c = new AsyncCluster(4, 1, 4, seed, Set.of(), 4);
      c.holdBack((from, to, s) -> to == 3 && from < 4);
      List<RequestId> sent = load(c, 5, seed);
      List<RequestId> order = ids(c.executed.get(0));
      List<RequestId> starved = ids(c.executed.get(3));
      if (!c.installed.get(3).isEmpty()) {
        // what it executed is the common order without the rounds that installed checkpoints settled
        int at = 0;
        for (RequestId r : starved) {
          while (at < order.size() && !order.get(at).equals(r)) {
            at++;
          }
          assertTrue("seed " + seed + ": " + starved + " in the order of " + order, at++ < order.size());
        }
        assertArrayEquals("seed " + seed, c.appState(0), c.appState(3));
        c.executed.get(3).clear();
        c.executed.get(3).addAll(c.executed.get(0));
      }
      allExecutedOnceInOneOrder(c, sent);
      System.out.printf("starved replica, seed %d: %d rounds, the most it buffered %d%n", seed,
          c.replica(3).lastExecuted(), c.maxBuffered(3));
    }
  }

  // Reference: SINTRA §4 (cost per delivered request; the figures of the documentation)
  @Test
  public void messagesAndRoundsPerRequestArePrinted() {
    for (int[] nf : new int[][] {{4, 1}, {7, 2}}) {
      for (int burst : new int[] {1, 32}) {
        int n = nf[0];
        AsyncCluster c = new AsyncCluster(n, nf[1], 32, 1, Set.of(), 16);
        List<Integer> all = new ArrayList<>();
        for (int i = 0; i < n; i++) {
          all.add(i);
        }
        List<RequestId> sent = new ArrayList<>();
        int requests = 32;
        for (int k = 0; k < requests; k += burst) {
          for (int b = 0; b < burst; b++) {
            sent.add(Request.decode(c.request(k + b, all).body()).id()); // one request per client
          }
          c.run();
        }
        allExecutedOnceInOneOrder(c, sent);
        long rounds = c.replica(0).deliveredRound();
        int replicaMessages = c.delivered() - requests * n - requests * n; // less requests and replies
        System.out.printf("async replica n=%d, %d requests in bursts of %d: %d rounds, %d replica messages: "
            + "%.1f messages and %.2f rounds per request%n", n, requests, burst, rounds, replicaMessages,
            (double) replicaMessages / requests, (double) rounds / requests);
        assertEquals(correctCount(c), n);
      }
    }
  }
}
