package org.bftws.core.pbft;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.bftws.core.engine.CoinProof;
import org.bftws.core.config.GroupConfig;
import org.bftws.core.crypto.threshold.Dealt;
import org.bftws.core.crypto.threshold.GroupValue;
import org.bftws.core.crypto.threshold.SchemeId;
import org.bftws.core.crypto.threshold.SignatureShare;
import org.bftws.core.crypto.threshold.ThresholdParams;
import org.bftws.core.crypto.threshold.ThresholdScheme;
import org.bftws.core.crypto.threshold.Thresholds;
import org.bftws.core.engine.Effect;
import org.bftws.core.engine.Event;
import org.bftws.core.message.CoinShare;
import org.bftws.core.message.Kind;
import org.bftws.core.message.Signed;
import org.bftws.core.replication.CoinConfig;
import org.bftws.core.testkit.EngineHarness;
import org.bftws.core.testkit.TestRandom;
import org.junit.Test;

/**
 * C2: the CT algorithm inside the replica (integrity paper §5, §6), on four replicas (f = 1) connected by an
 * in-memory network that can hold back chosen messages — COIN-SHARE ones in particular.
 */
public class CoinsTest {
  private static final ThresholdScheme CKS = Thresholds.scheme(SchemeId.CKS);

  private static Cluster group(ThresholdParams params, boolean perBatch) {
    return new Cluster(GroupConfig.builder().set(GroupConfig.COIN_PER_BATCH, perBatch).build(),
        Cluster.Randomness.ct(CKS, params));
  }

  /** The COIN-SHARE that {@code from} sent to {@code to}, held back. */
  private static Signed heldShare(Cluster g, int from, int to) {
    for (EngineHarness.Msg m : g.held) {
      if (m.from() == from && m.to() == to && Cluster.kind(m) == Kind.COIN_SHARE) {
        return Signed.decode(m.bytes());
      }
    }
    throw new AssertionError("no coin share held from " + from + " to " + to);
  }

  /** The coin of (seq, request) combined from the last k shares: other shares than the replicas' first. */
  private static byte[] expectedCoin(Cluster g, long seq, byte[] requestBody) throws Exception {
    Dealt dealt = g.dealt;
    byte[] m = CoinConfig.requestCoinMessage(Cluster.GROUP_ID, seq, requestBody);
    List<SignatureShare> shares = new ArrayList<>();
    for (int i = dealt.group().params().n(); shares.size() < dealt.group().params().k(); i--) {
      shares.add(CKS.share(dealt.group(), dealt.share(i), m));
    }
    return CKS.coinValue(CKS.combine(dealt.group(), m, shares));
  }

  private static boolean isCoinShare(EngineHarness.Msg m) {
    return Cluster.kind(m) == Kind.COIN_SHARE;
  }

  private static Predicate<EngineHarness.Msg> coinShareTo(int to) {
    return m -> m.to() == to && isCoinShare(m);
  }

  private static Predicate<EngineHarness.Msg> coinShareFromTo(int from, int to) {
    return m -> m.from() == from && m.to() == to && isCoinShare(m);
  }

  // Reference: integrity paper §5 ("The random number will be delivered together with the request to the
  // application") and §6 C1: a batch with a randomized request waits for its coin, and so does every later one.
  @Test
  public void batchWithRandomizedRequestIsNotExecutedWithoutTheCoin() throws Exception {
    Cluster g = group(ThresholdParams.forF(1), false);
    g.hold = CoinsTest::isCoinShare;
    byte[] randomized = g.submit(true);
    byte[] plain = g.submit(false);
    for (int i = 0; i < 4; i++) {
      assertEquals("replica " + i + " executed without the coin", 0, g.executed.get(i).size());
      assertEquals(1, g.replicas[i].coins.missing(1));
      assertEquals(-1, g.replicas[i].coins.missing(2)); // seq 2 needs no coin, but waits behind seq 1
    }
    g.hold = m -> false;
    g.release(m -> true);
    byte[] coin = expectedCoin(g, 1, randomized);
    for (int i = 0; i < 4; i++) {
      List<Effect.Execute> ex = g.executed.get(i);
      assertEquals(2, ex.size());
      assertEquals(1, ex.get(0).seq());
      assertArrayEquals("replica " + i, coin, ex.get(0).randoms().get(0));
      assertEquals(2, ex.get(1).seq());
      assertArrayEquals(plain, ex.get(1).requests().get(0).encode());
      assertEquals(0, ex.get(1).randoms().get(0).length);
      assertTrue(g.eventsOf(i, Event.Evidence.class).isEmpty());
    }
  }

