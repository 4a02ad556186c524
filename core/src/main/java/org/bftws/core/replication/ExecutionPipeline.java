package org.bftws.core.replication;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.bftws.core.engine.CoinProof;
import org.bftws.core.engine.Effect;
import org.bftws.core.engine.Ready;
import org.bftws.core.message.Request;
import org.bftws.core.message.Signed;

/**
 * Execution as every engine does it, once its ordering decided a batch (a PBFT committed batch, a SINTRA
 * delivered round, a configuration III certified batch): the batch's requests in order either run, with
 * their random numbers, or terminate their sequence, or are skipped (a duplicate, a replay, a sequence
 * another client owns, a refused ciphertext), alike at every correct replica ({@link ClientRequests}); the
 * requests that run go to the service as one {@link Effect.Execute}, and at a checkpoint boundary the
 * service's state is captured ({@link Effect.CaptureState}, the get_state of BFT-WS §3.3.1.8) before
 * anything later executes.
 *
 * <p>The results and captured states come back in the order handed out ({@link #executed}, {@link
 * #stateCaptured}); a checkpoint installed by state transfer (Castro-Liskov §4.3) supersedes what was handed
 * out at or below it, so a result or state that arrives for it afterwards is dropped ({@link #installed}).
 * Which batch is next, and when it is ready (coins known, ciphertexts opened), is the engine's business.
 */
public final class ExecutionPipeline {
  /** What an engine adds to one request of an ordered batch. */
  public interface Hooks {
    /** The request was ordered (before it is opened): it leaves the engine's pending requests. */
    void ordered(Request q);

    /** The request at position i of the batch at seq as it runs: opened if confidential, null if refused. */
    Request opened(long seq, int i, Request q);

    /** The random number of the request at position i of the batch at seq ({@link ClientTable#EMPTY}: none). */
    byte[] random(long seq, int i);

    /** The coin proof of that random number ({@link CoinProof#NONE}: none to show). */
    CoinProof proof(long seq, int i);
  }

  private final ClientRequests requests;
  private final Supplier<Ready> out;
  private final Hooks hooks;
  /** False at an agreement-only replica (BFT-WS §3.3.2): requests are ordered, nothing runs here. */
  private final boolean executes;
  /** Executions handed out whose results are awaited, in order. */
  private final ArrayDeque<Effect.Execute> awaitingResults = new ArrayDeque<>();
  /** Sequence number whose state capture is awaited; execution pauses meanwhile (-1: none). */
  private long pendingCapture = -1;
  /** The highest checkpoint installed by state transfer: results and states at or below it are moot. */
  private long installedUpTo;

  /** {@code out}: the engine's current output (engines replace it on each step). */
  public ExecutionPipeline(ClientRequests requests, Supplier<Ready> out, Hooks hooks, boolean executes) {
    this.requests = requests;
    this.out = out;
    this.hooks = hooks;
    this.executes = executes;
  }

  /**
   * One ordered batch (seq, view, digest, its requests in order): its requests run, terminate or are
   * skipped; true if any ran or terminated.
   */
  public boolean execute(long seq, long view, byte[] digest, List<Signed> batch) {
    List<Request> run = new ArrayList<>();
    List<byte[]> randoms = new ArrayList<>();
    List<CoinProof> coinProofs = new ArrayList<>();
    List<Request> terminates = new ArrayList<>();
    for (int i = 0; i < batch.size(); i++) {
      Request q = Request.decode(batch.get(i).body());
      hooks.ordered(q);
      q = hooks.opened(seq, i, q);
      if (q == null) {
        continue; // a refused ciphertext: no correct replica executes it
      }
      switch (requests.order(q)) {
        case RUN -> {
          run.add(q);
          randoms.add(hooks.random(seq, i));
          coinProofs.add(hooks.proof(seq, i));
        }
        case TERMINATE -> terminates.add(q);
        case SKIP -> { } // a duplicate, a replay, or a sequence of another client: every correct replica skips it
      }
    }
    requests.answerTerminates(view, terminates, out.get()); // an agreement-only replica sends nothing
    if (!run.isEmpty() && executes) {
      Effect.Execute ex = new Effect.Execute(seq, view, digest, List.copyOf(run), List.copyOf(randoms),
          List.copyOf(coinProofs));
      awaitingResults.add(ex);
      out.get().effects.add(ex);
    }
    return !run.isEmpty() || !terminates.isEmpty();
  }

  /** The checkpoint at seq needs the service's state: execution pauses until {@link #stateCaptured}. */
  public void capture(long seq) {
    pendingCapture = seq;
    out.get().effects.add(new Effect.CaptureState(seq));
  }

  /** True while a state capture is awaited: nothing further executes meanwhile. */
  public boolean paused() {
    return pendingCapture >= 0;
  }

  /** The sequence number whose state capture is awaited (-1: none). */
  public long pendingCapture() {
    return pendingCapture;
  }

  /** Executions handed out whose results are awaited. */
  public int awaitingResults() {
    return awaitingResults.size();
  }

  /**
   * The results of the {@link Effect.Execute} for seq, in request order: cached in the client table and sent
   * to the clients; dropped if a state transfer superseded that execution meanwhile.
   */
  public void executed(long seq, List<byte[]> results) {
    Effect.Execute head = awaitingResults.peek();
    if ((head == null || head.seq() != seq) && seq <= installedUpTo) {
      return; // an execution that a state transfer superseded meanwhile: its result is moot
    }
    ClientRequests.checkResults(head, seq, results);
    awaitingResults.poll();
    requests.executed(head, results, out.get());
  }

  /**
   * The state captured for the checkpoint at seq: true if it is the one awaited (the engine takes its
   * checkpoint and execution resumes), false if a state transfer superseded it meanwhile.
   *
   * @throws IllegalStateException if no capture at seq is awaited, or results handed out before it are
   */
  public boolean stateCaptured(long seq) {
    if (seq != pendingCapture) {
      if (seq <= installedUpTo) {
        return false; // superseded by a state transfer meanwhile
      }
      throw new IllegalStateException("stateCaptured(" + seq + ") but awaiting " + pendingCapture);
    }
    if (!awaitingResults.isEmpty()) {
      throw new IllegalStateException("stateCaptured(" + seq + ") before the results of " + awaitingResults.peek().seq());
    }
    pendingCapture = -1;
    return true;
  }

  /**
   * A checkpoint at seq was installed by state transfer (§4.3) at an engine that had handed out execution up
   * to lastExecuted: what was handed out up to either is moot.
   */
  public void installed(long seq, long lastExecuted) {
    installedUpTo = Math.max(installedUpTo, Math.max(seq, lastExecuted));
    awaitingResults.clear();
    pendingCapture = -1;
  }
}
