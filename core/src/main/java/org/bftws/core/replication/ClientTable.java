package org.bftws.core.replication;

import java.util.Map;
import java.util.TreeMap;
import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;
import org.bftws.core.codec.DecodeException;
import org.bftws.core.config.GroupConfig;
import org.bftws.core.message.Request;
import org.bftws.core.message.RequestId;
import org.bftws.core.message.SequenceOwner;

/**
 * Per WS-RM sequence: the client it belongs to (for a replicated client's members, its principal), the last
 * message number ordered for execution and its reply, the "last reply sent to each client" of Castro-Liskov
 * §4.1. It makes execution exactly-once and answers
 * retransmitted requests from the cache; it is part of every checkpoint, so state transfer carries it. A
 * sequence belongs to the client its id names ({@link SequenceOwner}), or else to the client whose request on
 * it was ordered first: another client's requests on it are never executed (they could otherwise push its
 * numbers ahead and silence its owner). A terminated sequence
 * keeps a tombstone ({@link Request#TERMINATE}, an empty reply) and nothing else.
 *
 * <p>Bounded by pruning, alike at every correct replica: every {@link #PRUNE_EVERY} ordered requests (fewer with a
 * short retention; a point of the ordered history, so replicas that ordered the same history prune alike and the
 * checkpoint's ordering part carries the result), the entries of sequences with a birth time
 * ({@link SequenceOwner#birth}) that ordered nothing for the retention ({@code bftws.clientTableRetention})
 * are removed, terminated or not (a client that crashed never terminates; Sandesha2 has long dropped such a
 * sequence after its inactivity timeout), and their client's low-water mark rises to their birth time. A
 * sequence that is not in the
 * table and was born at or before its client's mark is old: nothing of it is new (Castro-Liskov §4.1's
 * timestamps, the birth time being the timestamp), so a replayed request of a pruned sequence never executes
 * again. The marks are one number per client that ordered on a bound sequence, bounded by the group's client
 * keys.
 */
public final class ClientTable {
  static final class Entry {
    long messageNumber;
    byte[] result;
    byte[] random;
    int client;
    /** The table's count of ordered requests when this sequence last ordered one. */
    long lastOrdered;
  }

  public static final byte[] EMPTY = new byte[0];
  /**
   * Ordered requests between two prunings at most: a scan of the table costs little against 1024 executions.
   * With a short retention they come every retention / 16 ordered requests, so the scan stays as cheap per
   * request and the table as close to its bound.
   */
  static final long PRUNE_EVERY = 1024;

  private final TreeMap<String, Entry> entries = new TreeMap<>();
  /** Client → the latest birth time of its pruned sequences (Castro-Liskov §4.1's last timestamp). */
  private final TreeMap<Integer, Long> lowWater = new TreeMap<>();
  private final long pruneEvery;
  private final long retention;
  private long orderedCount;
  /** Bumped whenever entries may have left the table (pruned, or replaced by state transfer). */
  private long removals;

  /** With the default retention: for a table that only carries a checkpoint's entries to {@link #copyFrom}. */
  public ClientTable() {
    this(GroupConfig.CLIENT_TABLE_RETENTION.defaultValue());
  }

  /** Tombstones kept for {@code retention} ordered requests ({@code bftws.clientTableRetention}). */
  public ClientTable(long retention) {
    this(Math.max(1, Math.min(PRUNE_EVERY, retention / 16)), retention);
  }

  private ClientTable(long pruneEvery, long retention) {
    this.pruneEvery = pruneEvery;
    this.retention = retention;
  }

  /** True when (sequence, message number) is newer than anything ordered for that sequence. */
  public boolean isNew(RequestId id) {
    Entry e = entries.get(id.sequenceId());
    return e == null ? !pruned(id.sequenceId()) : id.messageNumber() > e.messageNumber;
  }

  /** True when {@code sequenceId} is not in the table because it was pruned (born at or before its mark). */
  boolean pruned(String sequenceId) {
    long birth = SequenceOwner.birth(sequenceId);
    if (birth < 0 || entries.containsKey(sequenceId)) {
      return false;
    }
    Long mark = lowWater.get(SequenceOwner.of(sequenceId));
    return mark != null && birth <= mark;
  }

  /** Changes whenever entries may have left the table: whoever keeps per-sequence state beside it rechecks. */
  long removals() {
    return removals;
  }

  /** Sequences in the table. */
  public int size() {
    return entries.size();
  }

