package org.bftws.core.pbft;

import java.util.ArrayList;
import java.util.List;
import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;
import org.bftws.core.engine.Journal;
import org.bftws.core.engine.Ready;
import org.bftws.core.message.PreparedCertificate;
import org.bftws.core.message.Signed;
import org.bftws.core.replication.Checkpoints;

/**
 * What a journaled {@link Replica} writes to its {@link Journal} ({@link Ready#persist}), at the points where
 * it commits itself (TOCS 2002 §4.3: the log survives a reboot): the view it moves to or enters, each
 * prepared certificate, and each message about a sequence number that it signed or accepted and must not
 * contradict. The stable checkpoint is {@link Checkpoints}'s to journal; {@link Recovery} reads it all back.
 * Records go out in the step that signs, so the embedding holds them on disk before the message leaves.
 */
final class Journaling {
  private final Replica r;
  private boolean on;

  Journaling(Replica r) {
    this.r = r;
  }

  void enable() {
    on = true;
  }

  boolean on() {
    return on;
  }

  /** The VIEW-CHANGE this replica sends for view v, or the NEW-VIEW through which it enters v (§4.4). */
  void view(long v, Signed envelope) {
    if (on) {
      emit(Journal.Type.VIEW, v, envelope.encode());
    }
  }

  /** seq prepared here (§4.2): its certificate goes into every later VIEW-CHANGE, restart or not. */
  void prepared(long seq, PreparedCertificate certificate) {
    if (on) {
      emit(Journal.Type.PREPARED, seq, certificate.encode());
    }
  }

  /** A pre-prepare accepted (or, as primary, sent), a prepare or commit sent, about seq. */
  void signed(long seq, Signed msg) {
    signed(seq, msg, List.of());
  }

  /**
   * A message about seq together with the secrets behind it that a restart could not draw again (hardened
   * BA: the values and nonce a commitment hides, integrity paper §4).
   */
  void signed(long seq, Signed msg, List<byte[]> secrets) {
    if (!on) {
      return;
    }
    byte[] encoded = msg.encode();
    ByteWriter w = new ByteWriter(encoded.length + 64).bytes(encoded).i32(secrets.size());
    for (byte[] s : secrets) {
      w.bytes(s);
    }
    emit(Journal.Type.SIGNED, seq, w.toBytes());
  }

  /** Callers test {@link #on} first, so an unjournaled replica encodes nothing. */
  private void emit(Journal.Type type, long seq, byte[] body) {
    r.out.persist.add(new Journal.Record(type, seq, body));
  }

  /** A {@link Journal.Type#SIGNED} record's body, read back. */
  record SignedRecord(Signed msg, List<byte[]> secrets) {
    static SignedRecord decode(byte[] body) {
      ByteReader rd = new ByteReader(body);
      Signed msg = Signed.decode(rd.bytes());
      int count = rd.count(1 << 16);
      List<byte[]> secrets = new ArrayList<>(count);
      for (int i = 0; i < count; i++) {
        secrets.add(rd.bytes());
      }
      rd.end();
      return new SignedRecord(msg, List.copyOf(secrets));
    }
  }
}
