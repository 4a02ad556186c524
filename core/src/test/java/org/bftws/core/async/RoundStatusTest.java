package org.bftws.core.async;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.bftws.core.codec.ByteWriter;
import org.bftws.core.message.Kind;
import org.bftws.core.message.Signed;
import org.junit.Test;

/**
 * The status asks of an idle group ({@link RoundStatus}) from a faulty peer's side: what an ask makes a
 * replica send is bounded by the budget its answers to laggards have (SINTRA §2: up to f parties send what
 * they like, and an answer is many envelopes where an ask is one).
 */
public class RoundStatusTest {
  private static final List<Integer> ALL4 = List.of(0, 1, 2, 3);

  /** Replica 0 is faulty (no engine); the others delivered rounds 1..3 and went idle. */
  private static AsyncCluster idleGroup(long seed) {
    AsyncCluster c = new AsyncCluster(4, 1, 2, seed, Set.of(0), 4);
    for (int k = 0; k < 3; k++) {
      c.request(k % c.clients, ALL4);
      c.run();
    }
    assertEquals(3, c.replica(1).deliveredRound());
    return c;
  }

  private static byte[] ask(AsyncCluster c, long round) {
    AsyncMessage m = new AsyncMessage(RoundStatus.PID, RoundStatus.Type.ASK.code(), new ByteWriter(8).i64(round)
        .toBytes());
    return Signed.sign(Kind.ASYNC, 0, m.encode(), c.signer(0)).encode();
  }

  /** An envelope of the channel's rounds ({@code abc/r...}), as answers to a peer that is behind are. */
  private static boolean ofARound(Signed s) {
    return s.kind() == Kind.ASYNC && AsyncReplica.roundOf(AsyncMessage.decode(s.body()).pid()) > 0;
  }

  // Reference: SINTRA §2 (a corrupted party sends what it likes): a flood of status asks for round 1, with
  // resent copies of a round-2 envelope (a laggard's), gets replica 1's round-2 messages once per interval
  @Test
  public void aFloodOfAsksGetsOneAnswerPerRoundAndInterval() {
    for (long seed = 0; seed < 3; seed++) {
      AsyncCluster c = idleGroup(seed);
      int[] answered = new int[1];
      c.watch((from, s) -> answered[0] += from == 1 && ofARound(s) ? 1 : 0);
      c.post(0, 1, ask(c, 1));
      c.run();
      int oneAnswer = answered[0];
      assertTrue("round 2's messages, seed " + seed, oneAnswer > 0);

      c.tickAndRun(AsyncCluster.RETRANSMIT_TICKS); // a new interval
      answered[0] = 0;
      AsyncMessage late = new AsyncMessage(AsyncReplica.CHANNEL.child(2).child("mvba"),
          MultiValuedAgreement.Type.VOTE.code(), new byte[12]);
      byte[] lateCopy = Signed.sign(Kind.ASYNC, 0, late.encode(), c.signer(0)).encode();
      for (int k = 0; k < 100; k++) {
        c.post(0, 1, ask(c, 1));
        c.post(0, 1, lateCopy);
      }
      c.run();
      assertEquals("one answer in the interval, seed " + seed, oneAnswer, answered[0]);
    }
  }

  // Reference: Castro-Liskov TOCS 2002 §5.2 (a status message says where the replica is): an ask carries the
  // last round delivered and nothing else, so a replica's repeated asks from one round are the same bytes
  @Test
  public void anAskSaysOnlyTheRoundDelivered() {
    AsyncCluster c = idleGroup(4);
    List<Signed> asks = new ArrayList<>();
    c.watch((from, s) -> {
      if (from == 1 && AsyncJournalTest.isStatusAsk(s)) {
        asks.add(s);
      }
    });
    c.tickAndRun((AsyncReplica.STATUS_ASKS + 2) * AsyncCluster.RETRANSMIT_TICKS);
    assertEquals("one ask to each of 3 peers per stalled interval, three times", 3 * AsyncReplica.STATUS_ASKS,
        asks.size());
    for (Signed s : asks) {
      assertArrayEquals(new ByteWriter(8).i64(3).toBytes(), AsyncMessage.decode(s.body()).payload());
    }
  }
}
