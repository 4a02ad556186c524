package org.bftws.core.message;

import java.util.ArrayList;
import java.util.List;
import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;
import org.bftws.core.codec.DecodeException;
import org.bftws.core.crypto.Digests;

/** Shared pieces of the message encodings: nested envelopes and digests. */
final class Codec {
  /** No list in a message is longer (requests in a batch, certificates in a view change). */
  static final int MAX_LIST = 1 << 16;

  private Codec() {}

  static void writeList(ByteWriter w, List<Signed> list) {
    w.i32(list.size());
    for (Signed s : list) {
      s.write(w);
    }
  }

  static List<Signed> readList(ByteReader r, Kind expected) {
    int n = r.count(MAX_LIST);
    List<Signed> out = new ArrayList<>(Math.min(n, 64));
    for (int i = 0; i < n; i++) {
      Signed s = Signed.read(r);
      if (s.kind() != expected) {
        throw new DecodeException("expected " + expected + " in list, got " + s.kind());
      }
      out.add(s);
    }
    return List.copyOf(out);
  }

  static byte[] readDigest(ByteReader r) {
    return r.raw(Digests.LENGTH);
  }
}
