package org.bftws.core.async;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;
import org.bftws.core.codec.ByteWriter;
import org.bftws.core.crypto.Digests;
import org.bftws.core.crypto.Signer;
import org.bftws.core.crypto.Verifier;
import org.bftws.core.crypto.threshold.Dealt;
import org.bftws.core.crypto.threshold.ShoupRsa;
import org.bftws.core.crypto.threshold.ThresholdParams;
import org.bftws.core.engine.Event;
import org.bftws.core.testkit.TestKeys;
import org.bftws.core.testkit.TestRandom;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Reiter's echo broadcast (SINTRA §2.2) with both certificate schemes of SINTRA §2.1: the multi-signature
 * on many seeds, Shoup's RSA threshold signature (512-bit test moduli, dealt once) on a few.
 */
public class ConsistentBroadcastTest {
  private static final int SEEDS = 40;
  private static final int RSA_SEEDS = 10;
  private static final byte[] P = "payload p".getBytes(StandardCharsets.UTF_8);
  private static final byte[] Q = "payload q".getBytes(StandardCharsets.UTF_8);
  private static final ShoupRsa RSA512 = new ShoupRsa(512);
  private static final Map<Integer, Dealt> RSA_KEYS = new HashMap<>();

  @BeforeClass
  public static void deal() {
    RSA_KEYS.put(4, RSA512.deal(new ThresholdParams(4, 3, 1), TestRandom.seeded(41)));
    RSA_KEYS.put(7, RSA512.deal(new ThresholdParams(7, 5, 2), TestRandom.seeded(71)));
  }

  /** A certificate scheme for one replica (correct, or the adversary's copy of a Byzantine one). */
  private enum Scheme {
    MULTI {
      @Override
      QuorumSignatures of(Context ctx) {
        return new MultiSignature(ctx);
      }
    },
    RSA {
      @Override
      QuorumSignatures of(Context ctx) {
        Dealt d = RSA_KEYS.get(ctx.n());
        return new ThresholdSignatures(RSA512, d.group(), d.share(ctx.id() + 1));
      }
    };

    abstract QuorumSignatures of(Context ctx);
  }

  /** One broadcast of {@code sender} at every correct replica, and the adversary's copies of the others. */
  private static final class Group {
    final AsyncNet net;
    final Pid pid;
    final QuorumSignatures[] sigs;
    final ConsistentBroadcast[] cb;
    final List<List<ConsistentBroadcast.Delivery>> delivered = new ArrayList<>();

    Group(int n, int f, long seed, int sender, Set<Integer> byzantine, Scheme scheme) {
      net = new AsyncNet(n, f, seed, byzantine);
      pid = Pid.root("t").child("cb").child(sender);
      sigs = new QuorumSignatures[n];
      cb = new ConsistentBroadcast[n];
      Map<Integer, Signer> signers = new HashMap<>();
      TestKeys keys = TestKeys.seeded(n, seed); // the same keys as the net's
      signers.putAll(keys.signers());
      Verifier verifier = keys.verifier();
      for (int i = 0; i < n; i++) {
        List<ConsistentBroadcast.Delivery> mine = new ArrayList<>();
        delivered.add(mine);
        int me = i;
        if (net.correct(i)) {
          sigs[i] = scheme.of(net.ctx(i));
          net.input(i, () -> cb[me] = net.ctx(me).router()
              .register(new ConsistentBroadcast(net.ctx(me), pid, sender, sigs[me], mine::add)));
        } else {
          sigs[i] = scheme.of(new Context(n, f, i, signers.get(i), verifier));
        }
      }
    }

    /** The bytes a share of this instance signs for {@code payload}. */
    byte[] bound(byte[] payload) {
      return pid.bind(ConsistentBroadcast.PURPOSE, Digests.sha256(payload));
    }

    /** Consistency and integrity: each correct replica delivered at most once, all the same payload. */
    byte[] consistent() {
      byte[] first = null;
      for (int i = 0; i < net.n; i++) {
        List<ConsistentBroadcast.Delivery> d = delivered.get(i);
        assertTrue("replica " + i + " delivered " + d.size() + " times, seed " + net.seed, d.size() <= 1);
        if (!d.isEmpty()) {
          assertTrue("transferable proof, seed " + net.seed,
              ConsistentBroadcast.verifies(sigs[i], pid, d.get(0).payload(), d.get(0).certificate()));
          if (first != null) {
            assertArrayEquals("consistency, seed " + net.seed, first, d.get(0).payload());
          }
          first = d.get(0).payload();
        }
      }
      return first;
    }
  }

