package org.bftws.core.pbft;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.bftws.core.engine.Effect;
import org.bftws.core.engine.Event;
import org.bftws.core.engine.Journal;
import org.bftws.core.engine.Ready;
import org.bftws.core.message.Kind;
import org.bftws.core.message.PrePrepare;
import org.bftws.core.message.PreparedCertificate;
import org.bftws.core.message.Signed;
import org.bftws.core.message.ViewChange;
import org.bftws.core.message.Vote;
import org.bftws.core.testkit.EngineHarness;
import org.junit.Test;

/** Restart with state (Castro-Liskov TOCS 2002 §4.3): a replica rebuilt from its journal is a correct one. */
public class JournalRecoveryTest {

  /** The digests of the votes of {@code kind} that replica {@code from} sends in {@code out}. */
  private static List<byte[]> votes(Ready out, Kind kind) {
    List<byte[]> digests = new ArrayList<>();
    for (Ready.Outbound m : out.messages) {
      Signed s = Signed.decode(m.bytes());
      if (s.kind() == kind) {
        digests.add(Vote.decode(s.body()).digest());
      }
    }
    return digests;
  }

  private static boolean votesOn(Ready out, byte[] d) {
    return votes(out, Kind.PREPARE).stream().anyMatch(v -> Arrays.equals(v, d))
        || votes(out, Kind.COMMIT).stream().anyMatch(v -> Arrays.equals(v, d));
  }

  /** A second pre-prepare for (view 0, seq 1), with another batch, signed by the primary (replica 0). */
  private static Signed conflictingPrePrepare(Cluster c) {
    PrePrepare other = PrePrepare.of(0, 1, List.of(c.request("other", false)));
    return Signed.sign(Kind.PRE_PREPARE, 0, other.encode(), c.signers.get(0));
  }

  // Reference: §4.2 and TOCS 2002 §4.3 — a backup that prepared d at (v, n) never prepares another digest
  // there; restarted from its journal it still holds its pre-prepare, so the equivocating primary's second
  // one is refused. Restarted empty (the control) it would prepare it.
  @Test
  public void rebuiltReplicaRefusesAConflictingPrePrepareForASlotItVotedOn() {
    Cluster c = new Cluster(1).journaled();
    c.invoke("op-0");
    c.deliverAll();
    assertEquals(1, c.replicas[1].lastExecuted());
    Signed conflicting = conflictingPrePrepare(c);
    byte[] d2 = PrePrepare.decode(conflicting.body()).digest();

    c.restartFromJournal(1);
    Ready afterJournal = c.replicas[1].receive(conflicting.encode());
    assertFalse("prepared d' after a journal restart", votesOn(afterJournal, d2));
    assertTrue(afterJournal.events.stream().anyMatch(e -> e instanceof Event.Evidence ev && ev.what().contains("equivocation")));

    c.restart(1); // control: amnesia
    Ready afterAmnesia = c.replicas[1].receive(conflicting.encode());
    assertTrue("the control does not exercise the conflict", votesOn(afterAmnesia, d2));
  }

  // Reference: §4.4 — a replica's VIEW-CHANGE carries a prepared certificate for every seq above its stable
  // checkpoint that prepared at it: one restarted from its journal still reports the one it held.
  @Test
  public void rebuiltReplicaReportsItsPreparedCertificateInItsViewChange() {
    Cluster c = new Cluster(1).journaled();
    c.drop = m -> Cluster.kind(m) == Kind.COMMIT; // seq 1 prepares everywhere, commits nowhere
    c.invoke("op-0");
    c.deliverAll();
    assertEquals(0, c.replicas[1].lastExecuted());
    byte[] d = c.eventsOf(1, Event.PrePrepared.class).get(0).digest();

    c.restartFromJournal(1);
    int before = c.sent.size();
    c.tickUntil(cl -> viewChangeOf(cl, 1, before) != null, 2000);
    ViewChange vc = viewChangeOf(c, 1, before);
    assertEquals(1, vc.prepared().size());
    PreparedCertificate cert = vc.prepared().get(0);
    PrePrepare pp = PrePrepare.decode(cert.prePrepare().body());
    assertEquals(1, pp.seq());
    assertArrayEquals(d, pp.digest());
    assertEquals(2, cert.prepares().size());
  }

  private static ViewChange viewChangeOf(Cluster c, int replica, int from) {
    for (EngineHarness.Msg m : c.sent.subList(from, c.sent.size())) {
      if (m.from() == replica && Cluster.kind(m) == Kind.VIEW_CHANGE) {
        return ViewChange.decode(Signed.decode(m.bytes()).body());
      }
    }
    return null;
  }

