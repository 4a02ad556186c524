package org.bftws.core.pbft;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.bftws.core.engine.CoinProof;
import org.bftws.core.engine.Effect;
import org.bftws.core.message.Request;
import org.bftws.core.replication.ClientRequests;

/**
 * Execution at a PBFT replica: committed batches go to the service in sequence order as {@link
 * Effect.Execute}, a checkpoint's state is captured at each interval ({@link Effect.CaptureState}), and the
 * results and states come back through {@link Replica#executed} and {@link Replica#stateCaptured}. A
 * checkpoint installed by state transfer supersedes what was handed out below it.
 */
final class Execution {
  private final Replica r;
  private final ArrayDeque<Effect.Execute> awaitingResults = new ArrayDeque<>();
  /** Sequence number whose state capture is awaited; execution pauses meanwhile (-1: none). */
  private long pendingCapture = -1;
  /** The highest checkpoint installed by state transfer: results and states at or below it are moot. */
  private long installedUpTo;

  Execution(Replica r) {
    this.r = r;
  }

  /** The results of the {@link Effect.Execute} for seq, in request order. */
  void executed(long seq, List<byte[]> results) {
    Effect.Execute head = awaitingResults.peek();
    if ((head == null || head.seq() != seq) && seq <= installedUpTo) {
      return; // an execution that a state transfer superseded meanwhile: its result is moot
    }
    ClientRequests.checkResults(head, seq, results);
    awaitingResults.poll();
    r.requests.executed(head, results, r.out);
  }

  /** The application state captured for the checkpoint at seq ({@code get_state}). */
  void stateCaptured(long seq, byte[] appState) {
    if (seq != pendingCapture) {
      if (seq <= installedUpTo) {
        return; // superseded by a state transfer meanwhile
      }
      throw new IllegalStateException("stateCaptured(" + seq + ") but awaiting " + pendingCapture);
    }
    if (!awaitingResults.isEmpty()) {
      throw new IllegalStateException("stateCaptured(" + seq + ") before the results of " + awaitingResults.peek().seq());
    }
    pendingCapture = -1;
    r.checkpoints.own(seq, appState);
    executeCommitted();
  }

  /**
   * Hand committed batches to execution in sequence order; pause after a checkpoint boundary until its
   * state is captured (the get_state injected at the head of the queue, BFT-WS §3.3.1.8), and before a
   * batch until the coins of its randomized requests are known (CT algorithm) and its confidential requests
   * opened (SINTRA §2.6); a confidential request whose ciphertext was refused is skipped, alike everywhere.
   */
  void executeCommitted() {
    boolean progressed = false;
    while (pendingCapture < 0 && r.lastExecuted >= r.checkpoints.stableSeq() && !r.handouts.paused()) {
      Slot slot = r.log.get(r.lastExecuted + 1);
      if (slot == null || !slot.committed() || !r.coins.ready(slot.seq, slot.committedBatch)
          || !r.contributions.ready(slot) || !r.decryptions.ready(slot.seq, slot.committedBatch)) {
        break;
      }
      r.lastExecuted = slot.seq;
      if (executeBatch(slot)) {
        progressed = true;
      }
      if (slot.seq % r.cfg.checkpointInterval() == 0 && r.role == Role.AGREEMENT) {
        r.checkpoints.own(slot.seq, null); // the ordering part alone: no service state here (BFT-WS §3.3.2)
      } else if (slot.seq % r.cfg.checkpointInterval() == 0) {
        pendingCapture = slot.seq;
        r.out.effects.add(new Effect.CaptureState(slot.seq));
      }
    }
    if (progressed) {
      r.viewChanges.onProgress();
    }
    r.normalCase.propose();
  }

  /** One committed batch: its requests run (with their random numbers), terminate or are skipped; true if any ran or terminated. */
  private boolean executeBatch(Slot slot) {
    List<Request> run = new ArrayList<>();
    List<byte[]> randoms = new ArrayList<>();
    List<CoinProof> coinProofs = new ArrayList<>();
    List<Request> terminates = new ArrayList<>();
    for (int i = 0; i < slot.committedBatch.size(); i++) {
      Request q = Request.decode(slot.committedBatch.get(i).body());
      r.normalCase.ordered(q.id());
      q = r.decryptions.opened(slot.seq, i, q);
      if (q == null) {
        continue; // a refused ciphertext: no correct replica executes it
      }
      ClientRequests.Order order = r.requests.order(q);
      if (order == ClientRequests.Order.SKIP) {
        continue; // a duplicate, a replay, or a sequence of another client: every correct replica skips it
      }
      if (order == ClientRequests.Order.TERMINATE) {
        terminates.add(q);
      } else {
        run.add(q);
        randoms.add(r.contributions.active() ? r.contributions.random(slot, i) : r.coins.random(slot.seq, i));
        coinProofs.add(r.contributions.active() ? CoinProof.NONE : r.coins.proof(slot.seq, i));
      }
    }
    r.requests.answerTerminates(r.view, terminates, r.out); // an agreement-only replica sends nothing
    if (!run.isEmpty() && r.role == Role.BOTH) {
      Effect.Execute ex = new Effect.Execute(slot.seq, r.view, slot.committedDigest, List.copyOf(run),
          List.copyOf(randoms), List.copyOf(coinProofs));
      awaitingResults.add(ex);
      r.out.effects.add(ex);
    }
    return !run.isEmpty() || !terminates.isEmpty();
  }

  /** A checkpoint at seq was installed by state transfer (§4.3): what was handed out up to it is moot. */
  void installed(long seq) {
    installedUpTo = Math.max(installedUpTo, Math.max(seq, r.lastExecuted));
    r.lastExecuted = seq;
    awaitingResults.clear();
    pendingCapture = -1;
  }

  long pendingCapture() {
    return pendingCapture;
  }
}