  // Reference: SINTRA §2.2 (a correct sender's payload is delivered by every correct party)
  @Test
  public void correctSenderIsDeliveredByAllCorrectWithMultiSignatures() {
    correctSenderIsDeliveredByAllCorrect(Scheme.MULTI, SEEDS);
  }

  // Reference: SINTRA §2.1, §2.2 (the threshold signature replaces the multi-signature with no protocol change)
  @Test
  public void correctSenderIsDeliveredByAllCorrectWithRsaThresholdSignatures() {
    correctSenderIsDeliveredByAllCorrect(Scheme.RSA, RSA_SEEDS);
  }

  private static void correctSenderIsDeliveredByAllCorrect(Scheme scheme, int seeds) {
    for (long seed = 0; seed < seeds; seed++) {
      for (int[] nf : new int[][] {{4, 1}, {7, 2}}) {
        int n = nf[0];
        Group g = new Group(n, nf[1], seed, 0, Set.of(n - 1), scheme); // one silent Byzantine replica
        g.net.input(0, () -> g.cb[0].send(P));
        g.net.run();
        for (int i = 0; i < n - 1; i++) {
          assertEquals("replica " + i + ", seed " + seed, 1, g.delivered.get(i).size());
          assertArrayEquals("seed " + seed, P, g.delivered.get(i).get(0).payload());
          assertEquals("evidence at " + i + ", seed " + seed, List.of(), g.net.evidence(i));
        }
        g.consistent();
      }
    }
  }

  // Reference: SINTRA §2.2 (consistency: correct parties that deliver, deliver the same payload)
  @Test
  public void equivocatingSenderCannotSplitCorrectReplicasWithMultiSignatures() {
    equivocatingSenderCannotSplitCorrectReplicas(Scheme.MULTI, SEEDS * 2);
  }

  // Reference: SINTRA §2.2 (consistency holds with the threshold signature as well)
  @Test
  public void equivocatingSenderCannotSplitCorrectReplicasWithRsaThresholdSignatures() {
    equivocatingSenderCannotSplitCorrectReplicas(Scheme.RSA, RSA_SEEDS);
  }

  /**
   * The Byzantine sender 0 (with a Byzantine helper at n = 7) sends p to some correct replicas and q to
   * others, then builds every certificate the shares it can observe allow (its own and its helpers' shares
   * on both payloads, each correct replica's on the payload it received), pads the rest with repeated
   * signers, and sends any of them to anyone.
   */
  private static void equivocatingSenderCannotSplitCorrectReplicas(Scheme scheme, int seeds) {
    int deliveredRuns = 0;
    for (long seed = 0; seed < seeds; seed++) {
      int n = seed % 2 == 0 ? 4 : 7;
      int f = (n - 1) / 3;
      Set<Integer> byz = f == 1 ? Set.of(0) : Set.of(0, 3);
      Group g = new Group(n, f, seed, 0, byz, scheme);
      Random adv = new Random(~seed);
      Map<Integer, byte[]> got = new HashMap<>();
      for (int to = 0; to < n; to++) {
        if (!byz.contains(to)) {
          got.put(to, adv.nextBoolean() ? P : Q);
          g.net.post(0, to, g.net.forge(0, g.pid, ConsistentBroadcast.Type.SEND.code(), got.get(to)));
        }
      }
      List<byte[]> finals = new ArrayList<>();
      for (byte[] v : new byte[][] {P, Q}) {
        Map<Integer, byte[]> shares = new HashMap<>();
        for (int i = 0; i < n; i++) {
          if (byz.contains(i) || got.get(i) == v) {
            shares.put(i, g.sigs[i].share(g.bound(v)));
          }
        }
        byte[] cert;
        if (shares.size() >= g.sigs[0].quorum()) {
          cert = g.sigs[0].combine(g.bound(v), shares);
        } else if (scheme == Scheme.MULTI) {
          cert = paddedMultiSignature(shares, g.sigs[0].quorum());
        } else {
          continue; // too few RSA shares combine into nothing
        }
        finals.add(new ByteWriter().bytes(Digests.sha256(v)).bytes(cert).toBytes());
      }
      for (int to = 0; to < n; to++) {
        for (byte[] fin : finals) {
          if (!byz.contains(to) && adv.nextBoolean()) {
            g.net.post(0, to, g.net.forge(0, g.pid, ConsistentBroadcast.Type.FINAL.code(), fin));
          }
        }
      }
      g.net.run();
      byte[] d = g.consistent();
      if (d != null) {
        assertTrue("integrity, seed " + seed, Arrays.equals(d, P) || Arrays.equals(d, Q));
        deliveredRuns++;
      }
    }
    assertTrue("some runs must deliver for the test to mean anything: " + deliveredRuns, deliveredRuns > 0);
  }

