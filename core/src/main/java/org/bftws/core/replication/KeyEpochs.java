package org.bftws.core.replication;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.bftws.core.message.Signed;

/**
 * Which threshold key set serves each sequence number when a group's keys change while it runs (a
 * distributed key generation finishing, a proactive refresh: Herzberg-Jarecki-Krawczyk-Yung, CRYPTO 1995,
 * §3): a key set installed with {@code afterSeq} = s serves every seq above s, the one before it every seq up
 * to s. s is the sequence number at which the group's ordering delivered the key set's outcome, the same at
 * every correct replica, so every correct replica releases its shares of one seq under the same keys.
 *
 * <p>A replica executes in a pipeline, and a batch above s may be final here before the service executed s,
 * when the keys for it are not yet known. With keys that may change, the shares of a batch are therefore
 * deferred until the results of every batch below it are back ({@link #settle}); the embedding installs the
 * keys of s before it returns the results of s. A batch without randomized or confidential requests waits
 * for nothing. Memory: deferred batches lie in the log window above the stable checkpoint; key sets below the
 * one serving the stable checkpoint are dropped ({@link #discardUpTo}).
 *
 * <p>A checkpoint installed by state transfer settles everything up to its seq, but the keys its state delivered
 * (a key generation or refresh that ended at or below it, which this replica did not execute) reach the engine
 * only when the embedding installs that state, after the step that decided to install it. Until the embedding
 * confirms it ({@link #stateInstalled}), no batch above the checkpoint releases its shares
 * ({@link #checkpointInstalled}): else one already final here would be tossed or opened under the keys before
 * the switch, and its random numbers and plaintexts differ from the other replicas'.
 */
public final class KeyEpochs<T> {
  /** A final batch whose shares wait for the results below it. */
  record Deferred(long seq, byte[] digest, List<Signed> batch) {}

  private final boolean changing;
  /** Key sets by the seq above which they serve. */
  private final TreeMap<Long, T> byStart = new TreeMap<>();
  private final TreeMap<Long, Deferred> deferred = new TreeMap<>();
  /** The results of every batch up to here are back (or a checkpoint here was installed). */
  private long settled;
  /** The seq of a checkpoint installed here whose state the embedding has not yet installed (-1: none). */
  private long stateAwaited = -1;

  /** {@code initial}: the keys from the start (null: none yet); {@code changing}: whether any may follow. */
  KeyEpochs(T initial, boolean changing) {
    this.changing = changing;
    if (initial != null) {
      byStart.put(Long.MIN_VALUE, initial);
    }
  }

  boolean changing() {
    return changing;
  }

  /** The keys serving seq, or null if none do. */
  T at(long seq) {
    Map.Entry<Long, T> e = byStart.lowerEntry(seq);
    return e == null ? null : e.getValue();
  }

  /** The newest keys installed (or the initial ones), or null. */
  T latest() {
    return byStart.isEmpty() ? null : byStart.lastEntry().getValue();
  }

  /**
   * {@code keys} serve every seq above {@code afterSeq}.
   *
   * @throws IllegalStateException if the keys were fixed at construction
   * @throws IllegalArgumentException if a key set serving a later start is installed already
   */
  void install(long afterSeq, T keys) {
    if (!changing) {
      throw new IllegalStateException("this engine's keys were fixed when it was built");
    }
    if (!byStart.isEmpty() && byStart.lastKey() > afterSeq) {
      throw new IllegalArgumentException("keys after seq " + afterSeq + " installed after keys from seq "
          + byStart.lastKey());
    }
    byStart.put(afterSeq, keys);
  }

  /** Whether the shares of the batch final at seq must wait (then it is kept). */
  boolean defer(long seq, byte[] digest, List<Signed> batch) {
    if (!changing || seq <= settled + 1 && stateAwaited < 0) {
      return false;
    }
    deferred.put(seq, new Deferred(seq, digest, batch));
    return true;
  }

  boolean isDeferred(long seq) {
    return deferred.containsKey(seq);
  }

  /** The results up to seq are back: the deferred batch now free to release its shares, or null. */
  Deferred settle(long seq) {
    settled = Math.max(settled, seq);
    deferred.headMap(settled, true).clear();
    return stateAwaited >= 0 ? null : deferred.remove(settled + 1);
  }

  /**
   * A checkpoint at seq was installed by state transfer: settled up to it, but with keys that change, nothing
   * above it is released before the embedding has installed its state ({@link #stateInstalled}).
   */
  Deferred checkpointInstalled(long seq) {
    if (changing) {
      stateAwaited = Math.max(stateAwaited, seq);
    }
    return settle(seq);
  }

  /**
   * The embedding installed the state of the checkpoint at seq, and the keys that state delivered: the batch
   * after the settled ones may release its shares, or null. A confirmation of an older checkpoint than the
   * last installed releases nothing.
   */
  Deferred stateInstalled(long seq) {
    if (stateAwaited < 0 || seq < stateAwaited) {
      return null;
    }
    stateAwaited = -1;
    return settle(seq);
  }

  /** Whether a checkpoint's state is installed in the engine but not yet confirmed by the embedding. */
  boolean awaitingState() {
    return stateAwaited >= 0;
  }

  /** The checkpoint at seq is stable: what served below it is no longer needed. */
  void discardUpTo(long seq) {
    deferred.headMap(seq, true).clear();
    Long floor = byStart.lowerKey(seq + 1);
    if (floor != null) {
      byStart.headMap(floor, false).clear();
    }
  }

  /** For tests and traces: batches waiting, key sets kept. */
  int deferredCount() {
    return deferred.size();
  }

  int keySets() {
    return byStart.size();
  }
}
