package org.bftws.core.crypto.threshold;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import org.bouncycastle.crypto.hash2curve.HashToCurveProfile;
import org.bouncycastle.crypto.hash2curve.HashToEllipticCurve;
import org.bouncycastle.math.ec.ECPoint;
import supranational.blst.P2;

/**
 * A prime-order group written multiplicatively, as the discrete-logarithm papers write it (Pedersen 1991,
 * Gennaro-Jarecki-Krawczyk-Rabin): generator g, a second generator h whose discrete logarithm to base g nobody
 * knows (RFC 9380 hash-to-curve, docs/design/cryptography.md pitfall 2), order q. Two instances: P-256, where
 * the CKS coin and TDH2 keep their keys, and BLS12-381's G2, where threshold BLS keeps its public keys. The
 * distributed key generation ({@code org.bftws.core.dkg}) is written once against this interface.
 *
 * <p>Elements are immutable values of type {@code E}; every operation returns a new element.
 */
public interface DlGroup<E> {
  /** The order q (prime); exponents are taken mod q. */
  BigInteger order();

  E g();

  /** Pedersen's second generator: log_g h unknown to everybody. */
  E h();

  E identity();

  /** The group operation a·b. */
  E op(E a, E b);

  /** b^x. */
  E exp(E b, BigInteger x);

  /** a^{−1}. */
  E inverse(E a);

  default E expG(BigInteger x) {
    return exp(g(), x);
  }

  boolean same(E a, E b);

  /** Canonical compressed encoding of a non-identity element. */
  byte[] encode(E a);

  /** Strict decoding: on the curve, in the prime-order subgroup, not the identity; else names {@code what}. */
  E decode(byte[] b, String what);

  /** A scalar as exactly 32 bytes (both orders are below 2^256). */
  default byte[] encodeScalar(BigInteger x) {
    return Codec.toFixed(x, 32);
  }

  /** Exactly 32 bytes, below q. */
  default BigInteger decodeScalar(byte[] b, String what) {
    if (b.length != 32) {
      throw new IllegalArgumentException(what + ": expected 32 bytes");
    }
    BigInteger v = new BigInteger(1, b);
    if (v.compareTo(order()) >= 0) {
      throw new IllegalArgumentException(what + ": not below the group order");
    }
    return v;
  }

  /** The group whose elements are {@code scheme}'s public keys: P-256 for CKS and TDH2, G2 for BLS. */
  static DlGroup<?> forScheme(SchemeId scheme) {
    return switch (scheme) {
      case CKS, TDH2 -> p256();
      case BLS -> G2Holder.G2;
      case RSA -> throw new IllegalArgumentException("rsa keys are not discrete-logarithm keys");
    };
  }

  static DlGroup<ECPoint> p256() {
    return P256Group.INSTANCE;
  }

  /** NIST P-256 with Bouncy Castle ({@link P256}). */
  final class P256Group implements DlGroup<ECPoint> {
    static final P256Group INSTANCE = new P256Group();
    private static final ECPoint H = P256.CURVE.importPoint(HashToEllipticCurve
        .getInstance(HashToCurveProfile.P256_XMD_SHA_256, "BFTWS-V01-CS03-with-P256_XMD:SHA-256_SSWU_RO_")
        .hashToCurve("Pedersen h".getBytes(StandardCharsets.US_ASCII))).normalize();

    private P256Group() {}

    @Override
    public BigInteger order() {
      return P256.Q;
    }

    @Override
    public ECPoint g() {
      return P256.G;
    }

    @Override
    public ECPoint h() {
      return H;
    }

    @Override
    public ECPoint identity() {
      return P256.CURVE.getInfinity();
    }

    @Override
    public ECPoint op(ECPoint a, ECPoint b) {
      return a.add(b).normalize();
    }

    @Override
    public ECPoint exp(ECPoint b, BigInteger x) {
      return P256.times(b, x.mod(P256.Q));
    }

    @Override
    public ECPoint inverse(ECPoint a) {
      return a.negate().normalize();
    }

    @Override
    public boolean same(ECPoint a, ECPoint b) {
      return a.equals(b);
    }

    @Override
    public byte[] encode(ECPoint a) {
      return P256.encodePoint(a);
    }

    @Override
    public ECPoint decode(byte[] b, String what) {
      return P256.decodePoint(b, what);
    }
  }

  /** BLS12-381's G2 with blst; blst points mutate in place, so every operation works on copies. */
  final class G2Group implements DlGroup<P2> {
    private static final P2 H = new P2().hash_to("Pedersen h".getBytes(StandardCharsets.US_ASCII),
        "BFTWS-V01-CS04-with-BLS12381G2_XMD:SHA-256_SSWU_RO_");

    @Override
    public BigInteger order() {
      return BlsThreshold.R;
    }

    @Override
    public P2 g() {
      return P2.generator();
    }

    @Override
    public P2 h() {
      return H.dup();
    }

    @Override
    public P2 identity() {
      return new P2();
    }

    @Override
    public P2 op(P2 a, P2 b) {
      return a.dup().add(b);
    }

    @Override
    public P2 exp(P2 b, BigInteger x) {
      return b.dup().mult(x.mod(BlsThreshold.R));
    }

    @Override
    public P2 inverse(P2 a) {
      return a.dup().neg();
    }

    @Override
    public boolean same(P2 a, P2 b) {
      return a.is_equal(b);
    }

    @Override
    public byte[] encode(P2 a) {
      return a.compress();
    }

    @Override
    public P2 decode(byte[] b, String what) {
      return new P2(BlsThreshold.decodeG2(b, what));
    }
  }

  /** Created on first use: it loads blst's native library. */
  final class G2Holder {
    static final G2Group G2 = new G2Group();

    private G2Holder() {}
  }
}
