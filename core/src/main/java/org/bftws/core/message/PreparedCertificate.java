package org.bftws.core.message;

import java.util.List;
import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;
import org.bftws.core.codec.DecodeException;

/**
 * P_m of a view change (Castro-Liskov §4.4): a signed pre-prepare and 2f matching signed prepares from
 * distinct backups, proving that a batch prepared at (v, n). With the BA algorithm (integrity paper §4)
 * {@code randomness} is the set S_R the batch prepared with (a {@link Kind#PP_UPDATE} set holding the
 * contributors' signed pp-updates), from which anyone recomputes R and d' = D(d || R), the digest the
 * prepares are on; null when the batch needs no random number.
 */
public record PreparedCertificate(Signed prePrepare, List<Signed> prepares, Signed randomness) {
  public PreparedCertificate(Signed prePrepare, List<Signed> prepares) {
    this(prePrepare, prepares, null);
  }

  /** As it travels in a VIEW-CHANGE, and as a replica's journal keeps it (TOCS 2002 §4.3). */
  public byte[] encode() {
    ByteWriter w = new ByteWriter(512);
    write(w);
    return w.toBytes();
  }

  public static PreparedCertificate decode(byte[] bytes) {
    ByteReader r = new ByteReader(bytes);
    PreparedCertificate c = read(r);
    r.end();
    return c;
  }

  void write(ByteWriter w) {
    prePrepare.write(w);
    Codec.writeList(w, prepares);
    w.bool(randomness != null);
    if (randomness != null) {
      randomness.write(w);
    }
  }

  static PreparedCertificate read(ByteReader r) {
    Signed pp = Signed.read(r);
    if (pp.kind() != Kind.PRE_PREPARE) {
      throw new DecodeException("prepared certificate without a pre-prepare");
    }
    List<Signed> prepares = Codec.readList(r, Kind.PREPARE);
    Signed randomness = r.bool() ? Signed.read(r) : null;
    if (randomness != null && randomness.kind() != Kind.PP_UPDATE) {
      throw new DecodeException("prepared certificate randomness that is not a pp-update");
    }
    return new PreparedCertificate(pp, prepares, randomness);
  }
}
