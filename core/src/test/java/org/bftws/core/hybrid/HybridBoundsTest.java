package org.bftws.core.hybrid;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.Random;
import java.util.Set;
import org.bftws.core.async.Pid;
import org.bftws.core.crypto.Signer;
import org.bftws.core.message.Request;
import org.bftws.core.message.hybrid.LaneFetch;
import org.bftws.core.message.hybrid.LaneVote;
import org.bftws.core.testkit.TestKeys;
import org.junit.Test;

/** What a long epoch keeps, whatever a Byzantine replica sends: bounded by the lane's window. */
public class HybridBoundsTest {
  private static final int TIMEOUT = 20;

  // Reference: Castro-Liskov §4.3 (garbage collection), BDT's Bolt (the lane's window)
  @Test
  public void aLongEpochWithAFaultyReplicaVotingOnEverySeqKeepsItsVotesAndBatchesWithinTheWindow() {
    HybridGroup g = new HybridGroup(4, 1, 1, Set.of(3), HybridGroup.fifo(), HybridGroup.config(TIMEOUT));
    Signer faulty = TestKeys.seeded(g.n + 8, g.seed).signer(3); // HybridGroup's keys: replica 3's own signer
    Pid lane = HybridReplica.ROOT.child(0);
    int window = g.cfg.logWindow();
    Random rng = new Random(7);
    long forgedUpTo = 0;
    int mostVotes = 0;
    int mostEntries = 0;
    int mostBlocks = 0;
    for (int k = 0; k < 300; k++) {
      long top = g.replica(0).deliveredSeq() + window;
      for (long seq = forgedUpTo + 1; seq <= top; seq++) { // a signed PREPARE and a COMMIT on a digest of its own
        byte[] d = new byte[32];
        rng.nextBytes(d);
        byte[] share = faulty.sign(lane.bind("prepare", LaneVote.prepared(seq, d)));
        g.forge(3, 0, lane.child(seq), Epoch.Type.PREPARE.code(), new LaneVote(seq, d, share).encode());
        g.forge(3, 0, lane.child(seq), Epoch.Type.COMMIT.code(), new LaneVote(seq, d, new byte[0]).encode());
      }
      forgedUpTo = top;
      Request q = g.request(k % 2);
      g.await(() -> g.executedEverywhere(q), 10 * TIMEOUT);
      mostVotes = Math.max(mostVotes, g.replica(0).laneVotes());
      mostEntries = Math.max(mostEntries, g.replica(0).laneEntries());
      mostBlocks = Math.max(mostBlocks, g.replica(0).blocksHeld());
    }
    g.assertAgreement();
    assertEquals("one epoch throughout", 0, g.replica(0).view());
    assertTrue("delivered " + g.replica(0).deliveredSeq(), g.replica(0).deliveredSeq() >= 300 / 8);
    // votes are taken for seqs within a window either side of the delivered seq: at most a PREPARE and a
    // COMMIT per sender and seq
    int perSeq = 2 * g.n;
    assertTrue("votes " + mostVotes, mostVotes <= perSeq * 2 * window);
    // each vote is held twice (by sender, by digest), plus per seq a batch, a prepared slot, its
    // certificate and two marks
    assertTrue("entries " + mostEntries, mostEntries <= (2 * perSeq + 5) * 2 * window);
    // batches above the stable checkpoint, at most the window ahead of the delivered seq
    assertTrue("blocks " + mostBlocks, mostBlocks <= window + 2 * g.cfg.checkpointInterval());
  }

  // Bounds on what a Byzantine replica chooses: FETCHes of the long-lived block store, each new bytes
  @Test
  public void aFloodOfFetchesIsAnsweredWithoutBeingRemembered() {
    HybridGroup g = new HybridGroup(4, 1, 1, Set.of(3), HybridGroup.fifo(), HybridGroup.config(TIMEOUT));
    Request first = g.request(0);
    g.await(() -> g.executedEverywhere(first), 10 * TIMEOUT);
    int before = g.replica(0).remembered();
    Random rng = new Random(11);
    for (int attempt = 0; attempt < 2000; attempt++) {
      byte[] d = new byte[32];
      rng.nextBytes(d);
      g.forge(3, 0, Blocks.PID, Blocks.Type.FETCH.code(), new LaneFetch(1 + rng.nextInt(64), d, attempt).encode());
    }
    g.run();
    assertTrue("remembered " + before + " then " + g.replica(0).remembered(), g.replica(0).remembered() <= before);
    Request next = g.request(1);
    g.await(() -> g.executedEverywhere(next), 10 * TIMEOUT);
    g.assertAgreement();
  }
}
