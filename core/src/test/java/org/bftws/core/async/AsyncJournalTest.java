package org.bftws.core.async;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.bftws.core.codec.ByteWriter;
import org.bftws.core.engine.Journal;
import org.bftws.core.message.Kind;
import org.bftws.core.message.Request;
import org.bftws.core.message.RequestId;
import org.bftws.core.message.Signed;
import org.junit.Test;

/**
 * The asynchronous engine's journal (restart with state) and its catch-up in an idle group: a replica
 * restarted from its journal never says in a slot of a protocol instance something other than what it said
 * there before the crash, and comes back to deliver with the group; one restarted without it (the forgetful
 * control) is caught contradicting itself.
 */
public class AsyncJournalTest {
  private static final List<Integer> ALL4 = List.of(0, 1, 2, 3);

  private static void oneByOne(AsyncCluster c, int count) {
    for (int k = 0; k < count; k++) {
      c.request(k % c.clients, ALL4);
      c.run();
    }
  }

  private static List<RequestId> ids(AsyncCluster c, int i) {
    return c.executed.get(i).stream().map(Request::id).toList();
  }

  /** Ticks, the network running to quiescence after each, until replica i executed {@code seq}; at most max. */
  private static void tickUntilExecuted(AsyncCluster c, int i, long seq, int max) {
    for (int t = 0; t < max && c.replica(i).lastExecuted() < seq; t++) {
      c.tickAndRun(1);
    }
    assertEquals("replica " + i + " caught up: " + c.replica(i).describe() + ", seed " + c.seed, seq,
        c.replica(i).lastExecuted());
  }

  // Reference: SINTRA §2.5 (a party signs one proposal per round) and §2 (a party that signs two is
  // corrupted): replica 3 proposed request A in round 1, nobody received it, and it crashed; restarted, it
  // proposes A again, where the forgetful replica, holding nothing, adopts its peers' batch and signs another
  // round-1 proposal
  @Test
  public void restartedReplicaProposesWhatItProposedBeforeWhereTheForgetfulOneSignsAnother() {
    for (boolean forgetful : new boolean[] {false, true}) {
      for (long seed = 0; seed < 3; seed++) {
        AsyncCluster c = new AsyncCluster(4, 1, 2, seed, Set.of(), 4).journaled();
        c.lose((from, to, s) -> from == 3);
        RequestId a = Request.decode(c.request(0, List.of(3)).body()).id();
        c.run();
        assertEquals("replica 3 journaled its round-1 proposal", 1, c.everSigned.get(3).size());
        c.lose((from, to, s) -> false);
        if (forgetful) {
          c.restartForgetful(3);
        } else {
          c.restartFromJournal(3);
          assertEquals("its proposal, promised, seed " + seed, 1, c.replica(3).promises());
        }
        RequestId b = Request.decode(c.request(1, List.of(0, 1, 2)).body()).id();
        c.run();
        c.tickAndRun(4 * AsyncCluster.RETRANSMIT_TICKS);
        String contradiction = c.contradiction(3);
        if (forgetful) {
          assertNotNull("the forgetful replica signed a second round-1 proposal, seed " + seed, contradiction);
          assertTrue(contradiction, contradiction.startsWith("abc/1#"));
          continue;
        }
        assertNull("no slot with two messages, seed " + seed, contradiction);
        long last = c.replica(0).lastExecuted();
        for (int i = 0; i < 4; i++) {
          assertEquals("executed the same at " + i + ", seed " + seed, ids(c, 0), ids(c, i));
          assertEquals(last, c.replica(i).lastExecuted());
        }
        assertTrue("B executed, seed " + seed, ids(c, 0).contains(b));
        assertTrue("A, proposed again by replica 3, executed, seed " + seed, ids(c, 0).contains(a));
      }
    }
  }

