package org.bftws.core.engine;

import java.util.List;
import org.bftws.core.message.Request;

/** Work the embedding must do for the replica, in order (see {@link Ready}). */
public sealed interface Effect {
  /**
   * Execute these requests of the batch committed at seq, in order (duplicates already removed:
   * exactly-once per (sequence id, message number)), each with its random number (empty when the
   * operation is not randomized), then call {@link Engine#executed}. {@code coins} holds, per request, what
   * the group signed for its random number and the combined value (CT algorithm, one coin per request), so
   * that the embedding can show a third party; {@link CoinProof#NONE} where there is none.
   */
  record Execute(long seq, long view, byte[] batchDigest, List<Request> requests, List<byte[]> randoms,
      List<CoinProof> coins) implements Effect {
    /** Without coin values (none shown to third parties). */
    public Execute(long seq, long view, byte[] batchDigest, List<Request> requests, List<byte[]> randoms) {
      this(seq, view, batchDigest, requests, randoms, randoms.stream().map(r -> CoinProof.NONE).toList());
    }

    public Execute {
      if (coins.size() != requests.size() || randoms.size() != requests.size()) {
        throw new IllegalArgumentException("one random number and one coin proof per request");
      }
    }
  }

  /**
   * Execute this read-only request against the current state, after the effects handed out before it, and
   * without changing that state (Castro-Liskov §5.1.3); then call {@link Engine#executedReadOnly}. Not part
   * of the total order: nothing of it enters the client table or a checkpoint.
   */
  record ExecuteReadOnly(Request request) implements Effect {}

  /** Capture the application state after seq ({@code get_state}), then call {@link Engine#stateCaptured}. */
  record CaptureState(long seq) implements Effect {}

  /** Replace the application state by this checkpoint's ({@code set_state}); it reflects seq. */
  record InstallState(long seq, byte[] appState) implements Effect {}
}
