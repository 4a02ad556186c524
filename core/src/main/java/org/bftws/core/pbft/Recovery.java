package org.bftws.core.pbft;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.bftws.core.codec.DecodeException;
import org.bftws.core.engine.Journal;
import org.bftws.core.message.Kind;
import org.bftws.core.message.NewView;
import org.bftws.core.message.PrePrepare;
import org.bftws.core.message.PreparedCertificate;
import org.bftws.core.message.Signed;
import org.bftws.core.message.ViewChange;
import org.bftws.core.message.Vote;
import org.bftws.core.replication.Checkpoints;

/**
 * A journaled replica's restart ({@link Replica#recover}): its {@link Journal} read back in the order that
 * makes each step the one the replica took before (TOCS 2002 §4.3: the log survives a reboot), so that it
 * says again exactly what it said and nothing that contradicts it.
 *
 * <ol>
 *   <li>The stable checkpoint, installed as a state transfer installs one ({@link Checkpoints#restore}).
 *   <li>The prepared certificates above it: they go into any later VIEW-CHANGE (§4.4), and survive the
 *       view change of the next step like those of a replica that never stopped.
 *   <li>The view: back in the view change it had started (its VIEW-CHANGE sent again), or into the view
 *       whose NEW-VIEW it had accepted (processed again, with its pre-prepares).
 *   <li>In that view: its contributions (BA), then per sequence number its prepare and commit, then the
 *       pre-prepare it had accepted or sent; so a Byzantine primary's second pre-prepare for (v, n) is
 *       refused as before the crash, and nothing is signed afresh where a vote exists. Its own votes are
 *       sent again. Records of lower views are moot: a replica never sends messages of a view it left.
 * </ol>
 *
 * What lies beyond (commits of others, later checkpoints) it gets like any replica that is behind: status
 * messages, retransmissions and, above the window, state transfer.
 */
final class Recovery {
  private final Replica r;
  private Journal.Record stable;
  private Journal.Record view;
  private final List<PreparedCertificate> prepared = new ArrayList<>();
  private final List<Journaling.SignedRecord> signed = new ArrayList<>();

  Recovery(Replica r) {
    this.r = r;
  }

  void run(List<Journal.Record> records) {
    try {
      restore(records);
    } catch (DecodeException e) {
      throw new IllegalArgumentException("journal: a record whose message does not decode: " + e.getMessage(), e);
    }
  }

  private void restore(List<Journal.Record> records) {
    read(Journal.compact(records));
    if (stable != null) {
      r.checkpoints.restore(stable.body());
    }
    for (PreparedCertificate c : prepared) {
      restorePrepared(c);
    }
    if (view != null) {
      restoreView();
    }
    restoreVotes();
  }

  private void read(List<Journal.Record> records) {
    for (Journal.Record rec : records) {
      try {
        switch (rec.type()) {
          case STABLE -> stable = rec;
          case VIEW -> view = rec;
          case PREPARED -> prepared.add(PreparedCertificate.decode(rec.body()));
          case SIGNED -> signed.add(Journaling.SignedRecord.decode(rec.body()));
          case VIEW_SIGNED -> throw damaged(rec, "is of a type a PBFT replica never writes");
        }
      } catch (DecodeException e) {
        throw damaged(rec, "does not decode: " + e.getMessage());
      }
    }
  }

  private void restorePrepared(PreparedCertificate c) {
    PrePrepare pp = PrePrepare.decode(c.prePrepare().body());
    if (c.prePrepare().sender() != r.cfg.primaryOf(pp.view())) {
      throw new IllegalArgumentException("journal: prepared certificate at " + pp.seq()
          + " whose pre-prepare is not from the primary of view " + pp.view());
    }
    if (!r.inWindow(pp.seq())) {
      return;
    }
    Slot slot = r.slot(pp.seq());
    if (pp.view() > slot.preparedView) {
      slot.prepared = c;
      slot.preparedView = pp.view();
    }
  }

