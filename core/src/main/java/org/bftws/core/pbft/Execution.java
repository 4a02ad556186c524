package org.bftws.core.pbft;

import java.util.List;
import org.bftws.core.engine.CoinProof;
import org.bftws.core.engine.Effect;
import org.bftws.core.message.Request;
import org.bftws.core.message.Signed;
import org.bftws.core.replication.ExecutionPipeline;

/**
 * Execution at a PBFT replica: committed batches go to the service in sequence order as {@link
 * Effect.Execute}, a checkpoint's state is captured at each interval ({@link Effect.CaptureState}), and the
 * results and states come back through {@link Replica#executed} and {@link Replica#stateCaptured}. A
 * checkpoint installed by state transfer supersedes what was handed out below it.
 */
final class Execution {
  private final Replica r;
  private final ExecutionPipeline pipeline;
  /**
   * The last batch handed out holds an operation that may end the membership epoch ({@link
   * Replica.Builder#epochBoundaries}): nothing follows it until the results handed out are back.
   */
  private boolean lastMayEndEpoch;

  Execution(Replica r) {
    this.r = r;
    this.pipeline = new ExecutionPipeline(r.requests, () -> r.out, new ExecutionPipeline.Hooks() {
      @Override
      public void ordered(Request q) {
        r.normalCase.ordered(q.id());
      }

      @Override
      public Request opened(long seq, int i, Request q) {
        return r.decryptions.opened(seq, i, q);
      }

      @Override
      public byte[] random(long seq, int i) {
        return r.contributions.active() ? r.contributions.random(r.log.get(seq), i) : r.coins.random(seq, i);
      }

      @Override
      public CoinProof proof(long seq, int i) {
        return r.contributions.active() ? CoinProof.NONE : r.coins.proof(seq, i);
      }
    }, r.role == Role.BOTH);
  }

  /** The results of the {@link Effect.Execute} for seq, in request order. */
  void executed(long seq, List<byte[]> results) {
    pipeline.executed(seq, results);
    if (lastMayEndEpoch && pipeline.awaitingResults() == 0) {
      executeCommitted();
    }
  }

  /**
   * True while a batch holding an operation that may end the membership epoch awaits its results
   * ({@link Replica.Builder#epochBoundaries}): the epoch's end is known only once it is judged. Derived from
   * the results awaited, so a state transfer, which drops them, ends the wait too.
   */
  private boolean awaitingVerdict() {
    return lastMayEndEpoch && pipeline.awaitingResults() > 0;
  }

  private boolean mayEndEpoch(List<Signed> batch) {
    if (r.endsEpoch == null) {
      return false;
    }
    for (Signed q : batch) {
      if (r.endsEpoch.test(Request.decode(q.body()).operation())) {
        return true;
      }
    }
    return false;
  }

  /** The application state captured for the checkpoint at seq ({@code get_state}). */
  void stateCaptured(long seq, byte[] appState) {
    if (pipeline.stateCaptured(seq)) {
      r.checkpoints.own(seq, appState);
      executeCommitted();
    }
  }

  /**
   * Hand committed batches to execution in sequence order; pause after a checkpoint boundary until its
   * state is captured (the get_state injected at the head of the queue, BFT-WS §3.3.1.8), and before a
   * batch until the coins of its randomized requests are known (CT algorithm) and its confidential requests
   * opened (SINTRA §2.6); a confidential request whose ciphertext was refused is skipped, alike everywhere.
   */
  void executeCommitted() {
    boolean progressed = false;
    while (!pipeline.paused() && r.lastExecuted >= r.checkpoints.stableSeq() && !r.handouts.paused()
        && r.lastExecuted < r.epochEnd && !awaitingVerdict()) {
      Slot slot = r.log.get(r.lastExecuted + 1);
      if (slot == null || !slot.committed() || !r.coins.ready(slot.seq, slot.committedBatch)
          || !r.contributions.ready(slot) || !r.decryptions.ready(slot.seq, slot.committedBatch)) {
        break;
      }
      r.lastExecuted = slot.seq;
      if (pipeline.execute(slot.seq, r.view, slot.committedDigest, slot.committedBatch)) {
        progressed = true;
      }
      lastMayEndEpoch = mayEndEpoch(slot.committedBatch);
      settleKeys();
      if (slot.seq % r.cfg.checkpointInterval() == 0 && r.role == Role.AGREEMENT) {
        r.checkpoints.own(slot.seq, null); // the ordering part alone: no service state here (BFT-WS §3.3.2)
      } else if (slot.seq % r.cfg.checkpointInterval() == 0) {
        pipeline.capture(slot.seq);
      }
    }
    if (progressed) {
      r.viewChanges.onProgress();
    }
    r.normalCase.propose();
  }

  /**
   * With keys that change while the group runs: once every batch handed out has its results back, the keys
   * of the next seq are known, and its coin and decryption shares may go out ({@code replication.KeyEpochs}).
   */
  void settleKeys() {
    if (r.coins.changing() && pipeline.awaitingResults() == 0) {
      r.shareRelease.settled(r.lastExecuted);
    }
  }

  /** A checkpoint at seq was installed by state transfer (§4.3): what was handed out up to it is moot. */
  void installed(long seq) {
    pipeline.installed(seq, r.lastExecuted);
    r.lastExecuted = seq;
  }

  long pendingCapture() {
    return pipeline.pendingCapture();
  }
}
