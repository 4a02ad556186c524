package org.bftws.core.engine;

import java.util.List;
import org.bftws.core.message.Request;

/**
 * An ordering engine in the contract of {@link Ready}: stepped with messages, ticks, execution results and
 * captured states, each step returning what the embedding must do. PBFT's {@code pbft.Replica}, SINTRA's
 * atomic broadcast ({@code async.AsyncReplica}) and configuration III's execution node ({@code
 * pbft.ExecutionNode}) implement it; the embedding (the Axis2 module's Total Order Manager, the simulator)
 * knows an engine only through this interface. What differs between engines (roles, randomness,
 * journaling, read-only execution) is fixed when the engine is built, never set through this contract.
 */
public interface Engine {
  /** A message from a peer or client, as received (not yet authenticated: the engine checks). */
  Ready receive(byte[] bytes);

  /** One unit of logical time. */
  Ready tick();

  /** The results of the {@link Effect.Execute} for seq, in request order. */
  Ready executed(long seq, List<byte[]> results);

  /**
   * The result of an {@link Effect.ExecuteReadOnly} this engine handed out (Castro-Liskov §5.1.3): replied to
   * at once, never cached. Engines that hand out none refuse the call.
   */
  default Ready executedReadOnly(Request request, byte[] result) {
    throw new IllegalStateException(getClass().getSimpleName() + " hands out no read-only execution");
  }

  /** The application state captured for the checkpoint at seq ({@code get_state}). */
  Ready stateCaptured(long seq, byte[] appState);

  /**
   * The first step of an engine restarted with the {@link Journal} records it emitted in {@link
   * Ready#persist} (oldest first), before any other step. Engines built without a journal emit none and
   * refuse the call.
   *
   * @throws IllegalArgumentException if the journal is damaged
   */
  default Ready recover(List<Journal.Record> records) {
    throw new IllegalStateException(getClass().getSimpleName() + " keeps no journal to recover from");
  }

  /**
   * New threshold keys (a distributed key generation's outcome, a proactive refresh's) serving every request
   * ordered above seq {@code orderedAt}, the point every correct replica agrees on: the seq whose execution
   * delivered the keys' outcome. Requests up to it keep the keys before. The embedding calls it before it
   * returns that seq's results ({@link #executed}). Engines built with fixed keys refuse the call.
   */
  default Ready installKeys(long orderedAt, KeySet keys) {
    throw new IllegalStateException(getClass().getSimpleName() + " was built with fixed threshold keys");
  }

  /**
   * The embedding installed the state of the {@link Effect.InstallState} at seq (a state transfer's, or the
   * journal's stable checkpoint at a restart) and, before this call, the keys that state delivered ({@link
   * #installKeys} with the seq the keys were ordered at). An engine built with keys that change releases no coin
   * or decryption share of a batch above seq until then (replication.KeyEpochs): the keys serving it may be the
   * ones that state delivered. Other engines need no such call and take it as a no-op.
   */
  default Ready stateInstalled(long seq) {
    return new Ready();
  }

  int id();

  /** The last sequence number handed to execution. */
  long lastExecuted();

  long stableCheckpoint();

  int pendingRequests();

  /**
   * Sequences in the client table, tombstones included: bounded by {@code bftws.clientTableRetention} (Castro-Liskov
   * §4.1 timestamps, docs/engine.md "Bounding the client table"); an operator watches it stay flat.
   */
  int clientTableEntries();

  /** The view (Castro-Liskov §4.1) of an engine with a primary; 0 for one without. */
  default long view() {
    return 0;
  }

  /** Whether the engine has a primary, the replica view mod n ({@link #view}). */
  default boolean hasPrimary() {
    return false;
  }

  /** False while a view change is in progress (Castro-Liskov §4.4); always true for engines without views. */
  default boolean isActive() {
    return true;
  }

  /**
   * Protocol messages held for later: PBFT's log slots between the watermarks, the asynchronous engine's
   * messages buffered for rounds it has not reached; 0 for an engine that holds none.
   */
  default int logSize() {
    return 0;
  }

  /** One line of state for logs and traces. */
  String describe();
}
