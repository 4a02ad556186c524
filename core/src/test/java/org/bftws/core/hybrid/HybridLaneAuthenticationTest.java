package org.bftws.core.hybrid;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import org.bftws.core.async.Pid;
import org.bftws.core.message.Request;
import org.bftws.core.message.hybrid.LaneBatch;
import org.bftws.core.message.hybrid.LaneVote;
import org.junit.Test;

/**
 * The fast lane's authentication: with MACs ({@code bftws.authentication=macs}) PROPOSE, PREPARE and COMMIT are
 * accepted by their authenticators and a replica verifies only the prepare shares its certificate holds
 * (Castro-Liskov TOCS 2002 §3.2), so a timely leader's lane costs about PBFT's normal case in signature checks.
 */
public class HybridLaneAuthenticationTest {
  private static final int TIMEOUT = 20;
  private static final int CALLS = 40;

  /** Verifications per delivered batch at replica {@code r}, one request per batch (a closed-loop client). */
  private static double verificationsPerBatch(boolean macs, int r) {
    HybridGroup g = new HybridGroup(4, 1, 1, Set.of(), HybridGroup.fifo(), HybridGroup.config(TIMEOUT), false, macs);
    Request warm = g.request(0);
    g.await(() -> g.executedEverywhere(warm), 10 * TIMEOUT);
    long before = g.verifications[r];
    long seqBefore = g.replica(r).deliveredSeq();
    for (int k = 0; k < CALLS; k++) {
      Request q = g.request(0);
      g.await(() -> g.executedEverywhere(q), 10 * TIMEOUT);
    }
    g.assertAgreement();
    assertEquals("no fallback", 0, g.replica(r).fallbacks());
    return (double) (g.verifications[r] - before) / (g.replica(r).deliveredSeq() - seqBefore);
  }

  // Reference: Castro-Liskov TOCS 2002 §3.2 (authenticators), §4.2 (normal case); BDT's Bolt
  @Test
  public void withMacsALaneBatchCostsTheRequestAndTheCertificatesSharesInVerifications() {
    for (int r : new int[] {0, 1}) {
      double signatures = verificationsPerBatch(false, r);
      double macs = verificationsPerBatch(true, r);
      System.out.printf("hybrid lane, replica %d: %.2f signature verifications per batch with signatures, %.2f with MACs%n",
          r, signatures, macs);
      // the request's signature, q-1 = 2 prepare shares (this replica's own is not checked) and the peers'
      // checkpoint votes, 3 every 8 seqs (HybridGroup.config's interval)
      assertTrue("replica " + r + ": " + macs + " per batch with MACs", macs <= 1 + 2 + 3.0 / 8 + 1e-9);
      assertTrue("replica " + r + ": " + signatures + " per batch with signatures", signatures >= macs + 4);
    }
  }

  // Reference: Castro-Liskov TOCS 2002 §3.2 (a valid MAC on a bad signature names its sender), §4.2
  @Test
  public void aPrepareWithAValidMacAndABadShareIsNamedAndTheSlotPreparesOnTheCorrectReplicasShares() {
    HybridGroup g = new HybridGroup(4, 1, 1, Set.of(3), HybridGroup.fifo(), HybridGroup.config(TIMEOUT), false, true);
    Request first = g.request(0);
    g.await(() -> g.executedEverywhere(first), 10 * TIMEOUT);
    String top = g.committed.get(0).get(1L);
    byte[] d1 = HexFormat.of().parseHex(top.substring(top.indexOf(':') + 1));
    Request q = new Request(g.n + 1, "seq-bad-share", 1, false, "op".getBytes(StandardCharsets.US_ASCII));
    byte[] d2 = new LaneBatch(2, d1, List.of(g.signed(q).encode())).digest();
    g.send(q);
    Pid slot = HybridReplica.ROOT.child(0).child(2);
    for (int to : new int[] {1, 2}) { // its MAC checks, its share does not: it arrives before the leader's PROPOSE
      g.forgeAuthenticated(3, to, slot, Epoch.Type.PREPARE.code(), new LaneVote(2, d2, new byte[64]).encode());
    }
    g.await(() -> g.executedEverywhere(q), 10 * TIMEOUT);
    g.assertAgreement();
    for (int r : new int[] {1, 2}) {
      assertTrue("replica " + r + " names 3: " + g.evidence.get(r), g.evidence.get(r).stream()
          .anyMatch(e -> e.node() == 3 && e.what().contains("bad PREPARE share for seq 2")));
      assertEquals("replica " + r + " stays in the lane", 0, g.replica(r).fallbacks());
    }
  }
}
