package org.bftws.core.dkg;

import java.math.BigInteger;
import org.bftws.core.crypto.threshold.Codec;
import org.bftws.core.crypto.threshold.DlGroup;
import org.bftws.core.crypto.threshold.KeyShare;

/** Reads the secret of a discrete-logarithm key share from its canonical encoding ({@link KeyShare#encode()}). */
final class Shares {
  private Shares() {}

  static BigInteger secret(DlGroup<?> g, KeyShare share) {
    Codec.Reader r = new Codec.Reader(share.encode());
    r.u8();
    r.u16();
    r.u16();
    r.u16();
    r.u16();
    BigInteger x = g.decodeScalar(r.bytes(), "key share secret");
    r.end();
    return x;
  }
}
