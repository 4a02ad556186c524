package org.bftws.core.dkg;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.bftws.core.crypto.threshold.DlGroup;
import org.bftws.core.crypto.threshold.GroupKey;
import org.bftws.core.crypto.threshold.SchemeId;
import org.bftws.core.crypto.threshold.ThresholdParams;
import org.bftws.core.dkg.DkgMessage.Complaints;
import org.bftws.core.dkg.DkgMessage.Dealing;
import org.bftws.core.dkg.DkgMessage.Justification;
import org.bftws.core.dkg.DkgMessage.Reveal;
import org.bftws.core.testkit.TestRandom;
import org.bouncycastle.math.ec.ECPoint;
import org.junit.Test;

/**
 * One test per step of the protocol, after Gennaro-Jarecki-Krawczyk-Rabin, "Secure distributed key generation
 * for discrete-log based cryptosystems" (J. Cryptology 2007), Fig. 2 ("GJKR" below), Herzberg-Jarecki-Krawczyk-
 * Yung, "Proactive secret sharing" (CRYPTO 1995) and Desmedt-Jajodia, "Redistributing secret shares to new
 * access structures" (1997). Replicas are stepped by hand in one agreed order (n = 4, f = 1, CKS on P-256).
 */
public class DkgStepsTest {
  private static final ThresholdParams P = ThresholdParams.forF(1);
  private static final DlGroup<ECPoint> G = DlGroup.p256();

  /** Four replicas stepped by hand: each message is delivered to all in the order the test chooses. */
  private static final class Group {
    final List<ShareCipher.KeyPair> keys = new ArrayList<>();
    final DkgConfig config;
    final List<Dkg<?>> replicas = new ArrayList<>();
    final List<List<DkgMessage>> sent = new ArrayList<>();
    final List<List<String>> faults = new ArrayList<>();
    final DkgResult[] results = new DkgResult[P.n() + 1];

    Group(long seed) {
      for (int i = 0; i < P.n(); i++) {
        keys.add(ShareCipher.generate(TestRandom.seeded(seed + i)));
      }
      config = new DkgConfig(DkgConfig.Mode.GENERATE, SchemeId.CKS, DkgNet.session(seed), P, P,
          keys.stream().map(ShareCipher.KeyPair::publicKey).toList(), null);
      for (int i = 1; i <= P.n(); i++) {
        replicas.add(Dkg.create(config, new Dkg.Member(i, i, keys.get(i - 1).secret(), null),
            TestRandom.seeded(seed * 100 + i)));
        sent.add(new ArrayList<>(replicas.get(i - 1).start().toOrder()));
        faults.add(new ArrayList<>());
      }
    }

    Dealing dealing(int i) {
      return (Dealing) sent.get(i - 1).get(0);
    }

    /** Delivers m to every replica (through the codec); returns what replica {@code watch} submits. */
    List<DkgMessage> deliver(DkgMessage m) {
      DkgMessage decoded = DkgMessage.decode(m.encode());
      for (int i = 1; i <= P.n(); i++) {
        Dkg.Step s = replicas.get(i - 1).deliver(decoded);
        sent.get(i - 1).addAll(s.toOrder());
        faults.get(i - 1).addAll(s.faults());
        if (s.output() != null) {
          results[i] = s.output();
        }
      }
      return List.of();
    }

    /** The last message of type {@code type} replica i submitted. */
    <T extends DkgMessage> T last(int i, Class<T> type) {
      List<DkgMessage> l = sent.get(i - 1);
      for (int x = l.size() - 1; x >= 0; x--) {
        if (type.isInstance(l.get(x))) {
          return type.cast(l.get(x));
        }
      }
      return null;
    }
  }

  private static Dealing corruptFor(Dealing d, int receiver) {
    List<byte[]> cts = new ArrayList<>(d.ciphertexts());
    byte[] ct = cts.get(receiver - 1).clone();
    ct[0] ^= 1;
    cts.set(receiver - 1, ct);
    return new Dealing(d.dealer(), d.commitments(), d.ephemeral(), cts);
  }

