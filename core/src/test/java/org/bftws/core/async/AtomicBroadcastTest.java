package org.bftws.core.async;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;
import org.bftws.core.message.async.AbcBatch;
import org.junit.Test;

public class AtomicBroadcastTest {
  private static final int SEEDS = 12;
  private static final Pid ABC = Pid.root("abc");
  private static final int MAX_BATCH = 8;

  /** A channel at every correct replica of an {@link AsyncNet}, with each one's deliveries. */
  private static final class Channel {
    final AsyncNet net;
    final AtomicBroadcast[] abc;
    final List<List<AtomicBroadcast.Delivery>> deliveries = new ArrayList<>();
    final List<Set<ByteBuffer>> delivered = new ArrayList<>();

    Channel(int n, int f, long seed, Set<Integer> byzantine) {
      net = new AsyncNet(n, f, seed, byzantine, true);
      abc = new AtomicBroadcast[n];
      for (int i = 0; i < n; i++) {
        List<AtomicBroadcast.Delivery> mine = new ArrayList<>();
        Set<ByteBuffer> done = new HashSet<>();
        deliveries.add(mine);
        delivered.add(done);
        if (net.correct(i)) {
          int me = i;
          net.input(i, () -> abc[me] = new AtomicBroadcast(net.ctx(me), ABC, MAX_BATCH,
              AtomicBroadcastTest::validPayload, p -> !done.contains(ByteBuffer.wrap(p)), d -> {
                mine.add(d);
                d.payloads().forEach(p -> done.add(ByteBuffer.wrap(p)));
              }));
        }
      }
    }

    void send(int replica, byte[] payload) {
      if (net.correct(replica)) {
        net.input(replica, () -> abc[replica].send(payload));
      }
    }

    /** Agreement and total order: every correct replica delivered the same rounds, byte for byte. */
    List<AtomicBroadcast.Delivery> agreed() {
      List<AtomicBroadcast.Delivery> first = null;
      for (int i = 0; i < net.n; i++) {
        if (!net.correct(i)) {
          continue;
        }
        List<AtomicBroadcast.Delivery> d = deliveries.get(i);
        if (first == null) {
          first = d;
          continue;
        }
        assertEquals("rounds at replica " + i + ", seed " + net.seed, first.size(), d.size());
        for (int r = 0; r < d.size(); r++) {
          assertEquals(first.get(r).round(), d.get(r).round());
          assertArrayEquals("round " + (r + 1) + " at replica " + i + ", seed " + net.seed,
              first.get(r).digest(), d.get(r).digest());
          assertEquals(first.get(r).payloads().size(), d.get(r).payloads().size());
        }
      }
      return first;
    }

    /** Every payload sent is delivered exactly once (at every correct replica: see {@link #agreed}). */
    void exactlyOnce(List<byte[]> sent) {
      List<AtomicBroadcast.Delivery> d = agreed();
      List<ByteBuffer> all = new ArrayList<>();
      for (int r = 0; r < d.size(); r++) {
        assertEquals("rounds are consecutive, seed " + net.seed, r + 1, d.get(r).round());
        d.get(r).payloads().forEach(p -> all.add(ByteBuffer.wrap(p)));
      }
      assertEquals("delivered payloads, seed " + net.seed, sent.size(), all.size());
      assertEquals("distinct, seed " + net.seed, sent.size(), new HashSet<>(all).size());
      for (byte[] p : sent) {
        assertTrue("delivered, seed " + net.seed, all.contains(ByteBuffer.wrap(p)));
      }
    }
  }

  static boolean validPayload(byte[] p) {
    return p.length > 3 && p[0] == 'o' && p[1] == 'k';
  }

