package org.bftws.core.pbft;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.bftws.core.codec.DecodeException;
import org.bftws.core.config.GroupConfig;
import org.bftws.core.engine.Event;
import org.bftws.core.message.Kind;
import org.bftws.core.message.NewView;
import org.bftws.core.message.PrePrepare;
import org.bftws.core.message.PreparedCertificate;
import org.bftws.core.message.Signed;
import org.bftws.core.message.ViewChange;
import org.bftws.core.message.Vote;
import org.bftws.core.replication.Checkpoints;

/**
 * The view-change protocol (Castro-Liskov §4.4) with its liveness rules (§4.5.2): a backup waiting too
 * long for a pending request moves to view v+1; a replica that sees f+1 replicas in higher views joins
 * the lowest of them; the timeout doubles with each consecutive view change that executes nothing.
 */
final class ViewChanges {
  private final Replica r;
  private int consecutive;
  /** When 2f+1 view-changes for the view we are moving to were known (-1: not yet). */
  private long quorumSince = -1;
  private Signed own;
  /** The latest valid VIEW-CHANGE of each replica (a newer one supersedes: bounded memory). */
  private final Map<Integer, Signed> latest = new HashMap<>();
  private final Map<Integer, ViewChange> latestDecoded = new HashMap<>();
  /** The NEW-VIEW that installed the current view (primary: to resend to replicas that missed it). */
  private Signed newView;
  private final long[] seen;
  private final Map<Integer, Long> helped = new HashMap<>();

  ViewChanges(Replica r) {
    this.r = r;
    this.seen = new long[r.n];
  }

  /** Base timeout doubled per consecutive view change, capped (§4.5.2). */
  long timeout() {
    long base = r.cfg.get(GroupConfig.VIEW_CHANGE_TIMEOUT);
    long t = base << Math.min(consecutive, 20);
    return Math.min(t, r.cfg.get(GroupConfig.VIEW_CHANGE_TIMEOUT_MAX));
  }

  void onTick() {
    if (r.isActive()) {
      if (r.timerExpired(timeout())) {
        start(r.view() + 1);
      }
    } else if (quorumSince >= 0 && r.now() - quorumSince >= timeout()) {
      start(r.view() + 1);
    }
  }

  /** A request executed: the timer restarts if others still wait, and the timeout is reset. */
  void onProgress() {
    consecutive = 0;
    r.restartTimer();
  }

  /** Move to view w: stop accepting messages of the old view and multicast VIEW-CHANGE. */
  void start(long w) {
    r.startViewChange(w);
    quorumSince = -1;
    consecutive++;
    List<PreparedCertificate> prepared = new ArrayList<>();
    for (Slot slot : r.log.values()) {
      if (slot.prepared != null && slot.seq > r.checkpoints.stableSeq()) {
        prepared.add(slot.prepared);
      }
    }
    Checkpoints cp = r.checkpoints;
    ViewChange vc = new ViewChange(w, cp.stableSeq(), cp.stableDigest(), cp.stableProof(), prepared);
    own = r.sign(Kind.VIEW_CHANGE, vc.encode());
    r.journal.view(w, own); // never back to a lower view after a restart (TOCS 2002 §4.3)
    latest.put(r.id, own);
    latestDecoded.put(r.id, vc);
    r.multicast(own);
    r.out.events.add(new Event.ViewChangeStarted(w));
    checkQuorum();
    tryNewView();
  }

  /**
   * After a restart ({@link Recovery}): back in the view change this replica had started, with the very
   * VIEW-CHANGE it sent (its journal's), which it sends again; its checkpoint is adopted as in a NEW-VIEW,
   * so that a replica whose journal holds an older checkpoint fetches that one.
   */
  void resume(Signed mine, ViewChange vc) {
    r.startViewChange(vc.newView());
    own = mine;
    latest.put(r.id, mine);
    latestDecoded.put(r.id, vc);
    r.checkpoints.makeStable(vc.stableSeq(), vc.stableDigest(), vc.checkpointProof());
    r.multicast(mine);
    r.out.events.add(new Event.ViewChangeStarted(vc.newView()));
  }