  // Reference: SINTRA §2.2-2.5 (echoes, readies, signature shares, votes, coin shares and decisions are each
  // one per slot) and Castro-Liskov TOCS 2002 §4.3 (the log survives a reboot): a replica killed at a random
  // point of a round (mid-broadcast, mid-agreement) and restarted from its journal contradicts none of its
  // messages, and the group, it included, goes on to execute the same requests
  @Test
  public void replicaKilledAtARandomPointAndRestartedFromItsJournalStaysCorrect() {
    int promised = 0;
    int seeds = 24;
    for (long seed = 0; seed < seeds; seed++) {
      Random rng = new Random(seed);
      AsyncCluster c = new AsyncCluster(4, 1, 3, seed, Set.of(), 4).journaled();
      int victim = rng.nextInt(4);
      oneByOne(c, rng.nextInt(7));
      for (int k = 0; k < 3; k++) {
        c.request(k, ALL4);
      }
      int steps = rng.nextInt(400);
      for (int s = 0; s < steps && c.step(); s++) {
        // the round runs until the kill
      }
      c.down(victim, true);
      for (int s = 0; s < rng.nextInt(200) && c.step(); s++) {
        // the others go on; what is sent to the victim is lost
      }
      c.down(victim, false);
      c.restartFromJournal(victim);
      int promisedHere = c.replica(victim).promises();
      promised += promisedHere > 0 ? 1 : 0;
      c.run();
      oneByOne(c, 3);
      long last = -1;
      for (int i = 0; i < 4; i++) {
        if (i != victim) {
          last = Math.max(last, c.replica(i).lastExecuted());
        }
      }
      tickUntilExecuted(c, victim, last, 40 * AsyncCluster.RETRANSMIT_TICKS);
      for (int i = 0; i < 4; i++) {
        assertNull("replica " + i + " (victim " + victim + ", promises " + promisedHere + ") contradicted itself, seed "
            + seed, c.contradiction(i));
        assertTrue("evidence at " + i + ", seed " + seed + ": " + c.evidence.get(i), c.evidence.get(i).isEmpty());
        tickUntilExecuted(c, i, last, 40 * AsyncCluster.RETRANSMIT_TICKS);
        if (i != victim) {
          assertArrayEquals("the same service state at " + i + ", seed " + seed, c.appState(victim), c.appState(i));
        }
      }
    }
    assertTrue("some kills fell inside a round (" + promised + " of " + seeds + ")", promised >= seeds / 4);
  }

  // Reference: Castro-Liskov TOCS 2002 §4.3 (restart from the stable checkpoint without a state transfer)
  // and §5.2 (status messages bring a replica up to date when the group is idle)
  @Test
  public void restartedAfterACheckpointItReinstallsItAndCatchesUpInAnIdleGroup() {
    for (long seed = 0; seed < 4; seed++) {
      AsyncCluster c = new AsyncCluster(4, 1, 2, seed, Set.of(), 4).journaled();
      oneByOne(c, 10);
      assertEquals(8, c.replica(3).stableCheckpoint());
      c.restartFromJournal(3);
      assertEquals("checkpoint 8 from the journal, seed " + seed, 8, c.replica(3).lastExecuted());
      assertEquals(8, c.replica(3).stableCheckpoint());
      c.run();
      assertEquals("no state transfer: installed from its own journal", List.of(8L), c.installed.get(3));
      tickUntilExecuted(c, 3, 10, 4 * AsyncCluster.RETRANSMIT_TICKS);
      assertArrayEquals("the same state without a new request, seed " + seed, c.appState(0), c.appState(3));
    }
  }