  /**
   * True when {@code q}'s sequence names another client than {@code principal} (whom q's signer acts for:
   * itself, or its replicated client, {@link ReplicatedClients}), or was first used by another one.
   */
  boolean ownedByOther(Request q, int principal) {
    if (SequenceOwner.of(q.sequenceId()) != SequenceOwner.UNBOUND) {
      return q.namesAnotherClientThan(principal);
    }
    Entry e = entries.get(q.sequenceId());
    return e != null && e.client != principal;
  }

  /** Ends {@code q}'s sequence: nothing of it is new any more, and the cached reply becomes the empty one. */
  void terminated(Request q, int principal) {
    ordered(q.id(), principal);
    result(q.id(), EMPTY, EMPTY);
  }

  Entry get(String sequenceId) {
    return entries.get(sequenceId);
  }

  void ordered(RequestId id, int client) {
    Entry e = entries.computeIfAbsent(id.sequenceId(), k -> new Entry());
    e.messageNumber = id.messageNumber();
    e.client = client;
    e.result = null;
    e.random = null;
    e.lastOrdered = ++orderedCount;
    if (orderedCount % pruneEvery == 0) {
      prune();
    }
  }

  /**
   * Removes the entries with a birth time idle for the retention, tombstones and sequences never terminated
   * alike, raising their clients' marks (see the class comment).
   */
  private void prune() {
    removals++;
    entries.entrySet().removeIf(me -> {
      Entry e = me.getValue();
      long birth = SequenceOwner.birth(me.getKey());
      if (birth < 0 || orderedCount - e.lastOrdered < retention) {
        return false;
      }
      lowWater.merge(SequenceOwner.of(me.getKey()), birth, Math::max);
      return true;
    });
  }

  void result(RequestId id, byte[] result, byte[] random) {
    Entry e = entries.get(id.sequenceId());
    if (e != null && e.messageNumber == id.messageNumber()) {
      e.result = result;
      e.random = random;
    }
  }

  public void copyFrom(ClientTable other) {
    removals++;
    entries.clear();
    entries.putAll(other.entries);
    lowWater.clear();
    lowWater.putAll(other.lowWater);
    orderedCount = other.orderedCount;
  }

  /**
   * The ordering part, alike at every correct replica that ordered the same history, executing or not
   * (BFT-WS §3.3.2): per sequence its client and last ordered message number. The checkpoint's ordering
   * digest covers it, with the pruning state (count of ordered requests, each sequence's last one, the marks).
   */
  void writeOrdering(ByteWriter w) {
    w.i32(entries.size());
    for (Map.Entry<String, Entry> me : entries.entrySet()) {
      Entry e = me.getValue();
      w.str(me.getKey()).i64(e.messageNumber).i32(e.client).i64(e.lastOrdered);
    }
    w.i64(orderedCount).i32(lowWater.size());
    for (Map.Entry<Integer, Long> m : lowWater.entrySet()) {
      w.i32(m.getKey()).i64(m.getValue());
    }
  }

  /**
   * The replies part, which only executing replicas hold: per sequence (in {@link #writeOrdering}'s order) its
   * cached reply. The checkpoint's execution digest covers it with the application state.
   */
  void writeReplies(ByteWriter w) {
    w.i32(entries.size());
    for (Entry e : entries.values()) {
      w.bool(e.result != null);
      if (e.result != null) {
        w.bytes(e.result).bytes(e.random);
      }
    }
  }

  /** Replaces the table by a {@link #writeOrdering} encoding: no cached replies. */
  void readOrdering(ByteReader r) {
    removals++;
    entries.clear();
    int n = r.count(1 << 24);
    for (int i = 0; i < n; i++) {
      String seq = r.str();
      Entry e = new Entry();
      e.messageNumber = r.i64();
      e.client = r.i32();
      e.lastOrdered = r.i64();
      entries.put(seq, e);
    }
    orderedCount = r.i64();
    lowWater.clear();
    int marks = r.count(1 << 24);
    for (int i = 0; i < marks; i++) {
      int client = r.i32();
      lowWater.put(client, r.i64());
    }
  }

  /** Fills the cached replies from a {@link #writeReplies} encoding of the same table. */
  void readReplies(ByteReader r) {
    if (r.count(1 << 24) != entries.size()) {
      throw new DecodeException("replies of another client table");
    }
    for (Entry e : entries.values()) {
      if (r.bool()) {
        e.result = r.bytes();
        e.random = r.bytes();
      }
    }
  }
}
