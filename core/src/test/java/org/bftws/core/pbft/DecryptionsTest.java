package org.bftws.core.pbft;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.bftws.core.config.GroupConfig;
import org.bftws.core.crypto.threshold.Dealt;
import org.bftws.core.crypto.threshold.SchemeId;
import org.bftws.core.crypto.threshold.SignatureShare;
import org.bftws.core.crypto.threshold.Tdh2;
import org.bftws.core.crypto.threshold.Tdh2Ciphertext;
import org.bftws.core.crypto.threshold.Tdh2Tampering;
import org.bftws.core.crypto.threshold.ThresholdParams;
import org.bftws.core.engine.Effect;
import org.bftws.core.engine.Event;
import org.bftws.core.message.CoinShare;
import org.bftws.core.message.DecryptionShares;
import org.bftws.core.message.Kind;
import org.bftws.core.message.Request;
import org.bftws.core.message.Signed;
import org.bftws.core.replication.ConfidentialConfig;
import org.bftws.core.replication.ConfidentialOperations;
import org.bftws.core.testkit.EngineHarness;
import org.bftws.core.testkit.TestRandom;
import org.junit.Test;

/**
 * Secure causal atomic broadcast (SINTRA §2.6) on PBFT, four replicas (f = 1, k = 2): confidential requests
 * are ordered as TDH2 ciphertexts and executed as plaintext once k decryption shares combined; bad shares,
 * invalid ciphertexts ordered by a Byzantine primary, and a replica that lags.
 */
public class DecryptionsTest {
  private static final Tdh2 TDH2 = new Tdh2();
  private static final String SEALED = "urn:uuid:sealed-client";
  /** The requests of the sealed client's sequence are confidential, their whole operation the ciphertext. */
  private static final ConfidentialOperations OPS = ConfidentialOperations.wholeOperation(
      r -> r.sequenceId().equals(SEALED));
  private static final Dealt KEYS = TDH2.deal(ThresholdParams.forF(1), TestRandom.seeded(3));

  private Cluster g;
  private long number;

  /** Four replicas; those in {@code without} are not told of confidential requests (a Byzantine one). */
  private Cluster group(int... without) {
    g = new Cluster(GroupConfig.builder().build(), Cluster.Randomness.NONE);
    g.confidential = new ConfidentialConfig[g.n];
    for (int i = 0; i < g.n; i++) {
      g.confidential[i] = new ConfidentialConfig(KEYS.group(), KEYS.share(i + 1), Cluster.GROUP_ID, OPS);
    }
    for (int i : without) {
      g.confidential[i] = null;
    }
    for (int i = 0; i < g.n; i++) {
      g.restart(i);
    }
    return g;
  }

  /** The sealed client's next request: {@code plaintext} encrypted under the group key with its own label. */
  private Signed sealed(String plaintext) {
    number++;
    return sign(number, ciphertext(number, plaintext).encode());
  }

  private Tdh2Ciphertext ciphertext(long messageNumber, String plaintext) {
    return Tdh2Ciphertext.decode(ConfidentialConfig.seal(KEYS.group(), Cluster.GROUP_ID, SEALED, messageNumber,
        plaintext.getBytes(StandardCharsets.UTF_8), TestRandom.seeded(1000 + messageNumber)));
  }

  private Signed sign(long messageNumber, byte[] operation) {
    Request q = new Request(g.rawClient(), SEALED, messageNumber, false, operation);
    return Signed.sign(Kind.REQUEST, g.rawClient(), q.encode(), g.signers.get(g.rawClient()));
  }

  private void send(Signed request) {
    g.toReplicas(request, 0, 1, 2, 3);
    g.deliverAll();
  }

  private static boolean isShare(EngineHarness.Msg m) {
    return Cluster.kind(m) == Kind.DECRYPTION_SHARE;
  }

  @Test
  public void orderedAsCiphertextExecutedAsPlaintext() {
    group();
    send(sealed("bid 100 for lot 7"));
    for (int i = 0; i < 4; i++) {
      assertEquals(List.of("bid 100 for lot 7"), g.operations(i));
      Event.Committed c = g.eventsOf(i, Event.Committed.class).get(0);
      String ordered = new String(Request.decode(c.batch().get(0).body()).operation(), StandardCharsets.ISO_8859_1);
      assertFalse("the order carries the ciphertext only", ordered.contains("bid 100"));
    }
    assertEquals(12, g.sentOfKind(Kind.DECRYPTION_SHARE)); // one message per replica to each other replica
  }

