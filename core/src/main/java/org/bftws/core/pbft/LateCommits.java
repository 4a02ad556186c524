package org.bftws.core.pbft;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import org.bftws.core.message.PrePrepare;
import org.bftws.core.message.Signed;
import org.bftws.core.message.Vote;

/**
 * What commits in a view below ours while this replica is in a view change the group has not joined.
 * Castro-Liskov §4.4 lets a replica whose view-change timer fired wait in its view change until f+1 others
 * join, which they do only once they need it; meanwhile the others go on in their lower view (the one it left,
 * or a later one it never entered, e.g. after it was cut off from them). It cannot go back and vote there: its
 * VIEW-CHANGE is out, and §4.4's safety needs that a replica whose VIEW-CHANGE for w may be counted in w's
 * NEW-VIEW sent no commit in a lower view after it. It still executes, without a vote: the pre-prepare of view
 * v for n and 2f+1 commits of v matching it prove that (v, n, d) committed (f+1 correct replicas prepared it,
 * so every later view re-proposes d at n, committed(m, v, n) of §4.2), so it replies to clients and keeps its
 * checkpoints as the others do. Configuration II (BFT-WS §3.3.2) needs it, as every correct executing replica
 * may be needed for the f+1 matching replies. Peers resend the pre-prepares and commits it lacks on its status
 * ({@link Statuses}) and on their rounds; what they discarded, their checkpoints bring by state transfer. Not
 * with the BA algorithm (integrity paper §4), whose commits are on d' = D(d || R): such a replica waits for the
 * new view or a state transfer.
 *
 * <p>Bounded: per sequence number in the log window, one pre-prepare per primary and one commit per sender,
 * the highest view's; the certificate is counted per view.
 */
final class LateCommits {
  private record Commit(long view, byte[] digest) {}

  /** The pre-prepares and commits of lower views this replica holds for one sequence number. */
  private static final class Entry {
    final Map<Integer, PrePrepare> prePrepares = new HashMap<>();
    final Map<Integer, Commit> commits = new HashMap<>();
  }

  private final Replica r;
  private final TreeMap<Long, Entry> entries = new TreeMap<>();

  LateCommits(Replica r) {
    this.r = r;
  }

  /** Leaving active view w: keep what each uncommitted slot holds of w before the slots are reset. */
  void leaving(long w) {
    entries.clear();
    if (r.contributions.active()) {
      return;
    }
    for (Slot slot : r.log.values()) {
      if (slot.view == w && !slot.committed() && slot.prePrepare != null) {
        Entry e = entry(slot.seq);
        e.prePrepares.put(r.cfg.primaryOf(w), slot.prePrepare);
        slot.commitDigests.forEach((sender, d) -> e.commits.put(sender, new Commit(w, d)));
      }
    }
  }

  /** A new view was entered: its NEW-VIEW settles every slot. */
  void entered() {
    entries.clear();
  }

  void discardUpTo(long seq) {
    entries.headMap(seq, true).clear();
  }

  /** An authentic pre-prepare of a view below ours. */
  void onPrePrepare(Signed s, PrePrepare pp) {
    if (!wanted(pp.seq()) || s.sender() != r.cfg.primaryOf(pp.view()) || pp.randomness() != null) {
      return;
    }
    Entry e = entry(pp.seq());
    PrePrepare before = e.prePrepares.get(s.sender());
    // A newer view's replaces; a primary that equivocated in one view: the one with more matching commits.
    if (before != null && (before.view() > pp.view() || before.view() == pp.view()
        && matching(e, pp) <= matching(e, before))
        || !r.normalCase.validBatch(s.sender(), pp.requests())) {
      return;
    }
    e.prePrepares.put(s.sender(), pp);
    check(pp.seq(), e);
  }

  /** An authentic commit of a view below ours. */
  void onCommit(Signed s, Vote v) {
    if (!wanted(v.seq())) {
      return;
    }
    Entry e = entry(v.seq());
    Commit before = e.commits.get(s.sender());
    if (before != null && before.view >= v.view()) {
      return;
    }
    e.commits.put(s.sender(), new Commit(v.view(), v.digest()));
    check(v.seq(), e);
  }

  /** A pre-prepare of a lower view for seq is held here: this replica may still execute seq. */
  boolean holdsPrePrepare(long seq) {
    Entry e = entries.get(seq);
    return e != null && !e.prePrepares.isEmpty();
  }

  private boolean wanted(long seq) {
    Slot slot = r.log.get(seq);
    return !r.active && !r.contributions.active() && seq > r.lastExecuted && r.inWindow(seq)
        && (slot == null || !slot.committed());
  }

  private Entry entry(long seq) {
    return entries.computeIfAbsent(seq, k -> new Entry());
  }

  /** committed(m, v, n): a pre-prepare of v and a quorum (2f+1 when n = 3f+1) of commits of v matching it (§4.2). */
  private void check(long seq, Entry e) {
    for (PrePrepare pp : e.prePrepares.values()) {
      if (matching(e, pp) >= r.cfg.quorum()) {
        entries.remove(seq);
        r.normalCase.committedInLowerView(r.slot(seq), pp);
        return;
      }
    }
  }

  private static int matching(Entry e, PrePrepare pp) {
    int c = 0;
    for (Commit commit : e.commits.values()) {
      c += commit.view == pp.view() && Arrays.equals(commit.digest, pp.digest()) ? 1 : 0;
    }
    return c;
  }
}