  private static byte[] payload(int client, int k) {
    return ("ok:" + client + ":" + k).getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Clients send payloads to random subsets of f+1 or more replicas, at random points of an adversarially
   * scheduled run; returns what was sent.
   */
  private static List<byte[]> load(Channel c, int payloads, long seed) {
    Random rng = new Random(seed * 31 + 7);
    List<byte[]> sent = new ArrayList<>();
    for (int k = 0; k < payloads; k++) {
      byte[] p = payload(k % 5, k);
      sent.add(p);
      int copies = c.net.f + 1 + rng.nextInt(c.net.n - c.net.f);
      List<Integer> order = new ArrayList<>();
      for (int i = 0; i < c.net.n; i++) {
        order.add(i);
      }
      java.util.Collections.shuffle(order, rng);
      for (int i = 0; i < copies; i++) {
        c.send(order.get(i), p);
      }
      for (int s = rng.nextInt(200); s > 0 && c.net.step(); s--) {
        // let the network run a while between requests
      }
    }
    c.net.run();
    return sent;
  }

  // Reference: SINTRA §2.5 (agreement, total order; a payload known to f+1 correct parties is delivered)
  @Test
  public void correctReplicasDeliverTheSameSequenceOverManySeeds() {
    for (long seed = 0; seed < SEEDS; seed++) {
      Channel c = new Channel(4, 1, seed, Set.of());
      c.exactlyOnce(load(c, 30, seed));
    }
  }

  // Reference: SINTRA §2.5 (n−f proposals suffice: f silent parties do not stop the channel)
  @Test
  public void fSilentReplicasDoNotStopTheChannel() {
    for (long seed = 0; seed < SEEDS / 2; seed++) {
      for (int[] nf : new int[][] {{4, 1}, {7, 2}}) {
        int n = nf[0];
        Set<Integer> silent = nf[1] == 1 ? Set.of((int) (seed % n)) : Set.of(1, 5);
        Channel c = new Channel(n, nf[1], seed, silent);
        List<byte[]> sent = load(c, 12, seed);
        // payloads sent only to silent replicas cannot be ordered; f+1 copies reach a correct one
        c.exactlyOnce(sent);
      }
    }
  }

  // Reference: SINTRA §2.5 (external validity: every payload of an ordered batch is valid)
  @Test
  public void byzantineProposalsWithInvalidPayloadsOrBadSignaturesAreRefused() {
    for (long seed = 0; seed < SEEDS / 2; seed++) {
      Channel c = new Channel(4, 1, seed, Set.of(3));
      byte[] forged = "forged".getBytes(StandardCharsets.UTF_8);
      Pid round1 = ABC.child(1);
      byte[] bad = new AbcBatch(List.of(forged)).encode();
      byte[] badSigned = proposal(bad, c.net.sign(3, signedName(1, bad)));
      byte[] good = new AbcBatch(List.of(payload(9, 9))).encode();
      byte[] unsigned = proposal(good, new byte[64]);
      for (int to = 0; to < 3; to++) {
        c.net.post(3, to, c.net.forge(3, round1, AtomicBroadcast.Type.PROPOSAL.code(), to == 0 ? unsigned : badSigned));
      }
      c.net.run(); // before any round: a message for a round already delivered is dropped unread
      List<byte[]> sent = load(c, 10, seed);
      c.exactlyOnce(sent);
      for (int i = 0; i < 3; i++) {
        assertTrue("evidence against 3 at " + i + ", seed " + seed,
            c.net.evidence(i).stream().anyMatch(e -> e.node() == 3));
      }
    }
  }

  // Reference: SINTRA §2.5 with vectors by digest (HoneyBadgerBFT, CCS 2016 §4.4; Dumbo-NG): Byzantine party 3
  // sends its round-1 proposal to party 0 alone, so 0's vector names a proposal that 1 and 2 never got. Its
  // broadcast needs their signatures (3 is silent otherwise), so each fetches the proposal from a holder
  // before judging the vector; without that the round would never get n−f certified vectors.
  @Test
  public void vectorNamingAProposalOthersLackIsJudgedOnceTheyFetchedIt() {
    for (long seed = 0; seed < SEEDS / 2; seed++) {
      Channel c = new Channel(4, 1, seed, Set.of(3));
      byte[] own = payload(7, 7);
      byte[] batch = new AbcBatch(List.of(own)).encode();
      c.net.post(3, 0, c.net.forge(3, ABC.child(1), AtomicBroadcast.Type.PROPOSAL.code(),
          proposal(batch, c.net.sign(3, signedName(1, batch)))));
      c.net.run(); // round 1: party 0 joins with 3's payloads, 1 and 2 join on 0's proposal
      List<AtomicBroadcast.Delivery> d = c.agreed();
      assertEquals("round 1 delivered, seed " + seed, 1, d.size());
      for (int i = 1; i < 3; i++) {
        assertTrue("party " + i + " fetched 3's proposal, seed " + seed, c.net.transcript(i).stream()
            .anyMatch(x -> !x.sent() && x.message().type() == AtomicBroadcast.Type.BATCH_ANSWER.code()
                && x.message().pid().equals(ABC.child(1))));
        assertTrue("no evidence at " + i + ": " + c.net.evidence(i), c.net.evidence(i).isEmpty());
      }
      List<byte[]> sent = load(c, 10, seed);
      List<byte[]> all = new java.util.ArrayList<>(sent);
      all.add(own);
      c.exactlyOnce(all);
    }
  }

  // Reference: ASYNC.md (no timer decides: the channel delivers while the adversary delays one party)
  @Test
  public void deliversWhileEachRoundsFirstCandidateIsDelayedAsLongAsTheSchedulerLikes() {
    for (long seed = 0; seed < SEEDS / 2; seed++) {
      Channel c = new Channel(4, 1, seed, Set.of());
      // the "leader of the moment": the first candidate of each round's agreement, all of whose messages
      // of that round wait until nothing else is pending
      c.net.holdBack((from, m) -> {
        List<String> seg = m.pid().segments();
        if (seg.size() < 2) {
          return false;
        }
        Pid round = ABC.child(seg.get(1));
        return MultiValuedAgreement.order(round.child("mvba"), c.net.n)[0] == from;
      });
      c.exactlyOnce(load(c, 20, seed));
    }
  }

  // Reference: SINTRA §2.5 (the idle channel sends nothing; the figures of docs/async)
  @Test
  public void idleChannelSendsNothingAndCostsArePrinted() {
    for (int[] nf : new int[][] {{4, 1}, {7, 2}}) {
      int n = nf[0];
      Channel c = new Channel(n, nf[1], 1, Set.of());
      assertEquals("an idle group sends nothing", 0, c.net.run());
      int before = c.net.delivered();
      List<byte[]> sent = load(c, 40, 1);
      c.exactlyOnce(sent);
      int messages = c.net.delivered() - before;
      long rounds = c.agreed().size();
      assertTrue(rounds < sent.size());
      assertEquals("idle again", 0, c.net.run());
      System.out.printf("atomic broadcast n=%d: %d payloads in %d rounds, %d messages: %.1f messages and "
          + "%.2f rounds per payload%n", n, sent.size(), rounds, messages, (double) messages / sent.size(),
          (double) rounds / sent.size());
      for (int i = 0; i < n; i++) {
        // the next round's and the decided vectors' (abc/decided)
        assertEquals("instances left at " + i, 2, c.net.ctx(i).router().instances());
        assertEquals("messages dropped at " + i, 0, c.net.ctx(i).router().dropped());
        assertEquals("messages buffered at " + i, 0, c.net.ctx(i).router().buffered());
      }
    }
  }

  /**
   * A party that decided a round's vector without holding it may find the round closed at its peers; they
   * answer its FETCH_DECIDED from the decided vectors they keep, only for the digest they decided.
   */
  // Reference: SINTRA §2.4, §2.5; CKPS 2001 §5 (a decided value named by digest must stay retrievable)
  @Test
  public void decidedVectorOfAClosedRoundIsAnsweredByDigest() {
    Channel c = new Channel(4, 1, 3, Set.of(3));
    for (int i = 0; i < 3; i++) {
      c.send(i, payload(0, 1));
    }
    c.net.run();
    AtomicBroadcast.Delivery round1 = c.agreed().get(0);
    Pid decided = ABC.child("decided");
    byte[] ask = new ByteWriter(48).i64(1).bytes(round1.digest()).toBytes();
    byte[] wrong = new ByteWriter(48).i64(1).bytes(new byte[32]).toBytes();
    c.net.post(3, 0, c.net.forge(3, decided, AtomicBroadcast.Type.FETCH_DECIDED.code(), ask));
    c.net.post(3, 1, c.net.forge(3, decided, AtomicBroadcast.Type.FETCH_DECIDED.code(), wrong));
    c.net.run();
    List<AsyncNet.Seen> answers = c.net.transcript(0).stream()
        .filter(x -> x.sent() && x.peer() == 3 && x.message().type() == AtomicBroadcast.Type.DECIDED.code()).toList();
    assertEquals(1, answers.size());
    ByteReader r = new ByteReader(answers.get(0).message().payload());
    assertEquals(1, r.i64());
    assertArrayEquals(round1.digest(), org.bftws.core.crypto.Digests.sha256(r.bytes()));
    assertTrue(c.net.transcript(1).stream().noneMatch(x -> x.sent() && x.peer() == 3
        && x.message().type() == AtomicBroadcast.Type.DECIDED.code()));
  }

  private static byte[] signedName(long round, byte[] batch) {
    return ABC.bind(AtomicBroadcast.BATCH, new ByteWriter(48).i64(round)
        .raw(org.bftws.core.crypto.Digests.sha256(batch)).toBytes());
  }

  private static byte[] proposal(byte[] batch, byte[] sig) {
    return new ByteWriter(batch.length + 80).bytes(batch).bytes(sig).toBytes();
  }
}
