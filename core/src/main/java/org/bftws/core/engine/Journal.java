package org.bftws.core.engine;

import java.util.ArrayList;
import java.util.List;
import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;
import org.bftws.core.codec.DecodeException;

/**
 * What a PBFT replica must remember across a crash so that it restarts as a correct replica rather than an
 * amnesiac one (Castro-Liskov TOCS 2002 §4.3 keeps the log on disk across a reboot): its last stable
 * checkpoint, the view it is in or moving to, the prepared certificates it holds and the votes it signed
 * above that checkpoint. A replica that forgot a vote could sign a conflicting one, and one that forgot a
 * prepared certificate would leave it out of its view-change message; either counts as a fault.
 *
 * <p>The replica emits records in {@link Ready#persist}; the embedding appends them durably, in order,
 * before it sends that step's messages, and hands them back to {@link Engine#recover} after a restart.
 * {@link #compact} says which records a newer stable checkpoint makes moot, so the journal stays within the
 * log window.
 *
 * <p>The asynchronous engine ({@code async.AsyncReplica}) writes {@link Type#STABLE} and {@link Type#SIGNED}
 * records only: its stable checkpoint and each message that commits it in a slot of a SINTRA protocol instance
 * (seq: the channel round), docs/journal.md "The asynchronous engine".
 */
public final class Journal {
  private Journal() {}

  /** The kinds of record, and what {@link Record#seq} means for each. */
  public enum Type {
    /**
     * The last stable checkpoint whose parts this replica holds: seq is its sequence number, body the STATE
     * message that would carry it (ordering part, execution part at an executing replica, proof).
     */
    STABLE,
    /**
     * The view this replica is in or changing to: seq is the view number, body the VIEW-CHANGE it sent for it
     * or the NEW-VIEW through which it entered it.
     */
    VIEW,
    /** A prepared certificate held at seq (pre-prepare and 2f matching prepares), as {@code PreparedCertificate.encode}. */
    PREPARED,
    /**
     * A message about seq that this replica must not contradict: a pre-prepare it accepted (or sent as
     * primary), a prepare or commit it sent, a BA contribution or commitment (with the hardened variant's
     * secret values and nonce) or, as primary, a contribution set. Body: the envelope and those secrets.
     * The asynchronous engine's: a message committing it in a protocol slot (seq: its channel round; body:
     * destination, slot key and envelope).
     */
    SIGNED,
    /**
     * A message that commits the replica in a slot of a view rather than of a seq: the hybrid engine's SWITCH
     * and its fallback's agreement messages in an epoch (seq: the epoch; body as the asynchronous engine's
     * {@link #SIGNED}). Such a slot stays open however far the seqs move while the replica is in that epoch,
     * so it is kept while its view is at or above the last {@link #VIEW} record's (the hybrid engine writes
     * there the epoch of its stable checkpoint, the lowest epoch a restart from the journal re-enters).
     */
    VIEW_SIGNED;

    private static final Type[] ALL = values();

    static Type of(int code) {
      if (code < 0 || code >= ALL.length) {
        throw new DecodeException("unknown journal record type " + code);
      }
      return ALL[code];
    }
  }

  /** One durable record. */
  public record Record(Type type, long seq, byte[] body) {
    public Record {
      if (type == null || seq < 0 || body == null) {
        throw new IllegalArgumentException("journal record needs a type, a non-negative seq and a body");
      }
    }

    public byte[] encode() {
      return new ByteWriter(13 + body.length).u8(type.ordinal()).i64(seq).bytes(body).toBytes();
    }

    public static Record decode(byte[] bytes) {
      ByteReader r = new ByteReader(bytes);
      Record rec = new Record(Type.of(r.u8()), r.i64(), r.bytes());
      r.end();
      return rec;
    }
  }

  /**
   * The records still needed after the last {@link Type#STABLE} one: that record, the last {@link Type#VIEW}
   * record, the {@link Type#VIEW_SIGNED} records at or above that view, and every other record above the
   * stable checkpoint, in their order. Records at or below it are covered by the checkpoint's proof (§4.3
   * garbage collection).
   */
  public static List<Record> compact(List<Record> records) {
    long stable = -1;
    int lastStable = -1;
    int lastView = -1;
    for (int i = 0; i < records.size(); i++) {
      Record r = records.get(i);
      if (r.type() == Type.STABLE && r.seq() >= stable) {
        stable = r.seq();
        lastStable = i;
      } else if (r.type() == Type.VIEW) {
        lastView = i;
      }
    }
    List<Record> kept = new ArrayList<>();
    for (int i = 0; i < records.size(); i++) {
      Record r = records.get(i);
      boolean keep = switch (r.type()) {
        case STABLE -> i == lastStable;
        case VIEW -> i == lastView;
        case VIEW_SIGNED -> lastView < 0 || r.seq() >= records.get(lastView).seq();
        default -> r.seq() > stable;
      };
      if (keep) {
        kept.add(r);
      }
    }
    return kept;
  }
}