  /** A vector of {@code quorum} entries from fewer signers: the last signer repeated. */
  private static byte[] paddedMultiSignature(Map<Integer, byte[]> shares, int quorum) {
    ByteWriter w = new ByteWriter().i32(quorum);
    List<Integer> parties = new ArrayList<>(new java.util.TreeSet<>(shares.keySet()));
    for (int k = 0; k < quorum; k++) {
      int p = parties.get(Math.min(k, parties.size() - 1));
      w.i32(p).bytes(shares.get(p));
    }
    return w.toBytes();
  }

  // Reference: SINTRA §2.2, §3.2 (the closing message is bound to its instance; isValidClosing(pid, v))
  @Test
  public void certificateVerifiesOnlyForItsInstanceAndPayload() {
    for (Scheme scheme : Scheme.values()) {
      Group g = new Group(4, 1, 5, 1, Set.of(), scheme);
      g.net.input(1, () -> g.cb[1].send(P));
      g.net.run();
      ConsistentBroadcast.Delivery d = g.delivered.get(2).get(0);
      QuorumSignatures q = g.sigs[3];
      assertTrue(scheme.name(), ConsistentBroadcast.verifies(q, g.pid, P, d.certificate()));
      assertFalse(scheme.name(), ConsistentBroadcast.verifies(q, g.pid, Q, d.certificate()));
      assertFalse(scheme.name(), ConsistentBroadcast.verifies(q, Pid.root("t").child("cb").child(2), P, d.certificate()));
      assertFalse(scheme.name(), ConsistentBroadcast.verifies(q, g.pid, P, flipLastBit(d.certificate())));
      assertFalse(scheme.name(), ConsistentBroadcast.verifies(q, g.pid, P, new byte[3]));
      assertFalse(scheme.name(), ConsistentBroadcast.verifies(q, g.pid, P, new byte[0]));
    }
  }

  // Reference: SINTRA §2.1 (a multi-signature is a vector of exactly a quorum of signatures)
  @Test
  public void multiSignatureChecksItsOwnQuorumSize() {
    Group g = new Group(4, 1, 4, 0, Set.of(), Scheme.MULTI);
    g.net.input(0, () -> g.cb[0].send(P));
    g.net.run();
    byte[] cert = g.delivered.get(1).get(0).certificate();
    Context ctx = g.net.ctx(2);
    assertTrue(new MultiSignature(ctx, 3).verify(g.bound(P), cert));
    assertFalse(new MultiSignature(ctx, 4).verify(g.bound(P), cert));
    assertFalse(new MultiSignature(ctx, 2).verify(g.bound(P), cert));
  }

  // Reference: SINTRA §3.2 (deliverClosing: a valid closing message names the payload to deliver)
  @Test
  public void closingMessageByDigestDeliversAtAPartyThatSawNothingOnceItHasThePayload() {
    for (Scheme scheme : Scheme.values()) {
      Group g = new Group(4, 1, 9, 0, Set.of(), scheme);
      g.net.input(0, () -> g.cb[0].send(P));
      g.net.run();
      Group other = new Group(4, 1, 9, 0, Set.of(), scheme); // same keys, a fresh replica 2
      byte[] cert = g.delivered.get(1).get(0).certificate();
      assertFalse(other.cb[2].deliverClosing(Digests.sha256(Q), cert));
      assertTrue(other.cb[2].deliverClosing(Digests.sha256(P), cert));
      assertNull("the certificate alone carries no payload", other.cb[2].delivered());
      assertFalse("not the certified payload", other.cb[2].supply(Q));
      assertTrue(other.cb[2].supply(P));
      assertArrayEquals(P, other.cb[2].delivered().payload());
      assertEquals(1, other.delivered.get(2).size());
      assertTrue(other.cb[2].deliverClosing(Digests.sha256(P), cert)); // stays delivered, no second output
      assertEquals(1, other.delivered.get(2).size());
    }
  }