  /** GJKR Fig. 2 step 1(a) and equation (4): k commitments, n encrypted shares each verifying for its receiver. */
  @Test
  public void dealingCommitsToTwoPolynomialsAndEncryptsEachShareToItsReceiver() {
    Group g = new Group(1);
    Dealing d = g.dealing(1);
    assertEquals(P.k(), d.commitments().size());
    assertEquals(P.n(), d.ciphertexts().size());
    List<ECPoint> c = d.commitments().stream().map(b -> G.decode(b, "c")).toList();
    for (int j = 1; j <= P.n(); j++) {
      byte[] pt = ShareCipher.decrypt(g.config.session(), 1, j, g.keys.get(j - 1).secret(), d.ephemeral(),
          d.ciphertexts().get(j - 1));
      ECPoint lhs = Vss.commit(G, new BigInteger(1, java.util.Arrays.copyOf(pt, 32)),
          new BigInteger(1, java.util.Arrays.copyOfRange(pt, 32, 64)));
      assertEquals("share " + j + " verifies", lhs, Vss.evaluate(G, c, j));
      int other = j % P.n() + 1;
      byte[] wrongKey = ShareCipher.decrypt(g.config.session(), 1, j, g.keys.get(other - 1).secret(), d.ephemeral(),
          d.ciphertexts().get(j - 1));
      assertFalse("another receiver's key does not open share " + j, java.util.Arrays.equals(pt, wrongKey));
    }
  }

  /** GJKR step 1(b)–(c): a share that fails equation (4) is complained about, by its receiver only. */
  @Test
  public void receiverComplainsAboutAShareThatDoesNotVerify() {
    Group g = new Group(2);
    g.deliver(corruptFor(g.dealing(1), 2));
    g.deliver(g.dealing(2));
    g.deliver(g.dealing(3));
    assertEquals(List.of(1), g.last(2, Complaints.class).accused());
    for (int j : new int[] {1, 3, 4}) {
      assertEquals(List.of(), g.last(j, Complaints.class).accused());
    }
  }

  /**
   * Dealer 1's share to 2 and dealer 2's share to 3 are corrupted; dealings 1–3 and complaints 1–3 are ordered.
   * Only dealer 3 is unaccused, one short of the n − 2t = 2 qualified dealers that close the phase, so the
   * justifications decide.
   */
  private static Group accusedOneAndTwo(long seed) {
    Group g = new Group(seed);
    g.deliver(corruptFor(g.dealing(1), 2));
    g.deliver(corruptFor(g.dealing(2), 3));
    g.deliver(g.dealing(3));
    for (int j = 1; j <= 3; j++) {
      g.deliver(g.last(j, Complaints.class));
    }
    return g;
  }

  /** GJKR step 1(d): the accused dealer reveals the share; it verifies, so the dealer stays and 2 uses it. */
  @Test
  public void justificationRevealsTheShareAndTheDealerQualifies() {
    Group g = accusedOneAndTwo(3);
    Justification just = g.last(1, Justification.class);
    assertNotNull(just);
    assertEquals(2, just.reveals().get(0).receiver());
    g.deliver(just);
    finishOpenings(g);
    assertEquals(List.of(1, 3), g.results[2].qualified());
    assertNotNull("receiver 2 derived its share from the revealed one", g.results[2].share());
    assertTrue(DkgChecks.interpolatesTo(g.results[1].group(), Map.of(1, g.results[1].share(), 2,
        g.results[2].share())));
  }

  /** GJKR step 1(e): a justification that does not satisfy (4) disqualifies the dealer. */
  @Test
  public void justificationThatDoesNotVerifyDisqualifies() {
    Group g = accusedOneAndTwo(4);
    Reveal r = g.last(1, Justification.class).reveals().get(0);
    byte[] s = r.s().clone();
    s[31] ^= 1;
    g.deliver(new Justification(1, List.of(new Reveal(2, s, r.sPrime()))));
    g.deliver(g.last(2, Justification.class));
    finishOpenings(g);
    assertEquals(List.of(2, 3), g.results[2].qualified());
    assertTrue(g.faults.get(3).stream().anyMatch(f -> f.contains("dealer 1 disqualified")));
  }

  /** GJKR step 1(e): more than t complaints disqualify without a justification round. */
  @Test
  public void moreThanTComplaintsDisqualify() {
    DkgNet net = DkgNet.generate(SchemeId.CKS, 1, Map.of(2, DkgNet.Behaviour.BAD_COMMITMENT), 8)
        .favour(p -> p.dealer == 2);
    assertTrue(net.run());
    assertTrue(DkgChecks.agreement(net).isEmpty());
    assertFalse(net.correct().get(0).result.qualified().contains(2));
  }

  /**
   * QUAL (GJKR step 2) is decided by the agreed order alone: the same at every correct replica, without the
   * dealer who dealt after the dealing phase closed, and with the first of an equivocating dealer's dealings.
   */
  @Test
  public void qualifiedSetIsTheSameEverywhereAndIgnoresLateAndSecondDealings() {
    DkgNet late = agreedWithFault(DkgNet.generate(SchemeId.CKS, 1, Map.of(4, DkgNet.Behaviour.LATE), 9),
        "after the dealing phase closed");
    assertFalse(late.correct().get(0).result.qualified().contains(4));
    agreedWithFault(DkgNet.generate(SchemeId.CKS, 1, Map.of(3, DkgNet.Behaviour.EQUIVOCATE), 10)
        .favour(p -> p.dealer == 3), "dealt twice");
  }

