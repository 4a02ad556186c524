package org.bftws.core.hybrid;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.bftws.core.engine.Journal;
import org.bftws.core.message.Request;
import org.junit.Test;

/**
 * The hybrid engine's journal (restart with state): a replica restarted from it reinstalls its stable
 * checkpoint, sends in each lane slot and each epoch's SWITCH only what it sent there before its crash, and
 * catches up with the group; one restarted without it (the forgetful control) is caught sending a second
 * SWITCH in an epoch; a damaged journal is refused.
 */
public class HybridJournalTest {
  private static final int TIMEOUT = 20;

  private static HybridGroup group(long seed, Set<Integer> absent) {
    return new HybridGroup(4, 1, seed, absent, HybridGroup.fifo(), HybridGroup.config(TIMEOUT)).journaled();
  }

  private static void oneByOne(HybridGroup g, int count) {
    for (int k = 0; k < count; k++) {
      Request q = g.request(k % 3);
      g.await(() -> g.executedEverywhere(q), 10 * TIMEOUT);
    }
  }

  // Reference: Castro-Liskov TOCS 2002 §4.3 (the log and the stable checkpoint survive a reboot) and §4.2 (one
  // PREPARE and one COMMIT per slot): replica 2's votes in a slot are lost and it crashes; restarted from its
  // journal it reinstalls its stable checkpoint, resends those votes as they were, and executes what the
  // group executed
  @Test
  public void replicaRestartedMidEpochReinstallsItsCheckpointResendsItsVotesAndCatchesUp() {
    for (long seed = 0; seed < 3; seed++) {
      HybridGroup g = group(seed, Set.of());
      oneByOne(g, 18);
      long stable = g.replica(2).stableCheckpoint();
      assertTrue("a stable checkpoint to reinstall, seed " + seed, stable >= 8);
      g.cut((from, to, what) -> from == 2);
      Request lost = g.request(0);
      g.await(() -> g.replica(0).lastExecuted() > 0 && g.executedAt(lost) >= 3, 10 * TIMEOUT);
      g.down(2, true);
      g.cut((from, to, what) -> false);
      g.down(2, false);
      g.restartJournaled(2, false);
      assertEquals("its stable checkpoint reinstalled, seed " + seed, stable, g.replica(2).lastExecuted());
      assertEquals("in the checkpoint's epoch, seed " + seed, 0, g.replica(2).view());
      Request after = g.request(1);
      g.await(() -> g.executedEverywhere(after)
          && g.replica(2).lastExecuted() == g.replica(0).lastExecuted(), 40 * TIMEOUT);
      for (int i = 0; i < 4; i++) {
        assertNull("replica " + i + " sent two messages in one slot, seed " + seed, g.contradiction(i));
        assertTrue("evidence at " + i + ", seed " + seed + ": " + g.evidence.get(i), g.evidence.get(i).isEmpty());
      }
    }
  }

  // Reference: BDT's Transformer (a replica sends no PREPARE or COMMIT after its SWITCH, and one SWITCH per
  // epoch) and SINTRA §2 (a party that says two things in one slot is corrupted): the leader is gone, replica 3
  // switched with the pending request and crashed before its SWITCH arrived anywhere; restarted from its
  // journal it leaves the lane at once with the same SWITCH, and the fallback, which needs it, orders the
  // request; restarted forgetful, it switches again with another SWITCH and is caught
  @Test
  public void replicaRestartedMidFallbackSendsItsSwitchAgainWhereTheForgetfulOneSignsAnother() {
    for (boolean forgetful : new boolean[] {false, true}) {
      for (long seed = 0; seed < 3; seed++) {
        HybridGroup g = group(seed, Set.of(0));
        g.cut((from, to, what) -> from == 3);
        Request q = g.request(0);
        g.runUntil(() -> !g.replica(3).isActive() && !g.replica(1).isActive(), 10 * TIMEOUT);
        assertTrue("replica 3 switched, seed " + seed, !g.replica(3).isActive());
        assertEquals("the fallback waits for replica 3's SWITCH, seed " + seed, 0, g.replica(1).lastExecuted());
        g.cut((from, to, what) -> false);
        g.restartJournaled(3, forgetful);
        if (!forgetful) {
          assertTrue("switched at once, its SWITCH promised, seed " + seed, !g.replica(3).isActive());
        }
        g.runUntil(() -> g.contradiction(3) != null || g.executedEverywhere(q), 20 * TIMEOUT);
        if (forgetful) {
          assertNotNull("the forgetful replica sent a second SWITCH in epoch 0, seed " + seed, g.contradiction(3));
          assertEquals("hyb/0 SWITCH", g.contradiction(3));
          continue;
        }
        assertNull("no second message in a slot, seed " + seed, g.contradiction(3));
        assertTrue("the fallback ordered the request, seed " + seed, g.executedEverywhere(q));
        Request next = g.request(1);
        g.await(() -> g.executedEverywhere(next), 20 * TIMEOUT);
        for (int i = 1; i < 4; i++) {
          assertTrue("evidence at " + i + ", seed " + seed + ": " + g.evidence.get(i), g.evidence.get(i).isEmpty());
        }
      }
    }
  }