  // Reference: docs/design/cryptography.md (threshold BLS values are publicly verifiable): with BLS each
  // executed randomized request carries the combined value, the group's signature on the coin message,
  // whose SHA-256 is its random number; a request that is not randomized carries none.
  @Test
  public void blsCoinValuesAreTheGroupSignatureOnTheCoinMessage() throws Exception {
    ThresholdScheme bls = Thresholds.scheme(SchemeId.BLS);
    Cluster g = new Cluster(GroupConfig.builder().build(), Cluster.Randomness.ct(bls, ThresholdParams.forF(1)));
    byte[] randomized = g.submit(true);
    g.submit(false);
    byte[] message = CoinConfig.requestCoinMessage(Cluster.GROUP_ID, 1, randomized);
    for (int i = 0; i < 4; i++) {
      List<Effect.Execute> ex = g.executed.get(i);
      assertEquals(2, ex.size());
      CoinProof proof = ex.get(0).coins().get(0);
      assertArrayEquals(message, proof.message());
      GroupValue v = proof.value();
      assertTrue("replica " + i, bls.verifyCombined(g.dealt.group(), message, v));
      assertArrayEquals(bls.coinValue(v), ex.get(0).randoms().get(0));
      assertFalse(bls.verifyCombined(g.dealt.group(), CoinConfig.requestCoinMessage(Cluster.GROUP_ID, 2, randomized), v));
      assertFalse(ex.get(1).coins().get(0).present());
    }
  }

  // Reference: integrity paper §5 ("combining k threshold signature shares"), docs/design/cryptography.md pitfall 1: with
  // k = 2f+1 = 3, our own share and one peer's (k-1) never give a random number; the k-th does.
  @Test
  public void kMinusOneSharesNeverProduceARandomNumber() throws Exception {
    Cluster g = group(new ThresholdParams(4, 3, 1), false);
    g.hold = coinShareTo(1);
    byte[] body = g.submit(true);
    assertEquals(0, g.executed.get(1).size());
    assertEquals(1, g.replicas[1].coins.missing(1));
    Signed from2 = heldShare(g, 2, 1);
    g.release(coinShareFromTo(2, 1));
    assertEquals("k-1 = 2 shares (own + replica 2) gave a random number", 0, g.executed.get(1).size());
    assertEquals(1, g.replicas[1].coins.missing(1));
    g.deliver(1, from2.encode()); // a duplicate is not a second share
    g.deliverAll();
    assertEquals(0, g.executed.get(1).size());
    g.release(coinShareFromTo(3, 1));
    assertEquals(1, g.executed.get(1).size());
    assertArrayEquals(expectedCoin(g, 1, body), g.executed.get(1).get(0).randoms().get(0));
  }

  // Reference: integrity paper §6 C2 with a Byzantine replica, docs/design/cryptography.md pitfall 9: the optimistic
  // combination fails on a bad share, names its sender in evidence and goes on without it.
  @Test
  public void byzantineShareIsDetectedAndItsSenderNamedInEvidence() throws Exception {
    Cluster g = group(ThresholdParams.forF(1), false);
    g.hold = coinShareTo(1);
    byte[] body = g.submit(true);
    // Replica 3 sends a share made with its own key share but on another message: well-formed, index 4.
    SignatureShare bad = CKS.share(g.dealt.group(), g.dealt.share(4),
        CoinConfig.requestCoinMessage(Cluster.GROUP_ID, 2, body));
    Signed real = heldShare(g, 3, 1);
    CoinShare cs = CoinShare.decode(real.body());
    Signed forged = Signed.sign(Kind.COIN_SHARE, 3, new CoinShare(cs.seq(), cs.digest(),
        List.of(new CoinShare.Entry(cs.shares().get(0).request(), bad.encode()))).encode(), g.signers.get(3));
    g.handle(1, g.replicas[1].receive(forged.encode()));
    assertEquals("own share + a bad one must not execute", 0, g.executed.get(1).size());
    assertTrue(g.evidenceAt(1, 3, "invalid coin share"));
    // Its correct share, sent later, is no longer taken: the sender was caught at this seq.
    g.handle(1, g.replicas[1].receive(real.encode()));
    assertEquals(0, g.executed.get(1).size());
    g.release(coinShareFromTo(2, 1));
    assertEquals(1, g.executed.get(1).size());
    assertArrayEquals(expectedCoin(g, 1, body), g.executed.get(1).get(0).randoms().get(0));
  }

  // Reference: integrity paper §5 (the share signs d||n, no view) and docs/design/cryptography.md pitfall 6: a batch that
  // committed keeps its coin across a view change — the shares resent in the new view are the same bytes,
  // and those sent in the old view still count.
  @Test
  public void sharesSurviveAViewChange() throws Exception {
    Cluster g = group(ThresholdParams.forF(1), false);
    g.hold = CoinsTest::isCoinShare;
    byte[] body = g.submit(true);
    g.tickUntil(x -> allInView(x, 1), 2000);
    for (int i = 0; i < 4; i++) {
      assertEquals(0, g.executed.get(i).size());
    }
    List<byte[]> from2 = new ArrayList<>();
    for (EngineHarness.Msg m : g.held) {
      if (m.from() == 2 && isCoinShare(m)) {
        from2.add(Signed.decode(m.bytes()).body());
      }
    }
    assertTrue("replica 2 sent its shares again after the view change", from2.size() >= 2);
    for (byte[] b : from2) {
      assertArrayEquals(from2.get(0), b);
    }
    g.hold = m -> false;
    g.release(m -> true);
    byte[] coin = expectedCoin(g, 1, body);
    for (int i = 0; i < 4; i++) {
      assertEquals(1, g.executed.get(i).size());
      assertArrayEquals(coin, g.executed.get(i).get(0).randoms().get(0));
    }
  }