  // SINTRA §2.6: the cleartext is delivered only after a quorum of decryption shares, and in order.
  @Test
  public void executionWaitsForKDecryptionSharesAndKeepsTheOrder() {
    group();
    g.hold = DecryptionsTest::isShare;
    send(sealed("bid 1"));
    send(g.request("plain-after", false));
    for (int i = 0; i < 4; i++) {
      assertEquals("replica " + i + " executed before opening", List.of(), g.operations(i));
      assertEquals(1, g.replicas[i].decryptions.missing(1));
    }
    g.hold = m -> false;
    g.release(m -> true);
    for (int i = 0; i < 4; i++) {
      assertEquals(List.of("bid 1", "plain-after"), g.operations(i));
      assertEquals(0, g.replicas[i].decryptions.missing(1));
    }
  }

  // A Byzantine replica's decryption share fails its proof against the group's verification key: named, dropped.
  @Test
  public void badDecryptionSharesAreNamedAndTheOthersOpen() {
    group();
    g.hold = m -> isShare(m) && m.from() != 0;
    Signed bid = sealed("bid 2");
    send(bid);
    Tdh2Ciphertext ct = Tdh2Ciphertext.decode(Request.decode(bid.body()).operation());
    g.hold = m -> isShare(m) && (m.from() == 1 || m.from() == 2);
    for (EngineHarness.Msg m : new ArrayList<>(g.held)) {
      if (m.from() == 3) {
        g.inject(3, m.to(), forged(m, ct));
      }
    }
    g.held.removeIf(m -> m.from() == 3);
    g.deliverAll();
    assertTrue(g.evidenceAt(0, 3, "invalid decryption share"));
    assertEquals("replica 0 waits for a valid second share", List.of(), g.operations(0));
    g.hold = m -> false;
    g.release(m -> true);
    for (int i = 0; i < 3; i++) {
      assertEquals(List.of("bid 2"), g.operations(i));
    }
  }

  /** Replica 3's DECRYPTION-SHARE with replica 1's share value under replica 3's index and proof, re-signed. */
  private byte[] forged(EngineHarness.Msg m, Tdh2Ciphertext ct) {
    DecryptionShares real = DecryptionShares.decode(Signed.decode(m.bytes()).body());
    List<CoinShare.Entry> entries = new ArrayList<>();
    for (CoinShare.Entry e : real.shares()) {
      SignatureShare mine = SignatureShare.decode(e.share());
      SignatureShare other = share(1, ct);
      entries.add(new CoinShare.Entry(e.request(),
          new SignatureShare(SchemeId.TDH2, mine.index(), other.value(), mine.proof()).encode()));
    }
    return Signed.sign(Kind.DECRYPTION_SHARE, 3, new DecryptionShares(real.seq(), real.digest(), entries).encode(),
        g.signers.get(3)).encode();
  }

