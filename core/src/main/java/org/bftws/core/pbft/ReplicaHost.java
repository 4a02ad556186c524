package org.bftws.core.pbft;

import org.bftws.core.engine.Ready;
import org.bftws.core.replication.Checkpoints;
import org.bftws.core.replication.Coins;
import org.bftws.core.replication.Decryptions;

/**
 * What the parts every engine shares ({@link Checkpoints}, {@link Coins}, {@link Decryptions}) need of a PBFT
 * replica: one object, since all read its output and its logical time.
 */
final class ReplicaHost implements Checkpoints.Host, Coins.Host, Decryptions.Host {
  private final Replica r;

  ReplicaHost(Replica r) {
    this.r = r;
  }

  @Override
  public Ready out() {
    return r.out;
  }

  @Override
  public long reached() {
    return r.lastExecuted;
  }

  @Override
  public boolean orderingTowards(long seq) {
    for (long s = r.lastExecuted + 1; s <= seq; s++) {
      Slot slot = r.log.get(s);
      if ((slot == null || slot.prePrepare == null && !slot.committed()) && !r.lateCommits.holdsPrePrepare(s)) {
        return false;
      }
    }
    return true;
  }

  @Override
  public long now() {
    return r.now;
  }

  @Override
  public void discardUpTo(long seq) {
    r.discardUpTo(seq);
    r.lateCommits.discardUpTo(seq);
    r.coins.discardUpTo(seq);
    r.decryptions.discardUpTo(seq);
    r.contributions.discardUpTo(seq);
  }

  /** Replace execution state by a proven checkpoint, whose client table is installed already (§4.3). */
  @Override
  public void installed(long seq) {
    r.execution.installed(seq);
    r.shareRelease.checkpointInstalled(seq, r.role != Role.AGREEMENT);
    r.normalCase.assignAbove(seq);
    r.normalCase.dropExecuted();
    r.requests.forgetExecutedCopies();
  }

  @Override
  public void resume() {
    r.execution.executeCommitted();
  }

  @Override
  public long stableSeq() {
    return r.checkpoints.stableSeq();
  }

  @Override
  public long windowTop() {
    return r.checkpoints.stableSeq() + r.cfg.logWindow();
  }

  @Override
  public long lastExecuted() {
    return r.lastExecuted;
  }

  @Override
  public void coinsKnown() {
    r.execution.executeCommitted();
  }

  @Override
  public void decrypted() {
    r.execution.executeCommitted();
  }
}
