package org.bftws.core.pbft;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.bftws.core.config.GroupConfig;
import org.bftws.core.crypto.threshold.Dealt;
import org.bftws.core.crypto.threshold.SchemeId;
import org.bftws.core.crypto.threshold.SignatureShare;
import org.bftws.core.crypto.threshold.Tdh2;
import org.bftws.core.crypto.threshold.ThresholdParams;
import org.bftws.core.crypto.threshold.ThresholdScheme;
import org.bftws.core.crypto.threshold.Thresholds;
import org.bftws.core.engine.Effect;
import org.bftws.core.engine.Event;
import org.bftws.core.engine.KeySet;
import org.bftws.core.message.Kind;
import org.bftws.core.message.Request;
import org.bftws.core.message.Signed;
import org.bftws.core.replication.CoinConfig;
import org.bftws.core.replication.ConfidentialConfig;
import org.bftws.core.replication.ConfidentialOperations;
import org.bftws.core.testkit.TestRandom;
import org.junit.Test;

/**
 * Threshold keys installed while the group runs ({@link Replica#installKeys}, {@code replication.KeyEpochs}): a
 * distributed key generation's outcome or a proactive refresh (Herzberg-Jarecki-Krawczyk-Yung, CRYPTO 1995,
 * §3) serves every request ordered above the seq whose execution delivered it, at every correct replica alike,
 * however far each replica's execution lags behind its commits; a replica that catches up by state transfer
 * across the switch tosses with the new keys too. Four replicas (f = 1, k = 2), CKS coins, TDH2.
 */
public class KeySwitchTest {
  private static final ThresholdScheme CKS = Thresholds.scheme(SchemeId.CKS);
  private static final Tdh2 TDH2 = new Tdh2();
  private static final ThresholdParams PARAMS = ThresholdParams.forF(1);
  private static final String SEALED = "urn:uuid:sealed-client";
  private static final ConfidentialOperations OPS = ConfidentialOperations.wholeOperation(
      r -> r.sequenceId().equals(SEALED));
  /** The operation whose execution delivers the new keys (as a key generation's last ordered message does). */
  private static final String KEYS_OP = "op-keys";

  private final Dealt tdh2 = TDH2.deal(PARAMS, TestRandom.seeded(3));
  private Cluster g;
  private long sealedNumber;

  /** Four replicas with changing keys; executing {@link #KEYS_OP} installs {@code coins}' shares and the TDH2 keys. */
  private Cluster group(Dealt coins, boolean dealtFirst, int checkpointInterval) {
    g = new Cluster(GroupConfig.builder().set(GroupConfig.CHECKPOINT_INTERVAL, checkpointInterval)
        .set(GroupConfig.LOG_WINDOW, 2 * checkpointInterval).build(), Cluster.Randomness.ct(CKS, PARAMS));
    g.changingKeys(OPS, dealtFirst);
    g.installs = (i, ex) -> executes(ex, KEYS_OP) ? keysOf(coins, i) : null;
    return g;
  }

  private KeySet keysOf(Dealt coins, int i) {
    return new KeySet(new CoinConfig(CKS, coins.group(), coins.share(i + 1), Cluster.GROUP_ID),
        new ConfidentialConfig(tdh2.group(), tdh2.share(i + 1), Cluster.GROUP_ID, OPS));
  }

  private static boolean executes(Effect.Execute ex, String op) {
    return ex.requests().stream().anyMatch(q -> new String(q.operation(), StandardCharsets.UTF_8).equals(op));
  }

  /** The raw client's request "op-N" ordered and executed everywhere; its body and the seq it was ordered at. */
  private record Ordered(byte[] body, long seq) {}

  private int count;

  private Ordered submit(boolean randomized) {
    return submit("op-" + ++count, randomized);
  }

  private Ordered submit(String op, boolean randomized) {
    Signed s = g.request(op, randomized);
    g.toReplicas(s, 0, 1, 2, 3);
    g.deliverAll();
    return new Ordered(s.body(), seqOf(g.down.contains(0) ? 1 : 0, s.body()));
  }

  private long seqOf(int replica, byte[] body) {
    for (Event.Committed c : g.eventsOf(replica, Event.Committed.class)) {
      for (Signed s : c.batch()) {
        if (java.util.Arrays.equals(s.body(), body)) {
          return c.seq();
        }
      }
    }
    throw new AssertionError("not committed at replica " + replica);
  }

