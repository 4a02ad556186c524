package org.bftws.core.message.async;

import java.util.ArrayList;
import java.util.List;
import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;
import org.bftws.core.codec.DecodeException;

/**
 * One party's signature on a vote of binary agreement (SINTRA §2.3, Cachin-Kursawe-Shoup's ABBA): the
 * justifications and proofs its messages carry are lists of them, {@code i32(count) || (i32(signer) ||
 * bytes(sig))*}. Also the field checks the agreement's messages share.
 */
public record AbbaSig(int signer, byte[] sig) {
  static ByteWriter write(ByteWriter w, List<AbbaSig> sigs) {
    w.i32(sigs.size());
    for (AbbaSig s : sigs) {
      w.i32(s.signer()).bytes(s.sig());
    }
    return w;
  }

  /** At most {@code n} signatures, one a party. */
  static List<AbbaSig> read(ByteReader r, int n) {
    int count = r.count(n);
    List<AbbaSig> out = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      out.add(new AbbaSig(r.i32(), r.bytes()));
    }
    return out;
  }

  /** A bit: 0 or 1. */
  static int bit(int b) {
    if (b > 1) {
      throw new DecodeException("bit " + b);
    }
    return b;
  }

  /** A round of the agreement: from 1 (round 0 is the pre-processing). */
  static long round(long r) {
    if (r < 1) {
      throw new DecodeException("round " + r);
    }
    return r;
  }
}
