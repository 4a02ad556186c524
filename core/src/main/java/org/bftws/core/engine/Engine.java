package org.bftws.core.engine;

import java.util.List;

/**
 * An ordering engine in the contract of {@link Ready}: stepped with messages, ticks, execution results and
 * captured states, each step returning what the embedding must do. {@link Replica} (PBFT) and the
 * asynchronous {@code async.AsyncReplica} (SINTRA's atomic broadcast) implement it.
 */
public interface Engine {
  /** A message from a peer or client, as received (not yet authenticated: the engine checks). */
  Ready receive(byte[] bytes);

  /** One unit of logical time. */
  Ready tick();

  /** The results of the {@link Effect.Execute} for seq, in request order. */
  Ready executed(long seq, List<byte[]> results);

  /** The application state captured for the checkpoint at seq ({@code get_state}). */
  Ready stateCaptured(long seq, byte[] appState);

  int id();

  /** The last sequence number handed to execution. */
  long lastExecuted();

  long stableCheckpoint();

  int pendingRequests();

  /** One line of state for logs and traces. */
  String describe();
}
