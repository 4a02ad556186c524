package org.bftws.core.pbft;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.bftws.core.config.GroupConfig;
import org.bftws.core.crypto.threshold.SchemeId;
import org.bftws.core.crypto.threshold.ThresholdParams;
import org.bftws.core.crypto.threshold.Thresholds;
import org.bftws.core.engine.Event;
import org.bftws.core.message.Kind;
import org.bftws.core.message.PrePrepare;
import org.bftws.core.message.Signed;
import org.bftws.core.replication.RandomizedOperations;
import org.junit.Test;

/**
 * Integrity paper §4: "the primary checks whether the operation is randomized"; a backup verifies it, and
 * refusing needless work is a DoS defence. The embedding's {@link RandomizedOperations} decides — here
 * "operations whose name starts with deal" — for both algorithms (BA and CT), on four replicas (f = 1).
 */
public class RandomizedOperationsTest {
  private static final RandomizedOperations DEALS =
      q -> new String(q.operation(), StandardCharsets.US_ASCII).startsWith("deal");

  /** Four replicas running BA or CT (CKS), "deal…" operations randomized, and the raw client. */
  private static Cluster group(boolean ct) {
    Cluster.Randomness r = ct ? Cluster.Randomness.ct(Thresholds.scheme(SchemeId.CKS), ThresholdParams.forF(1))
        : Cluster.Randomness.ba(false);
    return new Cluster(GroupConfig.defaults(), r.withOperations(DEALS));
  }

  // §4: the replicas, not the client's flag, decide: an unflagged "deal" gets a random number (the same at
  // every replica), a correctly unflagged "echo" none.
  @Test
  public void theEmbeddingDecidesWhichRequestsAreRandomizedBa() {
    embeddingDecides(false);
  }

  @Test
  public void theEmbeddingDecidesWhichRequestsAreRandomizedCt() {
    embeddingDecides(true);
  }

  private void embeddingDecides(boolean ct) {
    Cluster g = group(ct);
    g.toReplicas(g.request("deal-1", false), 0, 1, 2, 3);
    g.toReplicas(g.request("echo-2", false), 0, 1, 2, 3);
    g.deliverAll();
    byte[] first = g.randomOf(0, "deal-1");
    assertEquals(32, first.length);
    for (int i = 0; i < 4; i++) {
      assertTrue("replica " + i, java.util.Arrays.equals(first, g.randomOf(i, "deal-1")));
      assertEquals("replica " + i, 0, g.randomOf(i, "echo-2").length);
      assertTrue(g.eventsOf(i, Event.Evidence.class).toString(), g.eventsOf(i, Event.Evidence.class).isEmpty());
    }
  }

  // §4 DoS defence: a request flagged randomized for an operation that is not is refused by every
  // replica (the primary does not batch it; nobody keeps it pending, so no view-change timer runs for it),
  // and the client is named in evidence.
  @Test
  public void aNeedlesslyRandomizedRequestIsRefusedEverywhere() {
    for (boolean ct : new boolean[] {false, true}) {
      Cluster g = group(ct);
      g.toReplicas(g.request("echo-1", true), 0, 1, 2, 3);
      g.deliverAll();
      g.tick(GroupConfig.defaults().get(GroupConfig.VIEW_CHANGE_TIMEOUT) * 2);
      assertEquals(0, g.sentOfKind(Kind.PRE_PREPARE));
      for (int i = 0; i < 4; i++) {
        Replica r = g.replicas[i];
        assertEquals(0, r.pendingRequests());
        assertEquals(0, r.view());
        assertTrue(g.executed.get(i).isEmpty());
        assertTrue(g.eventsOf(i, Event.Evidence.class).toString(), g.evidenceAt(i, g.rawClient(), "flagged randomized"));
      }
      // A correctly flagged one is served as usual.
      g.toReplicas(g.request("deal-2", true), 0, 1, 2, 3);
      g.deliverAll();
      for (int i = 0; i < 4; i++) {
        assertEquals(32, g.randomOf(i, "deal-2").length);
      }
    }
  }

  // §4 with a Byzantine primary that batches such a request (colluding with the client): no backup
  // prepares, each names the primary, and the view change puts an honest primary in charge, which orders
  // the pending honest request; the refused one never executes.
  @Test
  public void aPrePrepareBatchingOneIsRefusedAndTheViewChangeRecovers() {
    for (boolean ct : new boolean[] {false, true}) {
      Cluster g = group(ct);
      g.drop = m -> m.from() == 0; // the primary's own messages are lost
      Signed honest = g.request("deal-1", true);
      Signed needless = g.request("echo-2", true);
      g.toReplicas(honest, 1, 2, 3);
      g.deliverAll();
      PrePrepare pp = PrePrepare.of(0, 1, List.of(honest, needless));
      Signed forged = Signed.sign(Kind.PRE_PREPARE, 0, pp.encode(), g.signers.get(0));
      g.toReplicas(forged, 1, 2, 3);
      g.deliverAll();
      assertEquals("no backup prepared", 0, g.sentOfKind(Kind.PREPARE));
      for (int i = 1; i < 4; i++) {
        assertTrue(g.eventsOf(i, Event.Evidence.class).toString(), g.evidenceAt(i, 0, "flagged randomized"));
      }
      g.tick(GroupConfig.defaults().get(GroupConfig.VIEW_CHANGE_TIMEOUT) * 4);
      for (int i = 1; i < 4; i++) {
        assertTrue("replica " + i + " view " + g.replicas[i].view(), g.replicas[i].view() >= 1);
        assertEquals(32, g.randomOf(i, "deal-1").length);
        assertEquals(null, g.randomOf(i, "echo-2"));
        assertFalse(g.replicas[i].pendingRequests() > 0);
      }
    }
  }
}
