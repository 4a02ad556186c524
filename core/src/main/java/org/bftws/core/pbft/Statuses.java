package org.bftws.core.pbft;

import java.util.HashMap;
import java.util.Map;
import org.bftws.core.config.GroupConfig;
import org.bftws.core.message.Kind;
import org.bftws.core.message.Signed;
import org.bftws.core.message.Status;
import org.bftws.core.replication.Checkpoints;

/**
 * Status messages (Castro-Liskov TOCS 2002 §5.2): a replica that may be behind multicasts where it is, and
 * each peer resends what the sender lacks, as the paper's receiver does. Retransmission of our own messages
 * ({@link Retransmission} on its rounds) covers a peer in our view that lost some; status covers a peer that cannot
 * use them: one in an older view or in a view change the group abandoned (it needs our new-view, or our
 * view-change to join ours by the f+1 rule of §4.5.2), one behind our stable checkpoint (it needs the proof
 * to fetch the state), and one alone in a view change the group never joined (it needs pre-prepares and
 * commits to execute what commits in the group's lower view, {@link LateCommits}).
 *
 * <p>Cheap: a replica sends a status each round only while it suspects it is behind (changing view, or below
 * its stable checkpoint), otherwise every {@link #QUIET_ROUNDS}-th round. A lag within a view, the common
 * case, is left to the rounds' retransmission, which already resends to peers whose commit never came.
 * Each peer is answered at most once per retransmission interval, with at most the log window's messages.
 * A status changes no protocol state: a replayed or stale one only makes a peer resend messages it already
 * sent, which their receivers take at most once.
 */
final class Statuses {
  /** Rounds between statuses of a replica that suspects nothing (a peer may still be behind it). */
  static final int QUIET_ROUNDS = 8;

  private final Replica r;
  private long rounds;
  /** When each peer was last answered (or asked by our own status): one reply per interval per peer. */
  private final Map<Integer, Long> answered = new HashMap<>();

  Statuses(Replica r) {
    this.r = r;
  }

  /** A retransmission round: multicast our status if we may be behind, or every few rounds anyway. */
  void round(boolean suspectBehind) {
    rounds++;
    if (suspectBehind || rounds % QUIET_ROUNDS == 0) {
      r.multicast(own());
    }
  }

  private Signed own() {
    Checkpoints cp = r.checkpoints;
    return r.sign(Kind.STATUS, new Status(r.view, r.active, cp.stableSeq(), r.lastExecuted).encode());
  }

  /** An authentic STATUS from peer p: resend what p lacks of what we hold. */
  void onStatus(int p, Status st) {
    if (!mayAnswer(p)) {
      return;
    }
    if (st.view() < r.view || st.view() == r.view && !st.active() && r.active) {
      sendView(p);
    } else if (st.view() == r.view && !st.active()) {
      r.viewChanges.sendOwn(p); // both changing to this view: p may lack ours for the quorum
    } else if (r.active && st.view() == r.view && st.lastExecuted() < r.checkpoints.stableSeq()) {
      // p in our view: the proof of a stable checkpoint it has not reached; above it, the rounds'
      // retransmission resends our commits to peers whose commit never came
      sendCheckpointProof(p, st);
    } else if (r.active && !st.active() && st.lastExecuted() < r.lastExecuted) {
      // p alone in a view change we never joined: what it needs to execute as far as we did (LateCommits)
      sendCheckpointProof(p, st);
      r.retransmission.resendFrom(Math.max(st.lastExecuted(), r.checkpoints.stableSeq()), p);
    } else if (st.view() > r.view && st.active() || st.stableSeq() > r.lastExecuted) {
      // p is a view or a checkpoint ahead: our status makes it answer with what we lack (a small lag within
      // a view is what the rounds' retransmission covers)
      r.send(p, own());
    }
  }

  /** p is in an older view or missed ours: the new-view that installed ours, or our view-change for it. */
  private void sendView(int p) {
    Signed nv = r.viewChanges.currentNewView();
    if (r.active && nv != null) {
      r.send(p, nv); // signed by the new primary: valid from whoever forwards it
    } else if (!r.active) {
      r.viewChanges.sendOwn(p);
    }
  }

  /**
   * p executed less than our stable checkpoint: its 2f+1 signed votes, so p makes it stable and fetches it;
   * p's own vote too, which p lacks if it restarted since it signed it.
   */
  private void sendCheckpointProof(int p, Status st) {
    Checkpoints cp = r.checkpoints;
    if (st.lastExecuted() >= cp.stableSeq() || st.stableSeq() >= cp.stableSeq()) {
      return;
    }
    for (Signed vote : cp.stableProof()) {
      r.send(p, vote);
    }
  }

  private boolean mayAnswer(int p) {
    Long last = answered.get(p);
    if (last != null && r.now - last < r.cfg.get(GroupConfig.RETRANSMIT_INTERVAL)) {
      return false;
    }
    answered.put(p, r.now);
    return true;
  }
}