  /** The coin of the request with {@code body} at seq under {@code keys}, from the shares of replicas n and n−1. */
  private static byte[] coin(Dealt keys, long seq, byte[] body) throws Exception {
    byte[] m = CoinConfig.requestCoinMessage(Cluster.GROUP_ID, seq, body);
    List<SignatureShare> shares = new ArrayList<>();
    shares.add(CKS.share(keys.group(), keys.share(4), m));
    shares.add(CKS.share(keys.group(), keys.share(3), m));
    return CKS.coinValue(CKS.combine(keys.group(), m, shares));
  }

  private static String op(byte[] body) {
    return new String(Request.decode(body).operation(), StandardCharsets.UTF_8);
  }

  private Signed sealed(String plaintext) {
    sealedNumber++;
    byte[] ct = ConfidentialConfig.seal(tdh2.group(), Cluster.GROUP_ID, SEALED, sealedNumber,
        plaintext.getBytes(StandardCharsets.UTF_8), TestRandom.seeded(1000 + sealedNumber));
    Request q = new Request(g.rawClient(), SEALED, sealedNumber, false, ct);
    return Signed.sign(Kind.REQUEST, g.rawClient(), q.encode(), g.signers.get(g.rawClient()));
  }

  @Test
  public void keysDeliveredAtSeqServeTheRequestsOrderedAfterItAndNoneBefore() throws Exception {
    Dealt generated = CKS.deal(PARAMS, TestRandom.seeded(21));
    group(generated, false, 4);
    Ordered before = submit(true);
    g.toReplicas(sealed("sealed before"), 0, 1, 2, 3);
    g.deliverAll();
    Ordered keys = submit(KEYS_OP, false);
    assertEquals(KEYS_OP, op(keys.body()));
    Ordered after = submit(true);
    g.toReplicas(sealed("sealed after"), 0, 1, 2, 3);
    g.deliverAll();
    assertTrue(after.seq() > keys.seq());
    byte[] expected = coin(generated, after.seq(), after.body());
    for (int i = 0; i < 4; i++) {
      assertArrayEquals("replica " + i + ": no keys served seq " + before.seq(), new byte[0],
          g.randomOf(i, op(before.body())));
      assertArrayEquals("replica " + i + ": the installed keys' coin", expected, g.randomOf(i, op(after.body())));
      List<String> ops = g.operations(i);
      assertTrue("replica " + i + " opened the request after the switch: " + ops, ops.contains("sealed after"));
      assertFalse("replica " + i + " opened a request ordered before any TDH2 key",
          ops.contains("sealed before"));
      assertEquals("the request before the switch executed sealed, alike everywhere", 5, ops.size());
      assertFalse(g.evidenceAt(i, -1, "share"));
    }
  }

  // HJKY §3: shares renewed at seq s; coins up to s combine the old shares, above s the new ones.
  @Test
  public void renewedKeysReplaceTheOldOnesAboveTheSwitchOnly() throws Exception {
    Dealt renewed = CKS.deal(PARAMS, TestRandom.seeded(22));
    group(renewed, true, 4);
    Ordered before = submit(true);
    Ordered keys = submit(KEYS_OP, false);
    Ordered after = submit(true);
    assertEquals(KEYS_OP, op(keys.body()));
    for (int i = 0; i < 4; i++) {
      assertArrayEquals(coin(g.dealt, before.seq(), before.body()), g.randomOf(i, op(before.body())));
      assertArrayEquals(coin(renewed, after.seq(), after.body()), g.randomOf(i, op(after.body())));
    }
  }

  // The pipeline: the batch above the switch is final at a slow replica before the switch executed there.
  @Test
  public void sharesOfABatchCommittedBeforeTheSwitchExecutedWaitForItsKeys() throws Exception {
    Dealt generated = CKS.deal(PARAMS, TestRandom.seeded(23));
    group(generated, false, 16);
    g.slow.add(2);
    Ordered keys = submit(KEYS_OP, false);
    Ordered after = submit(true);
    assertEquals(KEYS_OP, op(keys.body()));
    assertEquals("final at the slow replica", after.seq(), seqOf(2, after.body()));
    assertEquals("nothing executed there yet", List.of(), g.operations(2));
    g.slow.remove(2);
    g.performQueued(2);
    g.deliverAll();
    byte[] expected = coin(generated, after.seq(), after.body());
    for (int i = 0; i < 4; i++) {
      assertArrayEquals("replica " + i, expected, g.randomOf(i, op(after.body())));
      assertFalse("replica " + i + " took no share for bad", g.evidenceAt(i, -1, "coin share"));
    }
  }

