package org.bftws.core.pbft;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import org.bftws.core.message.PrePrepare;
import org.bftws.core.message.Signed;
import org.bftws.core.message.Vote;

/**
 * A replica in a view change that the group never joined (its timer fired while the others kept ordering,
 * e.g. it was cut off from them) follows the group's lower view without voting in it: it executes a batch
 * once it holds the pre-prepare and 2f+1 matching commits of that view from other replicas. It cannot go
 * back to the view and vote: its VIEW-CHANGE is out, and §4.4's safety needs that a replica whose
 * VIEW-CHANGE for w may be counted in w's NEW-VIEW sent no commit in a lower view after it. Executing is
 * safe without a vote: 2f+1 commits on (v, n, d) mean f+1 correct replicas prepared d at n, so every
 * correct replica executes d at n (committed(m, v, n), §4.2 and its invariant). It votes again from the
 * next view the group installs, which its VIEW-CHANGE already asks for; until then it replies to clients
 * and keeps its checkpoints and state as the others do. Peers resend what it needs on its status
 * ({@link Statuses}). Not with the BA algorithm, whose commits are on d' = D(d || R): such a replica
 * catches up by state transfer only.
 *
 * <p>Bounded: per sequence number in the log window, one pre-prepare per primary and one commit per
 * sender, the highest view's.
 */
final class Following {
  private record Held(Signed message, PrePrepare prePrepare) {}

  private final Replica r;
  private final TreeMap<Long, Map<Integer, Held>> prePrepares = new TreeMap<>();
  private final TreeMap<Long, Map<Integer, Vote>> commits = new TreeMap<>();

  Following(Replica r) {
    this.r = r;
  }

  /** An authentic PRE-PREPARE of a view below ours while we change view. */
  void onPrePrepare(Signed s, PrePrepare pp) {
    if (!wanted(pp.seq()) || s.sender() != r.cfg.primaryOf(pp.view()) || pp.randomness() != null) {
      return;
    }
    Held before = prePrepares.getOrDefault(pp.seq(), Map.of()).get(s.sender());
    if (before != null && before.prePrepare.view() >= pp.view() || !r.validBatch(s.sender(), pp.requests())) {
      return;
    }
    prePrepares.computeIfAbsent(pp.seq(), k -> new HashMap<>()).put(s.sender(), new Held(s, pp));
    check(pp.seq());
  }

  /** An authentic COMMIT of a view below ours while we change view. */
  void onCommit(Signed s, Vote v) {
    if (!wanted(v.seq())) {
      return;
    }
    Vote before = commits.getOrDefault(v.seq(), Map.of()).get(s.sender());
    if (before != null && before.view() >= v.view()) {
      return;
    }
    commits.computeIfAbsent(v.seq(), k -> new HashMap<>()).put(s.sender(), v);
    check(v.seq());
  }

  private boolean wanted(long seq) {
    Slot slot = r.log.get(seq);
    return !r.contributions.active() && seq > r.lastExecuted && r.inWindow(seq)
        && (slot == null || !slot.committed());
  }

  /** A pre-prepare with 2f+1 commits of its view and digest from other replicas: the batch committed. */
  private void check(long seq) {
    Map<Integer, Vote> votes = commits.getOrDefault(seq, Map.of());
    for (Held h : prePrepares.getOrDefault(seq, Map.of()).values()) {
      int matching = 0;
      for (Vote v : votes.values()) {
        if (v.view() == h.prePrepare.view() && Arrays.equals(v.digest(), h.prePrepare.digest())) {
          matching++;
        }
      }
      if (matching >= r.cfg.quorum()) {
        prePrepares.remove(seq);
        commits.remove(seq);
        r.learnCommitted(h.prePrepare);
        return;
      }
    }
  }

  /** Nothing at or below a stable or installed checkpoint is needed any more. */
  void discardUpTo(long seq) {
    prePrepares.headMap(seq, true).clear();
    commits.headMap(seq, true).clear();
  }

  /** A view is entered or left: what we followed of lower views is moot (what committed stays in the log). */
  void clear() {
    prePrepares.clear();
    commits.clear();
  }
}
