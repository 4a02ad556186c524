package org.bftws.core.pbft;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.bftws.core.crypto.Authentication;
import org.bftws.core.message.Kind;
import org.bftws.core.message.Signed;
import org.bftws.core.testkit.EngineHarness;
import org.junit.Test;

/**
 * {@code bftws.authentication=macs}: prepares and commits accepted by their authenticator (Castro-Liskov TOCS
 * 2002 §3.2), prepares' signatures checked only when they go into a prepared certificate, commits' never;
 * certificates stay signed, so view changes work as with signatures (§4.4).
 */
public class MacAuthenticationTest {
  private static final String BAD_SIGNATURE = "prepare with a valid authenticator and a bad signature";

  private static Cluster macs() {
    return new Cluster(GroupConfigs.withOutstanding(2), 1, Cluster.Randomness.NONE, Authentication.MACS);
  }

  private static boolean from(EngineHarness.Msg m, int sender, Kind kind) {
    return m.from() == sender && Cluster.kind(m) == kind;
  }

  /** {@code m} as its sender's keys allow a Byzantine sender to make it: a zero signature, a valid MAC. */
  private static byte[] badSignatureValidMac(Cluster c, EngineHarness.Msg m) {
    Signed s = Signed.decode(m.bytes());
    Signed forged = Signed.of(s.kind(), s.sender(), s.body(), new byte[64]);
    return Signed.wire(forged, c.keys.authenticators(s.sender(), c.n).authenticator(forged.digest()));
  }

  @Test
  public void groupWithMacsOrdersExecutesAndAnswers() {
    Cluster c = macs();
    for (int k = 0; k < 10; k++) {
      c.invoke("op-" + k);
      c.deliverAll();
    }
    for (int i = 0; i < c.n; i++) {
      assertEquals("replica " + i, 10, c.operations(i).size());
      assertEquals(c.operations(0), c.operations(i));
    }
    assertEquals(10, c.delivered.size());
    for (EngineHarness.Msg m : c.sent) {
      Kind k = Cluster.kind(m);
      if (k == Kind.PREPARE || k == Kind.COMMIT) {
        assertNotNull(k + " carries an authenticator", Signed.decode(m.bytes()).authenticator());
      } else if (k == Kind.PRE_PREPARE || k == Kind.CHECKPOINT) {
        assertNull(k + " is signed only", Signed.decode(m.bytes()).authenticator());
      }
    }
  }

  // Commits never go into a certificate: their MAC is all a replica checks. Replica 2's commits are lost,
  // so every replica needs replica 3's, whose signatures are zeros.
  @Test
  public void commitsCountByTheirMacAlone() {
    Cluster c = macs();
    c.drop = m -> from(m, 2, Kind.COMMIT);
    c.hold = m -> from(m, 3, Kind.COMMIT);
    c.invoke("op");
    c.deliverAll();
    assertTrue(c.operations(0).isEmpty());
    for (EngineHarness.Msg m : takeHeld(c)) {
      c.deliver(m.to(), badSignatureValidMac(c, m));
    }
    c.deliverAll();
    for (int i : new int[] {0, 1}) {
      assertEquals("replica " + i, List.of("op"), c.operations(i));
    }
  }

  // A prepare with a valid MAC and a bad signature would make the prepared certificate worthless in a view
  // change: it is checked before the certificate is formed, dropped, its sender named, and another taken.
  @Test
  public void preparesWithBadSignaturesAreNamedAndNotCertified() {
    Cluster c = macs();
    c.hold = m -> from(m, 2, Kind.PREPARE) || from(m, 3, Kind.PREPARE);
    c.invoke("op");
    c.deliverAll();
    List<EngineHarness.Msg> held = takeHeld(c);
    for (EngineHarness.Msg m : held) {
      if (m.from() == 3) {
        c.deliver(m.to(), badSignatureValidMac(c, m));
      }
    }
    c.deliverAll();
    assertTrue("not prepared on a forged signature", c.operations(0).isEmpty());
    assertTrue(c.evidenceAt(0, 3, BAD_SIGNATURE));
    assertTrue(c.evidenceAt(1, 3, BAD_SIGNATURE));
    for (EngineHarness.Msg m : held) {
      if (m.from() == 2) {
        c.deliver(m.to(), m.bytes());
      }
    }
    c.deliverAll();
    for (int i = 0; i < c.n; i++) {
      assertEquals("replica " + i, List.of("op"), c.operations(i));
    }
    // The certificates formed are valid: a view change carries the next batch's.
    preparedBatchIsCarriedIntoView1(c, List.of("op"));
  }

  // Reference: §4.4 — as ViewChangeTest#preparedBatchIsCarriedIntoTheNewView, with authenticators.
  @Test
  public void preparedBatchIsCarriedIntoTheNewView() {
    preparedBatchIsCarriedIntoView1(macs(), List.of());
  }

  /** Commits of view 0 lost, then primary 0 down: batch "prepared-only" executes after {@code before} in view 1. */
  private static void preparedBatchIsCarriedIntoView1(Cluster c, List<String> before) {
    c.drop = ViewChangeTest::commitOfViewZero;
    c.invoke("prepared-only");
    c.deliverAll();
    c.isolate(0);
    c.tick(500);
    List<String> expected = new ArrayList<>(before);
    expected.add("prepared-only");
    for (int i = 1; i < c.n; i++) {
      assertEquals("replica " + i, expected, c.operations(i));
      assertEquals(1, c.replicas[i].view());
    }
  }

  // An authenticator lost or damaged on the way (or never attached): the signature still authenticates.
  @Test
  public void votesWithoutAValidMacCountByTheirSignature() {
    Cluster c = macs();
    c.drop = m -> from(m, 2, Kind.COMMIT) || from(m, 2, Kind.PREPARE);
    c.hold = m -> from(m, 3, Kind.COMMIT) || from(m, 3, Kind.PREPARE);
    c.invoke("op");
    c.deliverAll();
    for (EngineHarness.Msg m : takeHeld(c)) {
      c.deliver(m.to(), Signed.decode(m.bytes()).encode());
    }
    c.deliverAll();
    for (int i : new int[] {0, 1}) {
      assertEquals("replica " + i, List.of("op"), c.operations(i));
      assertFalse(c.evidenceAt(i, 3, "bad signature"));
    }
  }

  private static List<EngineHarness.Msg> takeHeld(Cluster c) {
    c.hold = m -> false;
    List<EngineHarness.Msg> held = new ArrayList<>(c.held);
    c.held.clear();
    return held;
  }
}