  // A replica that was away during the switch catches up by state transfer to a checkpoint above it: with the
  // keys it got (as one whose share was recovered does), its shares serve the requests after it.
  @Test
  public void aReplicaCatchingUpByStateTransferAcrossTheSwitchTossesWithTheNewKeys() throws Exception {
    Dealt generated = CKS.deal(PARAMS, TestRandom.seeded(24));
    group(generated, false, 4);
    g.isolate(3);
    Ordered keys = submit(KEYS_OP, false);
    for (int k = 0; k < 9; k++) {
      submit(k % 2 == 0);
    }
    assertTrue(g.replicas[0].stableCheckpoint() >= 8);
    g.handle(3, g.replicas[3].installKeys(keys.seq(), keysOf(generated, 3)));
    g.heal(3);
    g.tickUntil(c -> !c.eventsOf(3, Event.StateInstalled.class).isEmpty(), 400);
    assertTrue(g.eventsOf(3, Event.StateInstalled.class).get(0).seq() > keys.seq());
    g.isolate(0); // the coin now needs replica 3's share: k = 2 of replicas 1, 2, 3 with one held back
    g.drop = m -> m.from() == 1 && Cluster.kind(m) == Kind.COIN_SHARE;
    Signed s = g.request("op-late", true);
    g.toReplicas(s, 1, 2, 3);
    g.deliverAll();
    byte[] body = s.body();
    g.tickUntil(c -> c.randomOf(3, op(body)) != null && c.randomOf(2, op(body)) != null, 2000);
    long seq = seqOf(3, body);
    byte[] expected = coin(generated, seq, body);
    assertArrayEquals(expected, g.randomOf(2, op(body)));
    assertArrayEquals(expected, g.randomOf(3, op(body)));
    assertFalse(g.evidenceAt(2, 3, "coin share"));
  }

  // A replica away during the switch commits the batch after a checkpoint above it before it installs that
  // checkpoint by state transfer (Castro-Liskov §4.3): the keys come with the checkpoint's state, installed by
  // the embedding after the step that installed the checkpoint, so that batch's shares wait for them.
  @Test
  public void aBatchCommittedBeforeTheCheckpointAboveTheSwitchIsInstalledWaitsForTheKeysItsStateDelivers()
      throws Exception {
    Dealt generated = CKS.deal(PARAMS, TestRandom.seeded(27));
    group(generated, false, 4);
    g.isolate(3);
    Ordered keys = submit(KEYS_OP, false);
    while (g.replicas[0].stableCheckpoint() == 0) {
      submit(false);
    }
    long checkpoint = g.replicas[0].stableCheckpoint();
    assertTrue(checkpoint >= keys.seq());
    g.stateDelivers = i -> i == 3 ? new Cluster.KeysAt(keys.seq(), keysOf(generated, 3)) : null;
    g.heal(3);
    Ordered after = submit(true);
    assertEquals("the batch right after the checkpoint", checkpoint + 1, after.seq());
    g.tickUntil(c -> c.randomOf(3, op(after.body())) != null, 2000);
    List<Event> seen = g.events.get(3);
    int committed = -1;
    int installed = -1;
    for (int j = 0; j < seen.size(); j++) {
      if (seen.get(j) instanceof Event.Committed c && c.seq() == after.seq() && committed < 0) {
        committed = j;
      } else if (seen.get(j) instanceof Event.StateInstalled si && si.seq() == checkpoint && installed < 0) {
        installed = j;
      }
    }
    assertTrue("committed at replica 3 (" + committed + ") before it installed the checkpoint (" + installed + ")",
        committed >= 0 && installed > committed);
    byte[] expected = coin(generated, after.seq(), after.body());
    assertArrayEquals("replica 0", expected, g.randomOf(0, op(after.body())));
    assertArrayEquals("replica 3 tossed with the keys its checkpoint delivered", expected,
        g.randomOf(3, op(after.body())));
    assertFalse(g.evidenceAt(0, 3, "coin share"));
  }

  @Test
  public void anEngineWithFixedKeysRefusesNewOnes() {
    Cluster fixed = new Cluster(GroupConfig.builder().build(), Cluster.Randomness.ct(CKS, PARAMS));
    Dealt other = CKS.deal(PARAMS, TestRandom.seeded(25));
    assertThrows(IllegalStateException.class, () -> fixed.replicas[0].installKeys(1,
        new KeySet(new CoinConfig(CKS, other.group(), other.share(1), Cluster.GROUP_ID), null)));
  }

  @Test
  public void keysForAnotherReplicasShareAreRefused() {
    Dealt generated = CKS.deal(PARAMS, TestRandom.seeded(26));
    group(generated, false, 4);
    assertThrows(IllegalArgumentException.class, () -> g.replicas[0].installKeys(1, keysOf(generated, 1)));
    assertNotNull(g.replicas[0]);
  }
}
