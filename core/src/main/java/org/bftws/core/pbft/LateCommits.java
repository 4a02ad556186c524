package org.bftws.core.pbft;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import org.bftws.core.message.PrePrepare;
import org.bftws.core.message.Signed;
import org.bftws.core.message.Vote;

/**
 * What committed in the view a replica left alone. Castro-Liskov §4.4 lets a replica whose view-change timer
 * fired wait in its view change until f+1 others join, which they do only once they need it; meanwhile the
 * others go on in the old view. In configuration I that costs nothing, as 2f+1 up-to-date replicas answer
 * clients. In configuration II (BFT-WS §3.3.2) every correct executing replica may be needed for the f+1
 * matching replies, so such a replica must still execute what commits in the view it left, without taking
 * part in it: the pre-prepare of view w for n and 2f+1 matching commits of w prove that (w, n, d) committed
 * (f+1 correct replicas prepared it, so every later view re-proposes d at n, §4.4), and executing d at n then
 * needs no vote of its own. The others resend their pre-prepares and commits to all while nothing moves
 * (Replica's retransmission); while they go on, their checkpoints bring it up by state transfer. Not with the
 * BA algorithm (integrity paper §4), whose commits are on d' = D(d || R): such a replica waits for the new
 * view as before.
 */
final class LateCommits {
  /** The pre-prepare and the commits of {@link #leftView} this replica holds for one sequence number. */
  private static final class Entry {
    Signed prePrepareMessage;
    PrePrepare prePrepare;
    final Map<Integer, byte[]> commitDigests = new HashMap<>();
  }

  private final Replica r;
  /** The last view this replica was active in, while it is in a view change (-1: none). */
  private long leftView = -1;
  private final TreeMap<Long, Entry> entries = new TreeMap<>();

  LateCommits(Replica r) {
    this.r = r;
  }

  /** Leaving active view w: keep what each uncommitted slot holds of w before the slots are reset. */
  void leaving(long w) {
    if (r.contributions.active()) {
      return;
    }
    leftView = w;
    entries.clear();
    for (Slot slot : r.log.values()) {
      if (slot.view == w && !slot.committed()) {
        Entry e = entry(slot.seq);
        e.prePrepareMessage = slot.prePrepareMessage;
        e.prePrepare = slot.prePrepare;
        e.commitDigests.putAll(slot.commitDigests);
      }
    }
  }

  /** A new view was entered: its NEW-VIEW settles every slot. */
  void entered() {
    leftView = -1;
    entries.clear();
  }

  void discardUpTo(long seq) {
    entries.headMap(seq, true).clear();
  }

  /** An authentic pre-prepare of an older view than ours. */
  void onPrePrepare(Signed s, PrePrepare pp) {
    if (!relevant(pp.view(), pp.seq()) || s.sender() != r.cfg.primaryOf(pp.view())) {
      return;
    }
    Entry e = entry(pp.seq());
    // A primary that equivocated: the pre-prepare with more matching commits is kept.
    if (e.prePrepare != null && matching(e, pp.digest()) <= matching(e, e.prePrepare.digest())
        || !r.validBatch(s.sender(), pp.requests())) {
      return;
    }
    e.prePrepareMessage = s;
    e.prePrepare = pp;
    check(pp.seq(), e);
  }

  /** An authentic commit of an older view than ours. */
  void onCommit(Signed s, Vote v) {
    if (!relevant(v.view(), v.seq())) {
      return;
    }
    Entry e = entry(v.seq());
    e.commitDigests.putIfAbsent(s.sender(), v.digest());
    check(v.seq(), e);
  }

  private boolean relevant(long view, long seq) {
    Slot slot = r.log.get(seq);
    return leftView >= 0 && view == leftView && r.inWindow(seq) && (slot == null || !slot.committed());
  }

  private Entry entry(long seq) {
    return entries.computeIfAbsent(seq, k -> new Entry());
  }

  /** committed(m, w, n): the pre-prepare and 2f+1 matching commits of w (§4.2), none of them ours now. */
  private void check(long seq, Entry e) {
    if (e.prePrepare == null || matching(e, e.prePrepare.digest()) < 2 * r.f + 1) {
      return;
    }
    entries.remove(seq);
    r.committedInLeftView(r.slot(seq), leftView, e.prePrepare);
  }

  private static int matching(Entry e, byte[] digest) {
    int c = 0;
    for (byte[] d : e.commitDigests.values()) {
      c += Arrays.equals(d, digest) ? 1 : 0;
    }
    return c;
  }
}
