package org.bftws.core.replication;

import java.util.Map;
import java.util.TreeMap;
import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;
import org.bftws.core.codec.DecodeException;
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
 */
public final class ClientTable {
  static final class Entry {
    long messageNumber;
    byte[] result;
    byte[] random;
    int client;
  }

  public static final byte[] EMPTY = new byte[0];

  private final TreeMap<String, Entry> entries = new TreeMap<>();

  /** True when (sequence, message number) is newer than anything ordered for that sequence. */
  public boolean isNew(RequestId id) {
    Entry e = entries.get(id.sequenceId());
    return e == null || id.messageNumber() > e.messageNumber;
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
  }

  void result(RequestId id, byte[] result, byte[] random) {
    Entry e = entries.get(id.sequenceId());
    if (e != null && e.messageNumber == id.messageNumber()) {
      e.result = result;
      e.random = random;
    }
  }

  public void copyFrom(ClientTable other) {
    entries.clear();
    entries.putAll(other.entries);
  }

  /**
   * The ordering part, alike at every correct replica that ordered the same history, executing or not
   * (BFT-WS §3.3.2): per sequence its client and last ordered message number. The checkpoint's ordering
   * digest covers it.
   */
  void writeOrdering(ByteWriter w) {
    w.i32(entries.size());
    for (Map.Entry<String, Entry> me : entries.entrySet()) {
      w.str(me.getKey()).i64(me.getValue().messageNumber).i32(me.getValue().client);
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
    entries.clear();
    int n = r.count(1 << 24);
    for (int i = 0; i < n; i++) {
      String seq = r.str();
      Entry e = new Entry();
      e.messageNumber = r.i64();
      e.client = r.i32();
      entries.put(seq, e);
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