  /** Runs {@code net}: it ends, the correct replicas agree, and one of them logged {@code fault}. */
  private static DkgNet agreedWithFault(DkgNet net, String fault) {
    assertTrue(net.run());
    assertEquals(List.of(), DkgChecks.agreement(net));
    assertTrue(net.correct().get(0).faults.stream().anyMatch(f -> f.contains(fault)));
    return net;
  }

  /** GJKR step 3: x_j = Σ_{i∈QUAL} s_ij matches Y_j, and the correct shares interpolate to y's secret. */
  @Test
  public void sharesAreSumsOverQualAndInterpolateToTheGroupKey() throws Exception {
    DkgNet net = DkgNet.generate(SchemeId.CKS, 1, Map.of(), 12);
    assertTrue(net.run());
    assertEquals(List.of(), DkgChecks.agreement(net));
    assertEquals(P.n(), net.correctShares().size());
    assertEquals(List.of(), DkgChecks.usable(net.correct().get(0).result.group(), net.correctShares()));
  }

  /** GJKR step 4 (extraction of y), by the holders: an opening whose proof fails is rejected. */
  @Test
  public void extractionRejectsOpeningsThatDoNotOpenTheCommitment() {
    agreedWithFault(DkgNet.generate(SchemeId.CKS, 1, Map.of(3, DkgNet.Behaviour.BAD_OPENING), 13)
        .favour(p -> p.receiver == 3), "proof that fails");
  }

  /** The derived keys work with each discrete-log scheme already in core: CKS coin, BLS signature, TDH2. */
  @Test
  public void derivedKeysWorkWithCksBlsAndTdh2() throws Exception {
    for (SchemeId s : new SchemeId[] {SchemeId.CKS, SchemeId.BLS, SchemeId.TDH2}) {
      DkgNet net = DkgNet.generate(s, 1, Map.of(1, DkgNet.Behaviour.BAD_SHARES), 14);
      assertTrue(s.label(), net.run());
      assertEquals(s.label(), List.of(), DkgChecks.agreement(net));
      assertEquals(s.label(), List.of(), DkgChecks.usable(net.correct().get(0).result.group(), net.correctShares()));
    }
  }

  /**
   * HJKY share renewal: every replica deals a sharing of 0; y stays, every Y_j and x_j changes, and k−1
   * old shares with one new one no longer give the secret.
   */
  @Test
  public void refreshKeepsTheKeyAndChangesEveryShare() throws Exception {
    DkgNet dkg = DkgNet.generate(SchemeId.BLS, 1, Map.of(), 15);
    assertTrue(dkg.run());
    GroupKey before = dkg.correct().get(0).result.group();
    DkgNet refresh = DkgNet.refresh(before, dkg.allShares(), Map.of(2, DkgNet.Behaviour.BAD_SHARES_UNJUSTIFIED), 15);
    assertTrue(refresh.run());
    assertEquals(List.of(), DkgChecks.agreement(refresh));
    GroupKey after = refresh.correct().get(0).result.group();
    assertEquals(List.of(), DkgChecks.refreshed(before, after, dkg.correctShares(), refresh.correctShares()));
    assertFalse(DkgChecks.mixedCombine(before, dkg.correctShares(), refresh.correctShares()));
    assertEquals(List.of(), DkgChecks.usable(after, refresh.correctShares()));
  }

  /**
   * A replica without its current share deals nothing in a refresh and gets no new share. Recovery of a lost
   * share (the goal of HJKY's share recovery) as a resharing to the same membership: the
   * replica that was down during a refresh holds no share, the f+1 or more others deal from theirs, and every
   * replica, the returning one included, gets a new share of the same key. The returning replica counts among
   * the t faulty of that run.
   */
  @Test
  public void aReplicaDownDuringARefreshRecoversItsShareByResharingToTheSameMembers() throws Exception {
    DkgNet dkg = DkgNet.generate(SchemeId.CKS, 1, Map.of(), 20);
    assertTrue(dkg.run());
    Map<Integer, org.bftws.core.crypto.threshold.KeyShare> shares = new java.util.LinkedHashMap<>(dkg.allShares());
    shares.remove(2);
    DkgNet refresh = DkgNet.refresh(dkg.correct().get(0).result.group(), shares, Map.of(), 20);
    assertTrue(refresh.run());
    assertNull("without a current share replica 2 deals nothing and gets no new share",
        refresh.parties.get(1).result.share());
    assertEquals(3, refresh.correctShares().size());
    GroupKey refreshed = refresh.correct().get(0).result.group();
    DkgNet recovery = DkgNet.reshare(refreshed, refresh.correctShares(), P, Map.of(), 21);
    assertTrue(recovery.run());
    assertEquals(List.of(), DkgChecks.agreement(recovery));
    assertEquals("every replica, 2 included, holds a share", P.n(), recovery.correctShares().size());
    assertArrayEquals(refreshed.commonEncoding(), recovery.correct().get(0).result.group().commonEncoding());
    assertEquals(List.of(), DkgChecks.usable(recovery.correct().get(0).result.group(),
        Map.of(2, recovery.correctShares().get(2), 4, recovery.correctShares().get(4))));
  }