  // Reference: TOCS 2002 §4.3 — the stable checkpoint on disk is reinstalled at restart (set_state), with no
  // state transfer over the network; the replica then executes on from it like the others.
  @Test
  public void recoveryReinstallsTheStableCheckpointWithoutStateTransfer() {
    Cluster c = new Cluster(1).journaled(); // checkpoint every 4
    for (int k = 0; k < 8; k++) {
      c.invoke("op-" + k);
      c.deliverAll();
    }
    assertEquals(8, c.replicas[2].stableCheckpoint());
    byte[] stateAt8 = c.apps[2].getState();

    List<Journal.Record> journal = List.copyOf(c.journals.get(2));
    c.restart(2);
    Ready recovered = c.replicas[2].recover(journal);
    Effect.InstallState install = recovered.effects.stream().filter(e -> e instanceof Effect.InstallState)
        .map(e -> (Effect.InstallState) e).findFirst().orElse(null);
    assertNotNull("no InstallState", install);
    assertEquals(8, install.seq());
    assertArrayEquals(stateAt8, install.appState());
    c.handle(2, recovered);
    assertEquals(8, c.replicas[2].lastExecuted());
    assertEquals(8, c.replicas[2].stableCheckpoint());
    assertArrayEquals(stateAt8, c.apps[2].getState());

    int before = c.sent.size();
    c.invoke("op-8");
    c.tickUntil(cl -> cl.replicas[2].lastExecuted() == 9, 500);
    for (EngineHarness.Msg m : c.sent.subList(before, c.sent.size())) {
      Kind k = Cluster.kind(m);
      assertFalse("state transfer after a journal restart", k == Kind.FETCH_STATE || k == Kind.STATE);
    }
    assertArrayEquals(c.apps[0].getState(), c.apps[2].getState());
  }

  // Reference: §4.3 garbage collection — a stable checkpoint makes the records at and below it moot, so the
  // compacted journal stays within the log window however long the run; recovery from it still works.
  @Test
  public void compactedJournalStaysBoundedOverManyCheckpoints() {
    Cluster c = new Cluster(1).journaled(); // checkpoint every 4, window 8
    int bound = 0;
    for (int k = 0; k < 60; k++) {
      c.invoke("op-" + k);
      c.deliverAll();
      bound = Math.max(bound, Journal.compact(c.journals.get(3)).size());
    }
    int raw = c.journals.get(3).size();
    // per seq at most a pre-prepare, a prepare, a prepared certificate and a commit; a stable and a view record
    assertTrue("compacted journal of " + bound + " records", bound <= 4 * c.cfg.logWindow() + 2);
    assertTrue("raw journal of " + raw + " records", raw > 3 * bound);
    List<Journal.Record> compacted = Journal.compact(c.journals.get(3));
    c.journals.get(3).clear();
    c.journals.get(3).addAll(compacted);
    c.restartFromJournal(3);
    assertEquals(60, c.replicas[3].stableCheckpoint());
    c.invoke("op-60");
    c.tickUntil(cl -> cl.replicas[3].lastExecuted() == 61, 500);
    assertArrayEquals(c.apps[0].getState(), c.apps[3].getState());
  }

  // A damaged journal is refused with a clear exception, not half-recovered from.
  @Test
  public void damagedJournalIsRefused() {
    Cluster c = new Cluster(1).journaled();
    c.restart(1);
    try {
      c.replicas[1].recover(List.of(new Journal.Record(Journal.Type.STABLE, 4, new byte[] {1, 2, 3})));
      throw new AssertionError("recovered from a damaged journal");
    } catch (IllegalArgumentException e) {
      assertTrue(e.getMessage(), e.getMessage().startsWith("journal:"));
    }
  }

  // Reference: §4.4 — a replica restarted in the middle of a view change stays in it (never back to a lower
  // view), sends the VIEW-CHANGE it had sent, and takes part in the new view.
  @Test
  public void rebuiltReplicaResumesItsViewChange() {
    Cluster c = new Cluster(1).journaled();
    c.isolate(0); // the primary is silent: the backups move to view 1, whose primary, 1, misses them a while
    c.drop = m -> m.to() == 1 && Cluster.kind(m) == Kind.VIEW_CHANGE;
    c.invoke("op-0");
    c.tickUntil(cl -> !cl.replicas[2].isActive() && cl.replicas[2].view() == 1, 2000);
    c.restartFromJournal(2);
    assertEquals(1, c.replicas[2].view());
    assertFalse(c.replicas[2].isActive());
    c.drop = m -> false;
    c.tickUntil(cl -> cl.replicas[2].isActive() && cl.replicas[2].lastExecuted() == 1, 3000);
    assertEquals(1, c.replicas[2].view());
  }

  // Reference: integrity paper §4 — a contribution is drawn from entropy, so a backup restarted from its
  // journal (with other entropy) must send the contribution it had signed, not a new one, and a primary the set
  // it had fixed; the batch then executes with one random number everywhere.
  @Test
  public void rebuiltReplicaSendsTheContributionItSignedBefore() {
    for (boolean hardened : new boolean[] {false, true}) {
      Cluster c = new Cluster(org.bftws.core.config.GroupConfig.defaults(), Cluster.Randomness.ba(hardened)).journaled();
      c.hold = m -> Cluster.kind(m) == Kind.PP_UPDATE && m.from() == 1; // replica 1's contribution is held back
      c.submit(true);
      Signed first = Signed.decode(c.held.stream().filter(m -> m.to() == 0).findFirst().orElseThrow().bytes());
      c.restartFromJournal(1);
      c.deliverAll();
      List<Signed> again = c.held.stream().filter(m -> m.to() == 0).map(m -> Signed.decode(m.bytes()))
          .filter(s -> s.kind() == Kind.PP_UPDATE).toList();
      assertTrue("hardened=" + hardened, again.size() >= 2);
      for (Signed s : again) {
        assertArrayEquals("hardened=" + hardened, first.encode(), s.encode());
      }
      c.hold = m -> false;
      c.release(m -> true);
      c.tickUntil(cl -> cl.replicas[1].lastExecuted() == 1 && cl.replicas[0].lastExecuted() == 1, 2000);
      byte[] r0 = c.executed.get(0).get(0).randoms().get(0);
      assertArrayEquals(r0, c.executed.get(1).get(c.executed.get(1).size() - 1).randoms().get(0));
    }
  }
}
