package org.bftws.core.pbft;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.bftws.core.config.GroupConfig;
import org.bftws.core.engine.Event;
import org.bftws.core.engine.Ready;
import org.bftws.core.message.Kind;
import org.bftws.core.message.PpUpdate;
import org.bftws.core.message.PrePrepare;
import org.bftws.core.message.Signed;
import org.bftws.core.replication.RandomizedOperations;
import org.bftws.core.testkit.EngineHarness;
import org.junit.Test;

/**
 * The BA algorithm inside the replica (integrity paper §4, correctness §6 C1/C2), plain and hardened, on
 * four replicas (f = 1) connected by an in-memory network that can hold back chosen messages.
 */
public class ContributionsTest {
  private static Cluster group(boolean hardened) {
    return new Cluster(GroupConfig.defaults(), Cluster.Randomness.ba(hardened));
  }

  /** A pp-update of replica {@code from} for (seq, d): its signed contribution of these values. */
  private static Signed contribution(Cluster g, int from, long seq, byte[] d, List<byte[]> values) {
    PpUpdate u = PpUpdate.values(PpUpdate.Type.CONTRIBUTION, 0, seq, d, values, new byte[0]);
    return Signed.sign(Kind.PP_UPDATE, from, u.encode(), g.signers.get(from));
  }

  private static boolean kind(EngineHarness.Msg m, Kind k) {
    return Cluster.kind(m) == k;
  }

  private static byte[] value(int b) {
    byte[] v = new byte[PpUpdate.VALUE_LENGTH];
    Arrays.fill(v, (byte) b);
    return v;
  }

  // Reference: integrity paper §4 (normal operation) and §6 C1: every replica delivers the same random
  // number with the randomized request, none with the other; R is the combination of the certified set.
  @Test
  public void everyReplicaDeliversTheSameRandomNumber() {
    for (boolean hardened : new boolean[] {false, true}) {
      Cluster g = group(hardened);
      g.submit(true);
      g.submit(false);
      byte[] r0 = g.executed.get(0).get(0).randoms().get(0);
      assertEquals(32, r0.length);
      for (int i = 0; i < 4; i++) {
        assertEquals(2, g.executed.get(i).size());
        assertArrayEquals(r0, g.executed.get(i).get(0).randoms().get(0));
        assertEquals(0, g.executed.get(i).get(1).randoms().get(0).length);
        Event.RandomnessAgreed ra = g.eventsOf(i, Event.RandomnessAgreed.class).get(0);
        List<Signed> batch = g.replicas[i].log.get(1L).committedBatch;
        List<byte[]> r = BaRandomness.checkCertificate(ra.certificate(), 1, ra.batchDigest(), batch, RandomizedOperations.AS_FLAGGED, 4, 1, hardened,
            s -> s.verify(g.verifier));
        assertArrayEquals(r0, r.get(0));
        assertTrue("evidence at " + i, g.eventsOf(i, Event.Evidence.class).isEmpty());
      }
    }
  }

  // Reference: integrity paper §4 (Figure 1) — the cost of BA in messages, no faults, n = 4: the 3f
  // backups' pp-updates and the primary's set, multicast (3f+1)(n-1) = 12; hardened adds the 2f+1 reveals,
  // multicast: 12 + 9 = 21. A request that is not randomized costs no pp-update.
  @Test
  public void ppUpdatesPerRandomizedRequest() {
    for (boolean hardened : new boolean[] {false, true}) {
      Cluster g = group(hardened);
      g.submit(false);
      assertEquals(0, g.sentOfKind(Kind.PP_UPDATE));
      g.submit(true);
      assertEquals(hardened ? 21 : 12, g.sentOfKind(Kind.PP_UPDATE));
      for (int i = 0; i < 4; i++) {
        assertEquals(2, g.executed.get(i).size());
      }
    }
  }

