package org.bftws.core.message;

import java.util.List;
import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;

/**
 * ⟨NEW-VIEW, v+1, V, O⟩ (Castro-Liskov §4.4): V holds 2f+1 view-change messages, O the pre-prepares the
 * new primary derived from them — which every backup recomputes and checks.
 */
public record NewView(long view, List<Signed> viewChanges, List<Signed> prePrepares) {
  public byte[] encode() {
    ByteWriter w = new ByteWriter(1024).i64(view);
    Codec.writeList(w, viewChanges);
    Codec.writeList(w, prePrepares);
    return w.toBytes();
  }

  public static NewView decode(byte[] body) {
    ByteReader r = new ByteReader(body);
    NewView nv = new NewView(r.i64(), Codec.readList(r, Kind.VIEW_CHANGE), Codec.readList(r, Kind.PRE_PREPARE));
    r.end();
    return nv;
  }
}
