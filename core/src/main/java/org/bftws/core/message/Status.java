package org.bftws.core.message;

import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;
import org.bftws.core.codec.DecodeException;

/**
 * ⟨STATUS, v, active, h, le, i⟩ (Castro-Liskov TOCS 2002 §5.2): replica i is in view v, {@code active} if it
 * holds v's new-view (false while it changes view), h is its last stable checkpoint and le the last sequence
 * number it executed. Peers answer with the messages they sent or hold that i lacks; a status never changes
 * the receiver's protocol state. The paper's prepared and committed bitmaps are not carried: the receiver
 * resends what it holds above le, which the log window bounds.
 */
public record Status(long view, boolean active, long stableSeq, long lastExecuted) {
  public Status {
    if (view < 0 || stableSeq < 0 || lastExecuted < 0) {
      throw new DecodeException("negative view or sequence number in a status");
    }
  }

  public byte[] encode() {
    return new ByteWriter(25).i64(view).bool(active).i64(stableSeq).i64(lastExecuted).toBytes();
  }

  public static Status decode(byte[] body) {
    ByteReader r = new ByteReader(body);
    Status s = new Status(r.i64(), r.bool(), r.i64(), r.i64());
    r.end();
    return s;
  }
}