  // Reference: integrity paper §4 (the pp-update and the pre-prepare carrying R_p) with the canonical
  // encoding rule: every new message round-trips to the same bytes, and a pre-prepare without randomness
  // keeps the bytes it had before BA existed.
  @Test
  public void ppUpdatesAndRandomnessRoundTrip() {
    Cluster g = group(true);
    Signed q = g.request("op", true);
    PrePrepare plain = PrePrepare.of(0, 1, List.of(q));
    Signed c = contribution(g, 0, 1, plain.digest(), List.of(value(1)));
    PpUpdate reveal = PpUpdate.values(PpUpdate.Type.REVEAL, 0, 1, plain.digest(), List.of(value(2)), value(3));
    PpUpdate set = PpUpdate.set(0, 1, plain.digest(), List.of(c, c), List.of(c));
    for (PpUpdate u : List.of(PpUpdate.decode(c.body()), reveal, set)) {
      assertArrayEquals(u.encode(), PpUpdate.decode(u.encode()).encode());
    }
    PrePrepare withR = plain.withRandomness(c);
    assertArrayEquals(withR.encode(), PrePrepare.decode(withR.encode()).encode());
    assertEquals(null, PrePrepare.decode(plain.encode()).randomness());
    assertArrayEquals(c.encode(), PrePrepare.decode(withR.encode()).randomness().encode());
    Signed pps = Signed.sign(Kind.PRE_PREPARE, 0, withR.encode(), g.signers.get(0));
    org.bftws.core.message.ViewChange vc = new org.bftws.core.message.ViewChange(1, 0, new byte[32], List.of(),
        List.of(new org.bftws.core.message.PreparedCertificate(pps, List.of(), c),
            new org.bftws.core.message.PreparedCertificate(pps, List.of())));
    org.bftws.core.message.ViewChange back = org.bftws.core.message.ViewChange.decode(vc.encode());
    assertArrayEquals(vc.encode(), back.encode());
    assertArrayEquals(c.encode(), back.prepared().get(0).randomness().encode());
    assertEquals(null, back.prepared().get(1).randomness());
  }

  // Reference: integrity paper §4, "checks if the request will indeed trigger a randomized operation, to
  // prevent a faulty primary from putting unnecessary loads on correct replicas": refused, no work done.
  @Test
  public void aContributionForANonRandomizedRequestIsRefused() {
    Cluster g = group(false);
    Signed q = g.request("op", false);
    PrePrepare plain = PrePrepare.of(0, 1, List.of(q));
    PrePrepare pp = plain.withRandomness(contribution(g, 0, 1, plain.digest(), List.of(value(1))));
    Ready r = g.replicas[1].receive(Signed.sign(Kind.PRE_PREPARE, 0, pp.encode(), g.signers.get(0)).encode());
    assertTrue(r.messages.isEmpty()); // no prepare, no contribution of its own
    assertTrue(r.events.stream().anyMatch(e -> e instanceof Event.Evidence ev && ev.node() == 0
        && ev.what().contains("no randomized request")));
    // A randomized batch without the primary's contribution is refused too.
    Signed rq = g.request("op", true);
    Ready r2 = g.replicas[1].receive(Signed.sign(Kind.PRE_PREPARE, 0, PrePrepare.of(0, 1, List.of(rq)).encode(),
        g.signers.get(0)).encode());
    assertTrue(r2.messages.isEmpty());
    assertTrue(r2.events.stream().anyMatch(e -> e instanceof Event.Evidence ev && ev.what().contains("without the primary's contribution")));
  }

  // Reference: integrity paper §4 (the backup checks S_R: 2f+1 pp-updates of the replicas it names) — here
  // each member carries its contributor's signature: a forged, a missing or a duplicated contribution fails.
  @Test
  public void aSetWithAForgedOrMissingContributionIsRejected() {
    Cluster g = group(false);
    Signed q = g.request("op", true);
    PrePrepare pp = PrePrepare.of(0, 1, List.of(q));
    byte[] d = pp.digest();
    List<Signed> good = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      good.add(contribution(g, i, 1, d, List.of(value(i + 1))));
    }
    assertNotNull(check(g, PpUpdate.set(0, 1, d, good, List.of()), pp));
    // Forged: replica 2's value replaced, its signature kept.
    List<Signed> forged = new ArrayList<>(good);
    PpUpdate u2 = PpUpdate.decode(good.get(2).body());
    forged.set(2, Signed.of(Kind.PP_UPDATE, 2, PpUpdate.values(u2.type(), 0, 1, d, List.of(value(9)), new byte[0]).encode(),
        good.get(2).signature()));
    assertRejected(g, PpUpdate.set(0, 1, d, forged, List.of()), pp, "did not sign");
    assertRejected(g, PpUpdate.set(0, 1, d, good.subList(0, 2), List.of()), pp, "not 2f+1");
    assertRejected(g, PpUpdate.set(0, 1, d, List.of(good.get(0), good.get(1), good.get(1)), List.of()), pp, "two contributions");
    Signed other = contribution(g, 2, 2, d, List.of(value(3)));
    assertRejected(g, PpUpdate.set(0, 1, d, List.of(good.get(0), good.get(1), other), List.of()), pp, "another request");