  /** Desmedt-Jajodia redistribution n → n' (4 → 7, f 1 → 2, and back to 4): y stays, the new shares work. */
  @Test
  public void reshareToANewMembershipKeepsTheKey() throws Exception {
    DkgNet dkg = DkgNet.generate(SchemeId.TDH2, 1, Map.of(), 17);
    assertTrue(dkg.run());
    GroupKey four = dkg.correct().get(0).result.group();
    DkgNet up = DkgNet.reshare(four, dkg.allShares(), ThresholdParams.forF(2),
        Map.of(3, DkgNet.Behaviour.BAD_SHARES_UNJUSTIFIED), 17);
    assertTrue(up.run());
    assertEquals(List.of(), DkgChecks.agreement(up));
    GroupKey seven = up.correct().get(0).result.group();
    assertEquals(ThresholdParams.forF(2), seven.params());
    assertArrayEquals(four.commonEncoding(), seven.commonEncoding());
    assertEquals(List.of(), DkgChecks.usable(seven, up.correctShares()));

    DkgNet down = DkgNet.reshare(seven, up.correctShares(), ThresholdParams.forF(1), Map.of(), 18);
    assertTrue(down.run());
    assertEquals(List.of(), DkgChecks.agreement(down));
    assertArrayEquals(four.commonEncoding(), down.correct().get(0).result.group().commonEncoding());
  }

  /** Shoup RSA has no DKG here; quorum sizes that leave fewer than k' correct holders are refused. */
  @Test
  public void configRefusesRsaAndThresholdsTheQuorumsCannotServe() {
    List<byte[]> keys = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      keys.add(ShareCipher.generate(TestRandom.seeded(i)).publicKey());
    }
    assertThrows(IllegalArgumentException.class, () -> new DkgConfig(DkgConfig.Mode.GENERATE, SchemeId.RSA,
        new byte[1], P, P, keys, null));
    ThresholdParams dual = new ThresholdParams(4, 3, 1);
    assertThrows(IllegalArgumentException.class, () -> new DkgConfig(DkgConfig.Mode.GENERATE, SchemeId.CKS,
        new byte[1], dual, dual, keys, null));
  }

  /** Canonical encodings round-trip; lists longer than MAX_N and trailing bytes are refused. */
  @Test
  public void messagesRoundTripAndMalformedOnesAreRefused() {
    Group g = new Group(19);
    byte[] d = g.dealing(1).encode();
    assertArrayEquals(d, DkgMessage.decode(d).encode());
    byte[] c = new Complaints(2, List.of(1, 3)).encode();
    assertArrayEquals(c, DkgMessage.decode(c).encode());
    assertThrows(IllegalArgumentException.class, () -> DkgMessage.decode(java.util.Arrays.copyOf(c, c.length + 1)));
    byte[] huge = new org.bftws.core.crypto.threshold.Codec.Writer().u8(DkgMessage.COMPLAINTS).u16(1)
        .u16(ThresholdParams.MAX_N + 1).toByteArray();
    assertThrows(IllegalArgumentException.class, () -> DkgMessage.decode(huge));
    Dealing shortOne = new Dealing(1, g.dealing(1).commitments().subList(0, 1), g.dealing(1).ephemeral(),
        g.dealing(1).ciphertexts());
    g.deliver(shortOne);
    assertTrue(g.faults.get(0).stream().anyMatch(f -> f.contains("malformed dealing of dealer 1")));
  }

  /** Delivers complaints, justifications and openings in replica order until every replica has its output. */
  private static void finishOpenings(Group g) {
    for (int round = 0; round < 3 && g.results[1] == null; round++) {
      for (int j = 1; j <= P.n(); j++) {
        DkgMessage.Opening o = g.last(j, DkgMessage.Opening.class);
        if (o != null && g.results[1] == null) {
          g.deliver(o);
        }
      }
    }
    for (int j = 1; j <= P.n(); j++) {
      assertNotNull("replica " + j + " finished", g.results[j]);
    }
  }
}