  // Reference: Castro-Liskov TOCS 2002 §5.2: a replica restarted empty into an idle group reaches the last
  // executed request (checkpoint 8 by state transfer, rounds 9 and 10 from its peers' answers to its status
  // asks) without a new request
  @Test
  public void replicaRestartedEmptyIntoAnIdleGroupReachesItsLastExecutedRequest() {
    for (long seed = 0; seed < 4; seed++) {
      AsyncCluster c = new AsyncCluster(4, 1, 2, seed, Set.of(), 4);
      oneByOne(c, 10);
      c.tickAndRun(6 * AsyncCluster.RETRANSMIT_TICKS); // the group has gone idle
      int[] asks = new int[1];
      c.watch((from, s) -> asks[0] += isStatusAsk(s) ? 1 : 0);
      c.restart(3);
      tickUntilExecuted(c, 3, 10, 12 * AsyncCluster.RETRANSMIT_TICKS);
      assertArrayEquals("seed " + seed, c.appState(0), c.appState(3));
      assertTrue("it asked to catch up, seed " + seed, asks[0] > 0);
      c.tickAndRun((AsyncReplica.STATUS_ASKS + 1) * AsyncCluster.RETRANSMIT_TICKS);
      int afterCatchUp = asks[0];
      c.tickAndRun(4 * AsyncCluster.RETRANSMIT_TICKS);
      assertEquals("status asks stop (" + afterCatchUp + " right after the catch-up), seed " + seed + ": "
          + c.replica(3).describe(), afterCatchUp, asks[0]);
    }
  }

  // Reference: SINTRA §2 (up to f parties are corrupted and send what they like): a faulty peer that plants one
  // message of a round nobody reaches keeps a replica "behind" for as long as the group is idle; its status
  // asks back off, logarithmic in the idle time instead of one per retransmission interval
  @Test
  public void aPlantedMessageOfALaterRoundCostsFewStatusAsks() {
    for (long seed = 0; seed < 2; seed++) {
      AsyncCluster c = new AsyncCluster(4, 1, 2, seed, Set.of(0), 4);
      oneByOne(c, 3);
      long round = c.replica(3).deliveredRound();
      AsyncMessage planted = new AsyncMessage(AsyncReplica.CHANNEL.child(round + 5),
          AtomicBroadcast.Type.PROPOSAL.code(), new byte[8]);
      c.post(0, 3, Signed.sign(Kind.ASYNC, 0, planted.encode(), c.signer(0)).encode());
      c.run();
      assertEquals("planted, seed " + seed, 1, c.replica(3).buffered());
      int[] asks = new int[1];
      c.watch((from, s) -> asks[0] += from == 3 && isStatusAsk(s) ? 1 : 0);
      int intervals = 256;
      c.tickAndRun(intervals * AsyncCluster.RETRANSMIT_TICKS);
      assertEquals("still there, seed " + seed, 1, c.replica(3).buffered());
      int rounds = asks[0] / 3; // one envelope to each peer per ask
      assertTrue("it asked beyond the first " + AsyncReplica.STATUS_ASKS + ": " + rounds + ", seed " + seed,
          rounds > AsyncReplica.STATUS_ASKS);
      assertTrue(rounds + " asks in " + intervals + " idle intervals, seed " + seed,
          rounds <= AsyncReplica.STATUS_ASKS + 1 + Integer.numberOfTrailingZeros(intervals));
    }
  }

  /** An envelope of the status asks' instance ({@link RoundStatus#PID}). */
  static boolean isStatusAsk(Signed s) {
    return s.kind() == Kind.ASYNC && AsyncMessage.decode(s.body()).pid().equals(RoundStatus.PID);
  }

  // Reference: Castro-Liskov TOCS 2002 §4.3 (garbage collection at the stable checkpoint): the journal keeps
  // the checkpoint and the rounds above it, so it stays bounded however long the group runs
  @Test
  public void journalStaysWithinTheRoundsAboveTheStableCheckpoint() {
    AsyncCluster c = new AsyncCluster(4, 1, 2, 7, Set.of(), 4).journaled();
    int most = 0;
    for (int k = 0; k < 40; k++) {
      oneByOne(c, 1);
      most = Math.max(most, c.journals.get(0).size());
    }
    long stable = c.replica(0).stableCheckpoint();
    assertEquals(40, stable);
    for (Journal.Record r : c.journals.get(0)) {
      assertTrue("nothing at or below the checkpoint but its record: " + r.type() + " " + r.seq(),
          r.type() == Journal.Type.STABLE || r.seq() > stable);
    }
    java.util.Map<Long, Integer> perRound = new java.util.HashMap<>();
    for (Journal.Record r : c.everSigned.get(0)) {
      perRound.merge(r.seq(), 1, Integer::sum);
    }
    int roundMost = perRound.values().stream().max(Integer::compare).orElseThrow();
    assertTrue("bounded: at most " + most + " records, two checkpoint intervals of at most " + roundMost
        + " per round", most <= 2 * 4 * roundMost + 1);
    assertTrue(most < c.everSigned.get(0).size() / 4);
  }