  private static boolean allInView(Cluster g, long view) {
    for (Replica r : g.replicas) {
      if (r.view() < view || !r.isActive()) {
        return false;
      }
    }
    return true;
  }

  // Reference: Castro-Liskov §4.3 watermarks applied to the coin state: shares for sequence numbers at or
  // below the stable checkpoint or above the window are dropped, one early message per sender is kept.
  @Test
  public void coinStateIsBoundedByTheLogWindow() {
    Cluster g = group(ThresholdParams.forF(1), false);
    Replica r = g.replicas[1];
    int window = GroupConfig.defaults().logWindow();
    for (long seq : new long[] {0, window + 1, 1L << 40}) {
      CoinShare cs = new CoinShare(seq, new byte[32], List.of(new CoinShare.Entry(0, new byte[] {1})));
      g.handle(1, r.receive(Signed.sign(Kind.COIN_SHARE, 3, cs.encode(), g.signers.get(3)).encode()));
    }
    assertEquals(0, r.coins.size());
    for (int i = 0; i < 5; i++) {
      CoinShare cs = new CoinShare(window, new byte[32], List.of(new CoinShare.Entry(i, new byte[] {1})));
      g.handle(1, r.receive(Signed.sign(Kind.COIN_SHARE, 3, cs.encode(), g.signers.get(3)).encode()));
    }
    assertEquals(1, r.coins.size());
    assertEquals(-1, r.coins.missing(window)); // buffered until that batch commits here
  }

  // Reference: integrity paper §5 (replica i's share T(d||n, i)); SignatureShare: "the PBFT layer must
  // also check that the index is the authenticated sender's" — replaying another replica's share is evidence.
  @Test
  public void shareUnderAnotherReplicasIndexIsRejected() throws Exception {
    Cluster g = group(ThresholdParams.forF(1), false);
    g.hold = coinShareTo(1);
    g.submit(true);
    CoinShare of3 = CoinShare.decode(heldShare(g, 3, 1).body());
    Signed replayedBy2 = Signed.sign(Kind.COIN_SHARE, 2, of3.encode(), g.signers.get(2));
    g.handle(1, g.replicas[1].receive(replayedBy2.encode()));
    assertEquals(0, g.executed.get(1).size());
    assertTrue(g.evidenceAt(1, 2, "key index 4"));
  }

  // Reference: integrity paper §5 (the coin of d||n) with bftws.coinPerBatch: one coin per batch, each
  // randomized request gets SHA-256(coin, D(request)), and one share per replica per batch.
  @Test
  public void perBatchCoinGivesEachRandomizedRequestItsOwnNumber() throws Exception {
    Cluster g = group(ThresholdParams.forF(1), true);
    g.hold = CoinsTest::isCoinShare;
    byte[] body = g.submit(true);
    CoinShare cs = CoinShare.decode(heldShare(g, 0, 1).body());
    assertEquals(1, cs.shares().size());
    assertEquals(CoinShare.BATCH, cs.shares().get(0).request());
    g.hold = m -> false;
    g.release(m -> true);
    Effect.Execute ex = g.executed.get(2).get(0);
    byte[] m = CoinConfig.batchCoinMessage(Cluster.GROUP_ID, 1, ex.batchDigest());
    byte[] coin = CKS.coinValue(CKS.combine(g.dealt.group(), m,
        List.of(CKS.share(g.dealt.group(), g.dealt.share(3), m), CKS.share(g.dealt.group(), g.dealt.share(4), m))));
    assertArrayEquals(CoinConfig.perBatchRandom(coin, body), ex.randoms().get(0));
    assertFalse(java.util.Arrays.equals(coin, ex.randoms().get(0)));
  }

  // Reference: integrity paper §5 (l = 3f+1 players, replica i holds share i): misconfiguration is an error.
  @Test
  public void replicaRefusesAKeyShareOfAnotherIndex() {
    Dealt d = CKS.deal(ThresholdParams.forF(1), TestRandom.seeded(3));
    try {
      Replica.builder(GroupConfig.defaults(), 0, data -> new byte[64], (n, data, sig) -> true).role(Role.BOTH)
          .coins(new CoinConfig(CKS, d.group(), d.share(2), Cluster.GROUP_ID)).build();
      fail("replica 0 accepted key share 2");
    } catch (IllegalArgumentException expected) {
      assertTrue(expected.getMessage().contains("key share 1"));
    }
  }
}