  /**
   * Byzantine sender 0 sends its SEND only to {@code holders} and certifies it with their shares and its
   * own; returns the certificate (correct holders signed it: they received the SEND).
   */
  private static byte[] sendTo(Group g, Set<Integer> holders, Set<Integer> signers) {
    for (int to : holders) {
      g.net.post(0, to, g.net.forge(0, g.pid, ConsistentBroadcast.Type.SEND.code(), P));
    }
    g.net.run();
    Map<Integer, byte[]> shares = new HashMap<>();
    for (int i : signers) {
      shares.put(i, g.sigs[i].share(g.bound(P)));
    }
    return g.sigs[0].combine(g.bound(P), shares);
  }

  // Reference: SINTRA §2.2, §3.2; CKPS 2001 §5 (a certificate's correct signers hold its payload)
  @Test
  public void partyThatMissedTheSendFetchesThePayloadFromTheSigners() {
    for (Scheme scheme : Scheme.values()) {
      Group g = new Group(4, 1, 6, 0, Set.of(0), scheme);
      byte[] cert = sendTo(g, Set.of(1, 2), Set.of(0, 1, 2));
      g.net.input(3, () -> {
        assertTrue(g.cb[3].deliverClosing(Digests.sha256(P), cert));
        g.cb[3].fetch();
      });
      assertNull("nothing without the payload", g.cb[3].delivered());
      g.net.run();
      assertArrayEquals(scheme.name(), P, g.delivered.get(3).get(0).payload());
      assertArrayEquals(cert, g.delivered.get(3).get(0).certificate());
      for (int i = 1; i < 4; i++) {
        assertEquals(scheme + " evidence at " + i, List.of(), g.net.evidence(i));
      }
    }
  }

  /**
   * n = 7: signers 0 (the sender) and 1 are Byzantine; 1 never answers a FETCH, and sends a PAYLOAD that
   * is not the certified one, delivered before any correct answer. The fetching party refuses and names it,
   * and takes the payload from a correct signer.
   */
  // Reference: SINTRA §2.2 (at least one signer of a certificate is correct); evidence against a lying signer
  @Test
  public void fetchSurvivesASignerThatRefusesAndOneThatAnswersWithAnotherPayload() {
    for (long seed = 0; seed < 10; seed++) {
      Group g = new Group(7, 2, seed, 0, Set.of(0, 1), Scheme.MULTI);
      byte[] cert = sendTo(g, Set.of(2, 3, 4), Set.of(0, 1, 2, 3, 4));
      g.net.holdBack((from, m) -> m.type() == ConsistentBroadcast.Type.PAYLOAD.code() && from != 1);
      g.net.input(5, () -> {
        g.cb[5].deliverClosing(Digests.sha256(P), cert);
        g.cb[5].fetch();
      });
      g.net.post(1, 5, g.net.forge(1, g.pid, ConsistentBroadcast.Type.PAYLOAD.code(), Q));
      g.net.run();
      assertArrayEquals("seed " + seed, P, g.delivered.get(5).get(0).payload());
      assertEquals("seed " + seed, List.of(new Event.Evidence(1,
          g.pid + ": fetched PAYLOAD does not match the certified digest")), g.net.evidence(5));
      assertTrue("replica 6 holds no certificate and fetched nothing", g.delivered.get(6).isEmpty());
    }
  }

  /** A FINAL carries (digest, certificate); a party that missed the SEND fetches the payload. */
  // Reference: SINTRA §2.2 (the payload travels once; the certificate names it by digest)
  @Test
  public void finalWithoutTheSendMakesThePartyFetch() {
    for (Scheme scheme : Scheme.values()) {
      Group g = new Group(4, 1, 8, 0, Set.of(0), scheme);
      byte[] cert = sendTo(g, Set.of(1, 2), Set.of(0, 1, 2));
      byte[] fin = new ByteWriter().bytes(Digests.sha256(P)).bytes(cert).toBytes();
      for (int to = 1; to < 4; to++) {
        g.net.post(0, to, g.net.forge(0, g.pid, ConsistentBroadcast.Type.FINAL.code(), fin));
      }
      g.net.run();
      assertArrayEquals(scheme.name(), P, g.consistent());
      for (int i = 1; i < 4; i++) {
        assertEquals(scheme.name(), 1, g.delivered.get(i).size());
        boolean fetched = g.net.transcript(i).stream()
            .anyMatch(x -> x.sent() && x.message().type() == ConsistentBroadcast.Type.FETCH.code());
        assertEquals(scheme + " replica " + i + " fetched", i == 3, fetched);
        assertEquals(scheme.name(), List.of(), g.net.evidence(i));
      }
    }
  }

