package org.bftws.core.pbft;

import org.bftws.core.config.GroupConfig;
import org.bftws.core.engine.Ready;

/**
 * Retransmission of a PBFT replica's own messages, every {@code bftws.retransmitTicks} ticks (the
 * paper assumes a network that eventually delivers; ours may lose messages). When this replica made no
 * progress since the last round, all of them to all; otherwise, for slots that committed here, only to the
 * peers whose commit never came (in the normal case nothing extra is sent). Without the second part a peer
 * that lost one message just as traffic ends waits up to two rounds, and if its clock runs faster than ours
 * (we are the loaded ones) its view-change timer fires first and it sits alone in a view change nobody joins
 * (this is the part our own log already tells us). What only the lagging replica knows it lacks comes from
 * its status ({@link Statuses}, TOCS 2002 §5.2), which a round also sends when due; a replica in a view
 * change resends its VIEW-CHANGE, its checkpoint vote and its fetch of a stable checkpoint above it.
 */
final class Retransmission {
  private final Replica r;
  private long lastRetransmit;
  private long executedAtLastRetransmit = -1;

  Retransmission(Replica r) {
    this.r = r;
  }

  /** A tick: a round when the interval has passed since the last one. */
  void onTick() {
    if (r.now - lastRetransmit >= r.cfg.get(GroupConfig.RETRANSMIT_INTERVAL)) {
      lastRetransmit = r.now;
      round();
    }
  }

  private void round() {
    boolean stalled = r.lastExecuted == executedAtLastRetransmit;
    executedAtLastRetransmit = r.lastExecuted;
    r.statuses.round(!r.active || r.lastExecuted < r.checkpoints.stableSeq());
    r.handouts.retransmit(); // in a view change too: the execution nodes may still lack what committed before
    if (!r.active) {
      r.viewChanges.retransmit();
      r.checkpoints.retransmit(stalled);
      if (stalled) {
        // shares are per seq, not per view: a replica whose timer fired while it waited for a committed
        // batch's coins or plaintexts still gets them, and executes, while alone in a view change
        r.coins.retransmit();
        r.decryptions.retransmit();
      }
      return;
    }
    r.checkpoints.retransmit(stalled);
    // Every slot above the stable checkpoint, executed here or not: a peer may still lack our commit.
    for (Slot slot : r.log.values()) {
      if (slot.view != r.view) {
        continue;
      }
      if (stalled) {
        resendOwn(slot, Ready.ALL_REPLICAS);
        continue;
      }
      for (int peer = 0; peer < r.n; peer++) {
        if (peer != r.id && slot.committed() && !slot.commits.containsKey(peer)) {
          resendOwn(slot, peer);
        }
      }
    }
    if (stalled) {
      r.coins.retransmit();
      r.decryptions.retransmit();
      r.contributions.retransmit();
    }
  }

  /**
   * To peer p, alone in a view change above ours and executed up to {@code from}: per slot of this view above
   * it that we executed, the pre-prepare (the primary's, forwarded by whoever holds it) and our commit, what
   * {@link LateCommits} needs ({@link Statuses}); our prepare it could not use.
   */
  void resendFrom(long from, int p) {
    if (from >= r.lastExecuted) {
      return; // nothing executed here above it (below our own stable checkpoint we are fetching it)
    }
    for (Slot slot : r.log.subMap(from, false, r.lastExecuted, true).values()) {
      if (slot.view != r.view) {
        continue;
      }
      if (slot.prePrepareMessage != null) {
        r.send(p, slot.prePrepareMessage);
      }
      if (slot.ownCommit != null) {
        r.send(p, slot.ownCommit);
      }
    }
  }

  /** {@code to}: a replica, or {@link Ready#ALL_REPLICAS}. */
  private void resendOwn(Slot slot, int to) {
    if (r.isPrimary() && slot.prePrepareMessage != null) {
      r.send(to, slot.prePrepareMessage);
    }
    if (slot.ownPrepare != null) {
      r.send(to, slot.ownPrepare);
    }
    if (slot.ownCommit != null) {
      r.send(to, slot.ownCommit);
    }
  }
}