  private static SignatureShare share(int index, Tdh2Ciphertext ct) {
    try {
      return TDH2.share(KEYS.group(), KEYS.share(index), ct);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  // A Byzantine primary (replica 0, which checks nothing) orders invalid ciphertexts: the correct replicas find
  // every one invalid alike, execute none, and go on with the next request.
  @Test
  public void invalidCiphertextsOrderedByAByzantinePrimaryNeitherExecuteNorBlock() {
    group(0);
    send(sealed("bid A"));
    Tdh2Ciphertext a = ciphertext(1, "bid A");
    byte[] tampered = ciphertext(3, "bid A").encode();
    tampered[tampered.length - 1] ^= 1;
    Tdh2Ciphertext otherKey = TDH2.encrypt(TDH2.deal(ThresholdParams.forF(1), TestRandom.seeded(4)).group(),
        ConfidentialConfig.label(Cluster.GROUP_ID, SEALED, 5), new byte[] {1}, TestRandom.seeded(5));
    send(sign(2, a.encode())); // replayed under another message number: labelled for request 1
    send(sign(3, tampered)); // payload changed: the validity proof fails
    send(sign(4, "not a ciphertext".getBytes(StandardCharsets.US_ASCII)));
    send(sign(5, otherKey.encode())); // a valid proof over a payload that no share of this group opens
    number = 5;
    send(sealed("bid B"));
    List<Effect.Execute> reference = g.executed.get(1);
    for (int i = 1; i < 4; i++) {
      assertEquals("replica " + i, List.of("bid A", "bid B"), g.operations(i));
      assertEquals(reference.size(), g.executed.get(i).size());
      for (int b = 0; b < reference.size(); b++) {
        assertEquals(reference.get(b).seq(), g.executed.get(i).get(b).seq());
      }
      assertTrue(g.evidenceAt(i, g.rawClient(), "labelled for another request"));
      assertTrue(g.evidenceAt(i, g.rawClient(), "validity proof"));
      assertTrue(g.evidenceAt(i, g.rawClient(), "malformed ciphertext"));
      assertTrue(g.evidenceAt(i, g.rawClient(), "does not open"));
    }
    assertEquals("the invalid ones were ordered", 6, g.eventsOf(1, Event.Committed.class).size());
  }

  // A correct primary refuses an invalid ciphertext outright: it is never ordered.
  @Test
  public void correctReplicasRefuseARelabelledCiphertextBeforeOrdering() {
    group();
    send(sealed("bid C"));
    byte[] moved = ConfidentialConfig.label(Cluster.GROUP_ID, SEALED, 2);
    send(sign(2, Tdh2Tampering.relabelled(ciphertext(1, "bid C"), moved).encode()));
    for (int i = 0; i < 4; i++) {
      assertEquals(List.of("bid C"), g.operations(i));
      assertEquals(1, g.eventsOf(i, Event.Committed.class).size());
      assertTrue(g.evidenceAt(i, g.rawClient(), "validity proof"));
    }
  }

  // A replica cut off while a confidential request executes elsewhere catches up: the order, then the shares.
  @Test
  public void laggingReplicaOpensWhatTheOthersOpened() {
    group();
    g.isolate(3);
    send(sealed("bid D"));
    for (int i = 0; i < 3; i++) {
      assertEquals(List.of("bid D"), g.operations(i));
    }
    assertEquals(List.of(), g.operations(3));
    g.heal(3);
    send(sealed("bid E"));
    g.tickUntil(c -> c.operations(3).size() == 2, 500);
    assertEquals(List.of("bid D", "bid E"), g.operations(3));
    for (int i = 0; i < 3; i++) {
      assertEquals(List.of("bid D", "bid E"), g.operations(i));
    }
  }

  // Shares that arrive before the batch commits here are kept and used once it does, without a retransmission.
  @Test
  public void sharesArrivingBeforeTheCommitAreKept() {
    group();
    g.hold = m -> m.to() == 3 && Cluster.kind(m) == Kind.COMMIT;
    send(sealed("bid G"));
    assertEquals(List.of(), g.operations(3));
    assertTrue("replica 3 has the others' shares already",
        g.sent.stream().anyMatch(m -> m.to() == 3 && isShare(m)));
    g.hold = m -> false;
    g.release(m -> true);
    assertEquals(List.of("bid G"), g.operations(3));
  }

  // A Byzantine replica's share message that does not match the batch's valid ciphertexts is evidence, and the
  // sender counts for nothing at that seq.
  @Test
  public void sharesForTheWrongRequestsAreEvidence() {
    group();
    g.hold = m -> isShare(m) && m.from() == 3;
    send(sealed("bid H"));
    for (EngineHarness.Msg m : new ArrayList<>(g.held)) {
      DecryptionShares real = DecryptionShares.decode(Signed.decode(m.bytes()).body());
      List<CoinShare.Entry> wrong = List.of(new CoinShare.Entry(5, real.shares().get(0).share()));
      g.inject(3, m.to(), Signed.sign(Kind.DECRYPTION_SHARE, 3,
          new DecryptionShares(real.seq(), real.digest(), wrong).encode(), g.signers.get(3)).encode());
    }
    g.held.clear();
    g.hold = m -> false;
    g.deliverAll();
    for (int i = 0; i < 3; i++) {
      assertEquals(List.of("bid H"), g.operations(i));
      assertTrue(g.evidenceAt(i, 3, "do not cover its valid confidential requests"));
    }
  }

  // Lossy links: decryption shares lost at random are resent by the stalled replicas (and answered) until
  // every replica opened every request, in one order.
  @Test
  public void lostSharesAreResentUntilEveryReplicaOpens() {
    for (long seed = 1; seed <= 5; seed++) {
      group();
      number = 0;
      java.util.Random rng = new java.util.Random(seed);
      g.drop = m -> isShare(m) && rng.nextInt(3) > 0;
      List<String> bids = new ArrayList<>();
      for (int k = 0; k < 4; k++) {
        bids.add("bid " + seed + "/" + k);
        send(sealed(bids.get(k)));
      }
      g.drop = m -> isShare(m) && rng.nextInt(4) == 0;
      // a replica whose view-change timer fired while it waited for shares gets them all the same
      g.tickUntil(c -> java.util.stream.IntStream.range(0, 4).allMatch(i -> c.operations(i).size() == 4), 2000);
      for (int i = 0; i < 4; i++) {
        assertEquals("seed " + seed + ", replica " + i, bids, g.operations(i));
      }
    }
  }

  @Test
  public void sealedAndPlainRequestsInterleaveInOneOrder() {
    group();
    g.hold = m -> Cluster.kind(m) == Kind.PRE_PREPARE;
    send(g.request("plain-1", false));
    g.hold = m -> false;
    send(sealed("bid F"));
    send(g.request("plain-2", false));
    g.release(m -> true);
    List<String> first = g.operations(0);
    assertEquals(3, first.size());
    assertTrue(first.contains("bid F"));
    for (int i = 1; i < 4; i++) {
      assertEquals(first, g.operations(i));
    }
    assertNotEquals(0, g.sentOfKind(Kind.DECRYPTION_SHARE));
  }
}