  // Reference: CKPS 2001 §5 (a correct party echoes only an externally valid proposal)
  @Test
  public void invalidPayloadIsNotEchoed() {
    Group g = new Group(4, 1, 3, 0, Set.of(0), Scheme.MULTI);
    for (int i = 1; i < 4; i++) {
      int me = i;
      g.net.input(i, () -> g.cb[me] = g.net.ctx(me).router().register(new ConsistentBroadcast(g.net.ctx(me),
          g.pid.child("valid"), 0, g.sigs[me], Validity.of(p -> !Arrays.equals(p, Q)), c -> { }, d -> { })));
    }
    for (int to = 1; to < 4; to++) {
      g.net.post(0, to, g.net.forge(0, g.pid.child("valid"), ConsistentBroadcast.Type.SEND.code(), Q));
    }
    g.net.run();
    for (int i = 1; i < 4; i++) {
      int me = i;
      assertTrue(g.net.transcript(i).stream().noneMatch(x -> x.sent() && x.peer() == 0));
      assertEquals(List.of(new Event.Evidence(0, g.pid.child("valid") + ": SEND fails the external validity "
          + "predicate")), g.net.evidence(me));
    }
  }

  // Reference: CKPS 2001 §5 (echo only an externally valid proposal) when validity waits for data: a SEND
  // that cannot be judged yet is neither echoed nor refused; recheck() judges it again once the data came
  @Test
  public void sendThatCannotBeJudgedYetIsEchoedOnceItCan() {
    Group g = new Group(4, 1, 3, 0, Set.of(0), Scheme.MULTI);
    boolean[] known = new boolean[4];
    Pid pid = g.pid.child("patient");
    for (int i = 1; i < 4; i++) {
      int me = i;
      g.net.input(i, () -> g.cb[me] = g.net.ctx(me).router().register(new ConsistentBroadcast(g.net.ctx(me),
          pid, 0, g.sigs[me], p -> known[me] ? Validity.Verdict.VALID : Validity.Verdict.NOT_YET,
          c -> { }, d -> { })));
    }
    for (int to = 1; to < 4; to++) {
      g.net.post(0, to, g.net.forge(0, pid, ConsistentBroadcast.Type.SEND.code(), P));
    }
    g.net.run();
    for (int i = 1; i < 4; i++) {
      assertTrue("nothing echoed yet at " + i, g.net.transcript(i).stream().noneMatch(x -> x.sent()));
      assertEquals(List.of(), g.net.evidence(i));
    }
    known[1] = true;
    known[2] = true;
    for (int i = 1; i < 4; i++) {
      int me = i;
      g.net.input(i, () -> g.cb[me].recheck());
    }
    g.net.run();
    for (int i = 1; i < 4; i++) {
      boolean shared = g.net.transcript(i).stream()
          .anyMatch(x -> x.sent() && x.peer() == 0 && x.message().type() == ConsistentBroadcast.Type.SHARE.code());
      assertEquals("replica " + i + " echoed", i < 3, shared);
      assertEquals(List.of(), g.net.evidence(i));
    }
  }

