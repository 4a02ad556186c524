package org.bftws.core.async;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import org.bftws.core.message.CoinShare;
import org.bftws.core.message.Kind;
import org.bftws.core.message.Request;
import org.bftws.core.message.RequestId;
import org.bftws.core.message.Signed;
import org.junit.Test;

/** Random numbers of randomized requests on the asynchronous engine: the CT algorithm (integrity paper §5). */
public class AsyncCoinsTest {
  /**
   * Rounds of requests, every other one randomized: one request at a time, then bursts of one per client
   * (a round with several randomized requests).
   */
  private static List<RequestId> mixedLoad(AsyncCluster c, List<Integer> to) {
    List<RequestId> sent = new ArrayList<>();
    for (int k = 0; k < 6; k++) {
      sent.add(Request.decode(c.request(k % c.clients, to, k % 2 == 0).body()).id());
      c.run();
    }
    for (int burst = 0; burst < 2; burst++) {
      for (int client = 0; client < c.clients; client++) {
        sent.add(Request.decode(c.request(client, to, client % 2 == burst % 2).body()).id());
      }
      c.run();
    }
    return sent;
  }

  /** Every correct replica executed {@code sent} in one order with the same random numbers, non-empty iff randomized. */
  private static void sameRandomsEverywhere(AsyncCluster c, List<RequestId> sent) {
    int first = c.correct(0) ? 0 : 1;
    List<Request> order = c.executed.get(first);
    assertEquals("every request once, seed " + c.seed, new HashSet<>(sent),
        new HashSet<>(order.stream().map(Request::id).toList()));
    Set<String> distinct = new HashSet<>();
    for (int k = 0; k < order.size(); k++) {
      byte[] random = c.randoms.get(first).get(k);
      assertEquals("random of " + order.get(k).id() + ", seed " + c.seed, order.get(k).randomized() ? 32 : 0,
          random.length);
      if (random.length > 0) {
        assertTrue("a fresh number per request", distinct.add(HexFormat.of().formatHex(random)));
      }
    }
    for (int i = 0; i < c.n; i++) {
      if (!c.correct(i)) {
        continue;
      }
      assertEquals("order at " + i + ", seed " + c.seed, order.stream().map(Request::id).toList(),
          c.executed.get(i).stream().map(Request::id).toList());
      for (int k = 0; k < order.size(); k++) {
        assertArrayEquals("random at " + i + " of " + order.get(k).id() + ", seed " + c.seed,
            c.randoms.get(first).get(k), c.randoms.get(i).get(k));
      }
    }
  }

  // Reference: integrity paper §5 (CT: shares released once the request's position is final, f+1 combine
  // to the one value of the coin), SINTRA §2.5 (a delivered round is final at every correct party)
  @Test
  public void randomizedRequestsGetTheSameNonEmptyRandomAtEveryCorrectReplica() {
    for (long seed = 0; seed < 4; seed++) {
      for (boolean perBatch : new boolean[] {false, true}) {
        AsyncCluster c = new AsyncCluster(4, 1, 3, seed, seed % 2 == 0 ? Set.of() : Set.of(2), 4, perBatch);
        List<RequestId> sent = mixedLoad(c, List.of(0, 1, 2, 3));
        sameRandomsEverywhere(c, sent);
        for (int i = 0; i < c.n; i++) {
          if (c.correct(i)) {
            assertTrue("no evidence at " + i + ": " + c.evidence.get(i), c.evidence.get(i).isEmpty());
            assertEquals("matching replies, seed " + seed, 3 + (c.correct(2) ? 1 : 0), c.matchingReplies(0, 1));
          }
        }
      }
    }
  }

  // Reference: integrity paper §5 (shares-combination step: a share that fails verification names its
  // sender), docs/design/cryptography.md (optimistic combination)
  @Test
  public void badCoinShareIsNamedAndTheCoinStillCombines() {
    for (long seed = 0; seed < 4; seed++) {
      AsyncCluster c = new AsyncCluster(4, 1, 2, seed, Set.of(3), 4);
      // correct replicas' shares arrive last: each combines its own with the Byzantine one first
      c.holdBack((from, to, s) -> s.kind() == Kind.COIN_SHARE && from != 3);
      boolean[] forged = new boolean[1];
      c.watch((from, s) -> {
        if (s.kind() != Kind.COIN_SHARE || forged[0]) {
          return;
        }
        forged[0] = true;
        CoinShare cs = CoinShare.decode(s.body());
        List<CoinShare.Entry> bad = new ArrayList<>();
        for (CoinShare.Entry e : cs.shares()) {
          byte[] wrong = ("not the coin of round " + cs.seq()).getBytes(StandardCharsets.US_ASCII);
          bad.add(new CoinShare.Entry(e.request(), c.coinShare(3, wrong).encode()));
        }
        byte[] body = new CoinShare(cs.seq(), cs.digest(), bad).encode();
        for (int to = 0; to < 3; to++) {
          c.post(3, to, Signed.sign(Kind.COIN_SHARE, 3, body, c.signer(3)).encode());
        }
      });
      List<RequestId> sent = new ArrayList<>();
      sent.add(Request.decode(c.request(0, List.of(0, 1, 2), true).body()).id());
      c.run();
      sameRandomsEverywhere(c, sent);
      for (int i = 0; i < 3; i++) {
        assertTrue("the bad share named at " + i + ": " + c.evidence.get(i) + ", seed " + seed,
            c.evidence.get(i).stream().anyMatch(e -> e.node() == 3 && e.what().contains("invalid coin share")));
        assertTrue("no one else named", c.evidence.get(i).stream().allMatch(e -> e.node() == 3));
      }
    }
  }
}
