package org.bftws.core.crypto.threshold;

import java.math.BigInteger;
import java.util.Arrays;
import org.bouncycastle.asn1.x9.X9ECParameters;
import org.bouncycastle.crypto.ec.CustomNamedCurves;
import org.bouncycastle.math.ec.ECCurve;
import org.bouncycastle.math.ec.ECPoint;
import org.bouncycastle.math.ec.FixedPointCombMultiplier;

/**
 * NIST P-256, the prime-order group of the discrete-logarithm schemes ({@link CksCoin}, {@link Tdh2}): 128-bit
 * security. Canonical encodings are strict because points and scalars arrive from possibly Byzantine peers.
 */
final class P256 {
  private static final X9ECParameters PARAMS = CustomNamedCurves.getByName("P-256");
  static final ECCurve CURVE = PARAMS.getCurve();
  static final ECPoint G = PARAMS.getG();
  static final BigInteger Q = PARAMS.getN();
  static final int SCALAR_BYTES = 32;
  static final int POINT_BYTES = 33;
  /** Fixed-base comb for g: faster than the generic multiplier and regular in the scalar's bits. */
  private static final FixedPointCombMultiplier COMB = new FixedPointCombMultiplier();

  private P256() {}

  /** g^x. */
  static ECPoint timesG(BigInteger x) {
    return COMB.multiply(G, x).normalize();
  }

  /** b^x, with the comb when b is g. */
  static ECPoint times(ECPoint b, BigInteger x) {
    return b == G ? timesG(x) : b.multiply(x).normalize();
  }

  static byte[] encodePoint(ECPoint p) {
    return p.getEncoded(true);
  }

  /** SEC1 compressed, on the curve, not infinity, and canonical (re-encodes to the same bytes). */
  static ECPoint decodePoint(byte[] b, String what) {
    if (b.length != POINT_BYTES || (b[0] != 2 && b[0] != 3)) {
      throw new IllegalArgumentException(what + ": not a compressed P-256 point");
    }
    ECPoint p;
    try {
      p = CURVE.decodePoint(b);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(what + ": not a P-256 point");
    }
    if (p.isInfinity() || !p.isValid() || !Arrays.equals(p.getEncoded(true), b)) {
      throw new IllegalArgumentException(what + ": invalid P-256 point");
    }
    return p.normalize();
  }

  static byte[] toScalar(BigInteger v) {
    return Codec.toFixed(v, SCALAR_BYTES);
  }

  /** Exactly 32 bytes, below the group order. */
  static BigInteger decodeScalar(byte[] b, String what) {
    if (b.length != SCALAR_BYTES) {
      throw new IllegalArgumentException(what + ": expected " + SCALAR_BYTES + " bytes");
    }
    BigInteger v = new BigInteger(1, b);
    if (v.compareTo(Q) >= 0) {
      throw new IllegalArgumentException(what + ": not below the group order");
    }
    return v;
  }
}