  /**
   * §4.5.2: the timer for the next view starts only once 2f+1 replicas are known to be moving to this
   * view or beyond, so a replica that is ahead waits for the others instead of running further ahead
   * alone. Counting "or beyond" matters: a replica whose view-change for this view we missed, and which
   * has moved on, would otherwise leave us waiting for a quorum that can no longer form.
   */
  private void checkQuorum() {
    if (r.isActive() || quorumSince >= 0) {
      return;
    }
    int count = 0;
    for (ViewChange vc : latestDecoded.values()) {
      if (vc.newView() >= r.view()) {
        count++;
      }
    }
    if (count >= r.cfg.quorum()) {
      quorumSince = r.now();
    }
  }

  /** Any authentic message shows the view its sender is in; f+1 in higher views means we are behind. */
  void noteView(int sender, long v) {
    if (sender == r.id || v <= seen[sender]) {
      return;
    }
    seen[sender] = v;
    long[] others = new long[r.n - 1];
    int k = 0;
    for (int j = 0; j < r.n; j++) {
      if (j != r.id) {
        others[k++] = seen[j];
      }
    }
    Arrays.sort(others);
    long w = others[others.length - 1 - r.f]; // the (f+1)-th highest: at least one correct replica is there
    if (w > r.view()) {
      start(w);
    }
  }

  void onViewChange(Signed s) {
    if (s.sender() == r.id) {
      return; // ours, resent to us after a restart: no evidence, and what we send now is what start() signs
    }
    ViewChange vc = ViewChange.decode(s.body());
    if (vc.newView() < r.view()) {
      return;
    }
    if (vc.newView() == r.view() && r.isActive()) {
      help(s.sender());
      return;
    }
    Signed before = latest.get(s.sender());
    if (before != null && latestDecoded.get(s.sender()).newView() >= vc.newView()) {
      return;
    }
    if (!valid(s.sender(), vc)) {
      r.evidence(s.sender(), "invalid view-change for view " + vc.newView());
      return;
    }
    latest.put(s.sender(), s);
    latestDecoded.put(s.sender(), vc);
    noteView(s.sender(), vc.newView());
    checkQuorum();
    tryNewView();
  }

  /** A replica still asking for the view we are primary of missed our NEW-VIEW: send it again. */
  private void help(int sender) {
    if (newView == null || r.cfg.primaryOf(r.view()) != r.id) {
      return;
    }
    Long last = helped.get(sender);
    if (last == null || r.now() - last >= r.cfg.get(GroupConfig.RETRANSMIT_INTERVAL)) {
      helped.put(sender, r.now());
      r.send(sender, newView);
    }
  }

  /** New primary: with 2f+1 view-changes for its view (its own among them), send NEW-VIEW. */
  private void tryNewView() {
    if (r.isActive() || r.cfg.primaryOf(r.view()) != r.id) {
      return;
    }
    List<Signed> v = new ArrayList<>();
    List<ViewChange> decoded = new ArrayList<>();
    for (int j = 0; j < r.n && v.size() < r.cfg.quorum(); j++) {
      ViewChange vc = latestDecoded.get(j);
      if (vc != null && vc.newView() == r.view()) {
        v.add(latest.get(j));
        decoded.add(vc);
      }
    }
    if (v.size() < r.cfg.quorum() || !latest.containsKey(r.id) || latestDecoded.get(r.id).newView() != r.view()) {
      return;
    }
    List<Signed> o = new ArrayList<>();
    for (PrePrepare pp : computeO(r.view(), decoded)) { // BA: a re-proposal carries its certified set
      o.add(r.sign(Kind.PRE_PREPARE, pp.encode()));
    }
    newView = r.sign(Kind.NEW_VIEW, new NewView(r.view(), v, o).encode());
    r.journal.view(r.view(), newView);
    r.multicast(newView);
    enter(r.view(), decoded, o);
  }