  private void restoreView() {
    Signed env = Signed.decode(view.body());
    if (env.kind() == Kind.VIEW_CHANGE && env.sender() == r.id) {
      ViewChange vc = ViewChange.decode(env.body());
      if (vc.newView() != view.seq()) {
        throw damaged(view, "holds a view-change for view " + vc.newView());
      }
      r.viewChanges.resume(env, vc);
      return;
    }
    if (env.kind() != Kind.NEW_VIEW || NewView.decode(env.body()).view() != view.seq()) {
      throw damaged(view, "holds neither our view-change nor a new-view for it");
    }
    r.viewChanges.onNewView(env);
    if (r.view != view.seq() || !r.active) {
      throw damaged(view, "holds a new-view that does not install view " + view.seq());
    }
  }

  /** Step 4: in the current view, per seq, what this replica signed (and the pre-prepare it accepted). */
  private void restoreVotes() {
    TreeMap<Long, Signed[]> bySeq = new TreeMap<>(); // seq -> {pre-prepare, prepare, commit}
    for (Journaling.SignedRecord s : signed) {
      Signed m = s.msg();
      switch (m.kind()) {
        case PP_UPDATE -> r.contributions.remember(own(m), s.secrets());
        case PRE_PREPARE -> {
          PrePrepare pp = PrePrepare.decode(m.body());
          if (m.sender() != r.cfg.primaryOf(pp.view())) {
            throw new IllegalArgumentException("journal: pre-prepare at " + pp.seq() + " not from its primary");
          }
          keep(bySeq, pp.view(), pp.seq(), 0, m);
        }
        case PREPARE, COMMIT -> {
          Vote v = Vote.decode(own(m).body());
          keep(bySeq, v.view(), v.seq(), m.kind() == Kind.PREPARE ? 1 : 2, m);
        }
        default -> throw new IllegalArgumentException("journal: a signed record holding a " + m.kind());
      }
    }
    for (Signed[] msgs : bySeq.values()) {
      restoreSlot(msgs[0], msgs[1], msgs[2]);
    }
  }

  private Signed own(Signed m) {
    if (m.sender() != r.id) {
      throw new IllegalArgumentException("journal: a " + m.kind() + " signed by replica " + m.sender());
    }
    return m;
  }

  private void keep(TreeMap<Long, Signed[]> bySeq, long v, long seq, int at, Signed m) {
    if (v == r.view && r.inWindow(seq)) {
      Signed[] msgs = bySeq.computeIfAbsent(seq, k -> new Signed[3]);
      if (msgs[at] == null) {
        msgs[at] = m;
      }
    }
  }

  /**
   * The votes first, so that accepting the pre-prepare again signs nothing new (a prepare or commit that
   * exists is not signed again); then the votes are sent again, as a retransmission would.
   */
  private void restoreSlot(Signed prePrepare, Signed prepare, Signed commit) {
    Signed any = prePrepare != null ? prePrepare : prepare != null ? prepare : commit;
    long seq = any.kind() == Kind.PRE_PREPARE ? PrePrepare.decode(any.body()).seq() : Vote.decode(any.body()).seq();
    Slot slot = r.slot(seq);
    if (prepare != null && slot.ownPrepare == null) {
      slot.ownPrepare = prepare;
      slot.prepares.put(r.id, prepare);
      slot.prepareDigests.put(r.id, Vote.decode(prepare.body()).digest());
    }
    if (commit != null && slot.ownCommit == null) {
      slot.ownCommit = commit;
      slot.commits.put(r.id, commit);
      slot.commitDigests.put(r.id, Vote.decode(commit.body()).digest());
    }
    if (prePrepare != null && slot.prePrepare == null) {
      PrePrepare pp = PrePrepare.decode(prePrepare.body());
      r.normalCase.markProposed(pp.requests());
      r.normalCase.assignAbove(seq);
      r.normalCase.acceptPrePrepare(prePrepare, pp);
    }
    if (prepare != null) {
      r.multicast(slot.ownPrepare);
    }
    if (commit != null) {
      r.multicast(slot.ownCommit);
    }
  }

  private static IllegalArgumentException damaged(Journal.Record rec, String what) {
    return new IllegalArgumentException("journal: " + rec.type() + " record at " + rec.seq() + " " + what);
  }
}