  // Reference: SINTRA §2.1 (shares are verified individually; a bad one is evidence against its maker)
  @Test
  public void invalidSharesAreEvidenceAndDoNotStopACorrectSender() {
    for (Scheme scheme : Scheme.values()) {
      for (long seed = 0; seed < (scheme == Scheme.MULTI ? 10 : 2); seed++) {
        Group g = new Group(4, 1, seed, 0, Set.of(3), scheme);
        g.net.input(0, () -> g.cb[0].send(P));
        // replica 3 answers with a share on q, and one signed by itself for another instance
        g.net.post(3, 0, g.net.forge(3, g.pid, ConsistentBroadcast.Type.SHARE.code(), g.sigs[3].share(g.bound(Q))));
        byte[] elsewhere = Pid.root("t").child("cb").child(1).bind(ConsistentBroadcast.PURPOSE, Digests.sha256(P));
        g.net.post(3, 0, g.net.forge(3, g.pid, ConsistentBroadcast.Type.SHARE.code(), g.sigs[3].share(elsewhere)));
        g.net.post(3, 1, g.net.forge(3, g.pid, ConsistentBroadcast.Type.SHARE.code(), g.sigs[3].share(g.bound(P))));
        g.net.run();
        for (int i = 0; i < 3; i++) {
          assertArrayEquals("seed " + seed, P, g.delivered.get(i).get(0).payload());
        }
        List<Event.Evidence> ev = g.net.evidence(0);
        assertTrue(scheme + " " + ev, ev.stream().allMatch(e -> e.node() == 3));
        long invalid = ev.stream().filter(e -> e.what().equals(g.pid + ": invalid signature share")).count();
        // both are invalid unless the certificate was made before they arrived (late shares are dropped)
        assertTrue(scheme + " seed " + seed + " " + ev, invalid <= 2);
        assertEquals(List.of(new Event.Evidence(3, g.pid + ": SHARE to a party that did not send in this instance")),
            g.net.evidence(1));
      }
    }
  }

  // Reference: SINTRA §2.1 (an RSA share names its key index; a copy of another party's share is rejected)
  @Test
  public void copiedThresholdShareIsEvidence() {
    Group g = new Group(4, 1, 1, 0, Set.of(3), Scheme.RSA);
    g.net.post(3, 0, g.net.forge(3, g.pid, ConsistentBroadcast.Type.SHARE.code(), g.sigs[1].share(g.bound(P))));
    g.net.input(0, () -> g.cb[0].send(P));
    g.net.run();
    assertTrue(g.net.evidence(0).toString(),
        g.net.evidence(0).contains(new Event.Evidence(3, g.pid + ": invalid signature share")));
    assertFalse(new MultiSignature(g.net.ctx(0)).verifyShare(2, g.bound(P), g.sigs[1].share(g.bound(P))));
  }

  // Reference: SINTRA §2.2 (a party signs one payload per instance; a FINAL without a valid certificate is rejected)
  @Test
  public void doubleSendAndForgedFinalAreEvidence() {
    Group g = new Group(4, 1, 2, 0, Set.of(0), Scheme.MULTI);
    g.net.post(0, 1, g.net.forge(0, g.pid, ConsistentBroadcast.Type.SEND.code(), P));
    g.net.post(0, 1, g.net.forge(0, g.pid, ConsistentBroadcast.Type.SEND.code(), Q));
    g.net.post(0, 1, g.net.forge(0, g.pid, ConsistentBroadcast.Type.FINAL.code(),
        new ByteWriter().bytes(Digests.sha256(P)).bytes(new byte[40]).toBytes()));
    g.net.post(0, 1, g.net.forge(0, g.pid, ConsistentBroadcast.Type.FINAL.code(), new byte[3]));
    g.net.post(2, 1, g.net.forge(0, 2, g.pid, ConsistentBroadcast.Type.SEND.code(), Q)); // claims 0, signed by 2
    g.net.run();
    assertTrue(g.delivered.get(1).isEmpty());
    List<String> what = g.net.evidence(1).stream().map(Event.Evidence::what).toList();
    assertTrue(what.toString(), what.contains(g.pid + ": two different SENDs")); // whichever came second
    assertTrue(what.toString(), what.contains(g.pid + ": FINAL with an invalid certificate"));
    assertTrue(what.toString(), what.stream().anyMatch(w -> w.contains("malformed type 3")));
    assertTrue(what.toString(), what.contains("bad signature"));
  }

  // Reference: SINTRA §2.2 (termination only for a correct sender)
  @Test
  public void silentSenderDeliversNothing() {
    Group g = new Group(4, 1, 0, 0, Set.of(0), Scheme.MULTI);
    g.net.run();
    assertTrue(g.delivered.stream().allMatch(List::isEmpty));
    assertNotNull(g.cb[1]);
  }

  private static byte[] flipLastBit(byte[] b) {
    byte[] c = b.clone();
    c[c.length - 1] ^= 1;
    return c;
  }
}