  /**
   * A NEW-VIEW from the primary of its view, or forwarded by a peer (§4.4: valid from whoever holds it). It
   * may be our own, resent to us after we restarted empty as that primary: it proves the view change
   * happened as much as anyone's, and O holds the only pre-prepares we may have issued for its sequence
   * numbers, so we enter the view by it like a backup and then order as its primary above O. (What we
   * pre-prepared above O before the restart we no longer know: a second pre-prepare for such a number is
   * refused by the backups as equivocation, §4.2, and the next view change settles it.)
   */
  void onNewView(Signed s) {
    NewView nv = NewView.decode(s.body());
    if (s.sender() != r.cfg.primaryOf(nv.view())) {
      r.evidence(s.sender(), "new-view from a replica that is not the primary of view " + nv.view());
      return;
    }
    if (nv.view() < r.view() || (nv.view() == r.view() && r.isActive())) {
      return;
    }
    List<ViewChange> decoded = checkViewChanges(s.sender(), nv);
    if (decoded == null) {
      return;
    }
    List<PrePrepare> expected = computeO(nv.view(), decoded);
    if (!matches(s.sender(), nv, expected)) {
      r.evidence(s.sender(), "new-view whose pre-prepares do not follow from its view-changes");
      return;
    }
    newView = s;
    r.journal.view(nv.view(), s);
    enter(nv.view(), decoded, nv.prePrepares());
  }

  private List<ViewChange> checkViewChanges(int primary, NewView nv) {
    Set<Integer> senders = new HashSet<>();
    List<ViewChange> decoded = new ArrayList<>();
    for (Signed vs : nv.viewChanges()) {
      ViewChange vc;
      try {
        vc = ViewChange.decode(vs.body());
      } catch (DecodeException e) {
        vc = null;
      }
      boolean ok = vc != null && vs.sender() >= 0 && vs.sender() < r.n && senders.add(vs.sender())
          && vc.newView() == nv.view() && vs.verify(r.verifier) && valid(vs.sender(), vc);
      if (!ok) {
        r.evidence(primary, "new-view with an invalid view-change");
        return null;
      }
      decoded.add(vc);
    }
    if (senders.size() < r.cfg.quorum()) {
      r.evidence(primary, "new-view with fewer than 2f+1 view-changes");
      return null;
    }
    return decoded;
  }

  private boolean matches(int primary, NewView nv, List<PrePrepare> expected) {
    if (nv.prePrepares().size() != expected.size()) {
      return false;
    }
    for (int i = 0; i < expected.size(); i++) {
      Signed s = nv.prePrepares().get(i);
      PrePrepare pp;
      try {
        pp = PrePrepare.decode(s.body());
      } catch (DecodeException e) {
        return false;
      }
      PrePrepare want = expected.get(i);
      if (s.sender() != primary || pp.view() != want.view() || pp.seq() != want.seq()
          || !Arrays.equals(pp.digest(), want.digest()) || !sameRandomness(pp, want) || !s.verify(r.verifier)) {
        return false;
      }
    }
    return true;
  }

  /** BA: a re-proposed batch must carry the very set S_R it prepared with (the same R, the same d'). */
  private static boolean sameRandomness(PrePrepare a, PrePrepare b) {
    if (a.randomness() == null || b.randomness() == null) {
      return a.randomness() == b.randomness();
    }
    return Arrays.equals(a.randomness().encode(), b.randomness().encode());
  }

  /**
   * O of §4.4: from the highest stable checkpoint min-s in V to the highest prepared sequence number
   * max-s, re-propose the batch of the highest-view prepared certificate, or a null batch where none.
   */
  static List<PrePrepare> computeO(long view, List<ViewChange> v) {
    long minS = 0;
    for (ViewChange vc : v) {
      minS = Math.max(minS, vc.stableSeq());
    }
    TreeMap<Long, PrePrepare> chosen = new TreeMap<>();
    for (ViewChange vc : v) {
      for (PreparedCertificate c : vc.prepared()) {
        PrePrepare pp = PrePrepare.decode(c.prePrepare().body());
        PrePrepare best = chosen.get(pp.seq());
        if (pp.seq() > minS && (best == null || pp.view() > best.view())) {
          // BA (integrity paper §4): the certified set S_R goes along, so the new view re-proposes the same R.
          chosen.put(pp.seq(), pp.withRandomness(c.randomness()));
        }
      }
    }
    long maxS = chosen.isEmpty() ? minS : chosen.lastKey();
    List<PrePrepare> o = new ArrayList<>();
    for (long seq = minS + 1; seq <= maxS; seq++) {
      PrePrepare pp = chosen.get(seq);
      o.add(pp == null ? PrePrepare.of(view, seq, List.of())
          : PrePrepare.of(view, seq, pp.requests()).withRandomness(pp.randomness()));
    }
    return o;
  }

