package org.bftws.core.engine;

import java.util.List;
import org.bftws.core.message.Request;

/** Work the embedding must do for the replica, in order (see {@link Ready}). */
public sealed interface Effect {
  /**
   * Execute these requests of the batch committed at seq, in order (duplicates already removed:
   * exactly-once per (sequence id, message number)), each with its random number (empty when the
   * operation is not randomized), then call {@link Engine#executed}.
   */
  record Execute(long seq, long view, byte[] batchDigest, List<Request> requests, List<byte[]> randoms)
      implements Effect {}

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