  // Reference: docs/journal.md: a damaged journal is refused, nothing is half-recovered
  @Test
  public void journalHoldingAnotherReplicasMessageIsRefused() {
    AsyncCluster c = new AsyncCluster(4, 1, 1, 3, Set.of(), 4).journaled();
    oneByOne(c, 2);
    List<Journal.Record> foreign = new ArrayList<>(c.journals.get(1));
    foreign.removeIf(r -> r.type() != Journal.Type.SIGNED);
    assertTrue(!foreign.isEmpty());
    c.restart(0);
    try {
      c.replica(0).recover(foreign);
      fail("replica 1's messages accepted as replica 0's");
    } catch (IllegalArgumentException e) {
      assertTrue(e.getMessage(), e.getMessage().startsWith("journal:"));
    }
  }

  // Reference: SINTRA §2 (a party that sends two different messages where a correct party sends one is
  // corrupted): a journal holding two for one slot cannot say which one the replica sent, and a record filed
  // under another seq than its instance's round would be kept or dropped wrongly by compaction; both are
  // damage, refused before the replica starts. An identical copy of a record is harmless
  @Test
  public void journalWithTwoMessagesInOneSlotOrARecordAtAnotherRoundIsRefused() {
    AsyncCluster c = new AsyncCluster(4, 1, 1, 3, Set.of(), 4).journaled();
    oneByOne(c, 2);
    List<Journal.Record> journal = new ArrayList<>(c.journals.get(0));
    Journal.Record proposal = journal.stream().filter(r -> r.type() == Journal.Type.SIGNED
        && Context.Journaled.decode(r.body()).slot().length == 0).findFirst().orElseThrow();
    Context.Journaled j = Context.Journaled.decode(proposal.body());
    AsyncMessage m = AsyncMessage.decode(j.envelope().body());

    List<Journal.Record> copied = new ArrayList<>(journal);
    copied.add(proposal);
    c.restart(0);
    c.replica(0).recover(copied);
    assertTrue("the copy's slot promised", c.replica(0).promises() > 0);

    AsyncMessage other = new AsyncMessage(m.pid(), m.type(), Arrays.copyOf(m.payload(), m.payload().length + 1));
    byte[] envelope = Signed.sign(Kind.ASYNC, 0, other.encode(), c.signer(0)).encode();
    List<Journal.Record> twice = new ArrayList<>(journal);
    twice.add(new Journal.Record(Journal.Type.SIGNED, proposal.seq(),
        new ByteWriter(64).i32(j.to()).bytes(j.slot()).bytes(envelope).toBytes()));
    refused(c, twice, "journal: two different messages of " + m.pid());

    List<Journal.Record> misfiled = new ArrayList<>(journal);
    misfiled.set(misfiled.indexOf(proposal),
        new Journal.Record(Journal.Type.SIGNED, proposal.seq() + 1, proposal.body()));
    refused(c, misfiled, "journal: a signed record of " + m.pid() + " at seq " + (proposal.seq() + 1));
  }

  private static void refused(AsyncCluster c, List<Journal.Record> journal, String reason) {
    c.restart(0);
    try {
      c.replica(0).recover(journal);
      fail("a damaged journal recovered: " + reason);
    } catch (IllegalArgumentException e) {
      assertTrue(e.getMessage(), e.getMessage().startsWith(reason));
    }
  }
}