  /** Install view w from its NEW-VIEW: adopt the best checkpoint, then process O as pre-prepares. */
  private void enter(long w, List<ViewChange> v, List<Signed> o) {
    r.enterView(w);
    ViewChange best = null;
    for (ViewChange vc : v) {
      if (best == null || vc.stableSeq() > best.stableSeq()) {
        best = vc;
      }
    }
    r.checkpoints.makeStable(best.stableSeq(), best.stableDigest(), best.checkpointProof());
    long maxS = r.checkpoints.stableSeq();
    for (Signed s : o) {
      PrePrepare pp = PrePrepare.decode(s.body());
      maxS = Math.max(maxS, pp.seq());
      r.normalCase.markProposed(pp.requests());
      if (r.inWindow(pp.seq())) {
        r.normalCase.acceptPrePrepare(s, pp);
      }
    }
    r.normalCase.assignFrom(maxS + 1);
    r.restartTimer();
    r.out.events.add(new Event.ViewEntered(w));
    r.normalCase.propose();
  }

  /** A view-change message is valid if its checkpoint proof and every prepared certificate check out. */
  private boolean valid(int sender, ViewChange vc) {
    long stable = vc.stableSeq();
    if (!r.checkpoints.validProof(stable, vc.stableDigest(), vc.checkpointProof())) {
      return false;
    }
    Set<Long> seqs = new HashSet<>();
    for (PreparedCertificate c : vc.prepared()) {
      Signed pps = c.prePrepare();
      PrePrepare pp;
      try {
        pp = PrePrepare.decode(pps.body());
      } catch (DecodeException e) {
        return false;
      }
      int primary = r.cfg.primaryOf(pp.view());
      if (pps.sender() != primary || pp.view() >= vc.newView() || pp.seq() <= stable
          || pp.seq() > stable + r.cfg.logWindow() || !seqs.add(pp.seq()) || !pps.verify(r.verifier)
          || !validPrepares(primary, pp, c.prepares(), r.contributions.certifiedVoteDigest(pp, c.randomness()))) {
        return false;
      }
    }
    return true;
  }

  /** 2f (quorum − 1) prepares from distinct backups on {@code d} (d, or with BA d' of the certified set; null: invalid). */
  private boolean validPrepares(int primary, PrePrepare pp, List<Signed> prepares, byte[] d) {
    if (d == null) {
      return false;
    }
    Set<Integer> senders = new HashSet<>();
    for (Signed p : prepares) {
      if (p.sender() == primary || p.sender() < 0 || p.sender() >= r.n || !senders.add(p.sender())) {
        return false;
      }
      Vote v;
      try {
        v = Vote.decode(p.body());
      } catch (DecodeException e) {
        return false;
      }
      if (v.view() != pp.view() || v.seq() != pp.seq() || !Arrays.equals(v.digest(), d)
          || !p.verify(r.verifier)) {
        return false;
      }
    }
    return senders.size() >= r.cfg.quorum() - 1;
  }

  /** The NEW-VIEW that installed the current view, if any (for tests and diagnostics). */
  Signed currentNewView() {
    return newView;
  }

  void retransmit() {
    if (own != null) {
      r.multicast(own);
    }
  }

  /** Our VIEW-CHANGE for the view we are in, to a peer that may lack it (status, TOCS 2002 §5.2). */
  void sendOwn(int to) {
    ViewChange mine = latestDecoded.get(r.id);
    if (own != null && mine != null && mine.newView() == r.view()) {
      r.send(to, own);
    }
  }
}
