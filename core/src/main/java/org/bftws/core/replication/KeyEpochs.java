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
    if (!changing || seq <= settled + 1) {
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
    return deferred.remove(settled + 1);
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