    // In the engine: a backup that accepted the pre-prepare gets a set with a forged member — evidence
    // against the primary, and no prepare.
    g.hold = m -> kind(m, Kind.PP_UPDATE) && m.from() == 0;
    g.submit(true);
    Signed set = null;
    for (EngineHarness.Msg m : g.held) {
      Signed s = Signed.decode(m.bytes());
      if (m.to() == 1 && PpUpdate.decode(s.body()).type() == PpUpdate.Type.SET) {
        set = s;
      }
    }
    assertNotNull("the primary sent its set", set);
    PpUpdate su = PpUpdate.decode(set.body());
    List<Signed> members = new ArrayList<>(su.set());
    Signed m0 = members.get(members.size() - 1);
    PpUpdate mu = PpUpdate.decode(m0.body());
    members.set(members.size() - 1, Signed.of(Kind.PP_UPDATE, m0.sender(),
        PpUpdate.values(mu.type(), mu.view(), mu.seq(), mu.digest(), List.of(value(7)), new byte[0]).encode(), m0.signature()));
    Signed bad = Signed.sign(Kind.PP_UPDATE, 0, PpUpdate.set(0, su.seq(), su.digest(), members, List.of()).encode(), g.signers.get(0));
    Ready r = g.replicas[1].receive(bad.encode());
    assertTrue(r.events.stream().anyMatch(e -> e instanceof Event.Evidence ev && ev.node() == 0 && ev.what().contains("did not sign")));
    assertTrue(r.messages.stream().noneMatch(o -> Signed.decode(o.bytes()).kind() == Kind.PREPARE));
    assertEquals(null, g.replicas[1].contributions.randoms(su.seq()));
    // The real set then completes the request everywhere.
    g.hold = m -> false;
    g.release(m -> true);
    for (int i = 0; i < 4; i++) {
      assertEquals(1, g.executed.get(i).size());
    }
  }

  private static List<byte[]> check(Cluster g, PpUpdate set, PrePrepare pp) {
    Signed s = Signed.sign(Kind.PP_UPDATE, 0, set.encode(), g.signers.get(0));
    return BaRandomness.checkCertificate(s, pp.seq(), pp.digest(), pp.requests(), RandomizedOperations.AS_FLAGGED, 4, 1, false, m -> m.verify(g.verifier));
  }

  private static void assertRejected(Cluster g, PpUpdate set, PrePrepare pp, String why) {
    try {
      check(g, set, pp);
      fail("accepted a set that should fail with: " + why);
    } catch (IllegalArgumentException expected) {
      assertTrue(expected.getMessage(), expected.getMessage().contains(why));
    }
  }

  // Reference: integrity paper §6 C2 and docs/design/cryptography.md ("copying an honest contribution cancels it"): R binds
  // each contribution to its contributor's id, so a copy under another id does not cancel it and swapping
  // ids changes R.
  @Test
  public void theCombinationBindsContributorIds() {
    byte[] x = value(5);
    byte[] y = value(6);
    Map<Integer, List<byte[]>> copied = Map.of(0, List.of(x), 1, List.of(x), 2, List.of(y));
    Map<Integer, List<byte[]>> alone = Map.of(2, List.of(y));
    assertFalse(Arrays.equals(BaRandomness.combine(copied, 1).get(0), BaRandomness.combine(alone, 1).get(0)));
    byte[] ab = BaRandomness.combine(Map.of(0, List.of(x), 1, List.of(y)), 1).get(0);
    byte[] ba = BaRandomness.combine(Map.of(0, List.of(y), 1, List.of(x)), 1).get(0);
    assertFalse(Arrays.equals(ab, ba));
    // And R changes d': a different R can never gather the prepares of another.
    byte[] d = value(1);
    assertFalse(Arrays.equals(BaRandomness.voteDigest(d, List.of(ab)), BaRandomness.voteDigest(d, List.of(ba))));
  }

  // Reference: integrity paper §4 with §4.4 of Castro-Liskov: a batch that prepared with S_R keeps its
  // random number across a view change — the certificate carries S_R and the new primary re-proposes it.
  @Test
  public void aPreparedSetSurvivesAViewChange() {
    for (boolean hardened : new boolean[] {false, true}) {
      Cluster g = group(hardened);
      g.hold = m -> kind(m, Kind.COMMIT);
      g.submit(true);
      List<byte[]> before = g.replicas[2].contributions.randoms(1);
      assertNotNull("prepared before the view change", before);
      g.tickUntil(x -> Arrays.stream(x.replicas).allMatch(r -> r.view() >= 1 && r.isActive()), 3000);
      g.hold = m -> false;
      g.held.clear();
      g.tickUntil(x -> x.executed.stream().allMatch(e -> e.size() == 1), 3000);
      for (int i = 0; i < 4; i++) {
        assertArrayEquals(before.get(0), g.executed.get(i).get(0).randoms().get(0));
      }
    }
  }

  // Reference: docs/design/cryptography.md "BA algorithm: known weaknesses" — hardened variant: a reveal must open the
  // commitment fixed in the set; a member that never reveals leaves the slot unprepared (no substitute).
  @Test
  public void hardenedRevealsMustOpenTheirCommitments() {
    Cluster g = group(true);
    // Replica 1 (a member of the primary's set: its commitment arrives first) withholds its reveals:
    // nothing prepares, and nothing substitutes for its value.
    g.hold = m -> m.from() == 1 && kind(m, Kind.PP_UPDATE)
        && PpUpdate.decode(Signed.decode(m.bytes()).body()).type() == PpUpdate.Type.REVEAL;
    g.submit(true);
    assertFalse("replica 1 revealed", g.held.isEmpty());
    for (int i = 0; i < 4; i++) {
      assertEquals(0, g.executed.get(i).size());
      if (i != 1) {
        assertEquals(null, g.replicas[i].contributions.randoms(1));
      }
    }
    // A reveal that does not open the commitment: evidence, still nothing.
    Signed real = Signed.decode(g.held.get(0).bytes());
    PpUpdate u = PpUpdate.decode(real.body());
    Signed other = Signed.sign(Kind.PP_UPDATE, 1, PpUpdate.values(PpUpdate.Type.REVEAL, u.view(), u.seq(), u.digest(),
        List.of(value(8)), u.nonce()).encode(), g.signers.get(1));
    g.handle(2, g.replicas[2].receive(other.encode()));
    assertTrue(g.evidenceAt(2, -1, "does not open its commitment"));
    assertEquals(0, g.executed.get(2).size());
    g.hold = m -> false;
    g.release(m -> true);
    for (int i = 0; i < 4; i++) {
      assertEquals(1, g.executed.get(i).size());
    }
    // The certificate itself: a reveal swapped for one that does not open its commitment fails the check.
    Event.RandomnessAgreed ra = g.eventsOf(0, Event.RandomnessAgreed.class).get(0);
    PpUpdate set = PpUpdate.decode(ra.certificate().body());
    List<Signed> reveals = new ArrayList<>(set.reveals());
    Signed rv = reveals.get(0);
    PpUpdate ru = PpUpdate.decode(rv.body());
    reveals.set(0, Signed.sign(Kind.PP_UPDATE, rv.sender(), PpUpdate.values(PpUpdate.Type.REVEAL, ru.view(), ru.seq(),
        ru.digest(), List.of(value(4)), ru.nonce()).encode(), g.signers.get(rv.sender())));
    Signed forged = Signed.of(Kind.PP_UPDATE, 0, PpUpdate.set(set.view(), set.seq(), set.digest(), set.set(), reveals).encode(),
        new byte[0]);
    try {
      BaRandomness.checkCertificate(forged, ra.seq(), ra.batchDigest(), g.replicas[0].log.get(1L).committedBatch, RandomizedOperations.AS_FLAGGED, 4, 1, true,
          s -> s.verify(g.verifier));
      fail("a reveal that opens no commitment was accepted");
    } catch (IllegalArgumentException expected) {
      assertTrue(expected.getMessage().contains("opens no commitment"));
    }
  }
}