  // Reference: Castro-Liskov §4.2 (the primary's pre-prepare is its prepare) and TOCS 2002 §4.3 (the log
  // survives a reboot): the leader's PROPOSE, which carries its prepare share, is lost with the leader;
  // restarted from its journal it proposes in that slot the same batch with the same share, sends no PREPARE,
  // and the group orders the request; restarted forgetful, it proposes another batch in a slot it had
  // proposed in and is caught
  @Test
  public void leaderRestartedFromItsJournalProposesTheSameBatchAndShareAgain() {
    for (boolean forgetful : new boolean[] {false, true}) {
      for (long seed = 0; seed < 3; seed++) {
        HybridGroup g = group(seed, Set.of());
        oneByOne(g, 3);
        g.cut((from, to, what) -> from == 0);
        Request lost = g.request(0);
        g.run();
        assertEquals("the leader's PROPOSE is lost, seed " + seed, 3, g.replica(1).lastExecuted());
        g.down(0, true);
        List<String> leaderPrepares = new ArrayList<>();
        g.cut((from, to, what) -> {
          if (from == 0 && what.equals("hyb/0 PREPARE")) {
            leaderPrepares.add(what);
          }
          return false;
        });
        g.down(0, false);
        g.restartJournaled(0, forgetful);
        Request next = g.request(1);
        g.runUntil(() -> g.contradiction(0) != null || g.executedEverywhere(lost) && g.executedEverywhere(next),
            40 * TIMEOUT);
        if (forgetful) {
          assertNotNull("the forgetful leader proposed again in a slot, seed " + seed, g.contradiction(0));
          assertTrue(g.contradiction(0), g.contradiction(0).endsWith("PROPOSE"));
          continue;
        }
        assertNull("no second message in a slot, seed " + seed, g.contradiction(0));
        assertTrue("both requests ordered, seed " + seed, g.executedEverywhere(lost) && g.executedEverywhere(next));
        assertTrue("the leader sent PREPAREs in its epoch, seed " + seed, leaderPrepares.isEmpty());
        g.assertAgreement();
        for (int i = 0; i < 4; i++) {
          assertTrue("evidence at " + i + ", seed " + seed + ": " + g.evidence.get(i), g.evidence.get(i).isEmpty());
        }
      }
    }
  }

  // Reference: Castro-Liskov TOCS 2002 §4.3: a replica that cannot trust its log must not start on it
  @Test
  public void damagedJournalIsRefused() {
    HybridGroup g = group(1, Set.of());
    oneByOne(g, 10);
    g.cut((from, to, what) -> from == 2);
    g.request(0);
    g.runUntil(() -> false, TIMEOUT);
    List<Journal.Record> journal = g.journals.get(2);
    Journal.Record signed = journal.stream().filter(r -> r.type() == Journal.Type.SIGNED).reduce((a, b) -> b)
        .orElseThrow();
    List<List<Journal.Record>> damaged = new ArrayList<>();
    byte[] flipped = signed.body().clone();
    flipped[flipped.length - 1] ^= 1;
    damaged.add(replace(journal, signed, new Journal.Record(Journal.Type.SIGNED, signed.seq(), flipped)));
    damaged.add(replace(journal, signed, new Journal.Record(Journal.Type.SIGNED, signed.seq() + 1, signed.body())));
    damaged.add(replace(journal, signed, new Journal.Record(Journal.Type.VIEW_SIGNED, signed.seq(), signed.body())));
    damaged.add(replace(journal, signed, new Journal.Record(Journal.Type.PREPARED, signed.seq(), signed.body())));
    for (List<Journal.Record> records : damaged) {
      g.restart(2);
      HybridReplica r = g.replica(2);
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> r.recover(records));
      assertTrue(e.getMessage(), e.getMessage().startsWith("journal:"));
    }
  }

  private static List<Journal.Record> replace(List<Journal.Record> journal, Journal.Record old, Journal.Record by) {
    List<Journal.Record> copy = new ArrayList<>(journal);
    copy.set(copy.indexOf(old), by);
    return copy;
  }
}
