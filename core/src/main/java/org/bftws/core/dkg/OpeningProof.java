package org.bftws.core.dkg;

import java.math.BigInteger;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import org.bftws.core.crypto.threshold.Codec;
import org.bftws.core.crypto.threshold.DlGroup;
import org.bftws.core.crypto.threshold.Lagrange;

/**
 * Proof that V = g^σ opens a Pedersen commitment C = g^σ h^ρ, i.e. knowledge of (σ, ρ) with V = g^σ and
 * C·V^{−1} = h^ρ: two Schnorr proofs under one Fiat-Shamir challenge c = SHA-512(domain, session, dealer,
 * holder, V, W, T1, T2) mod q (non-negative, docs/design/cryptography.md pitfall 4). Pedersen's commitment is
 * binding under the discrete-logarithm assumption, so a V that is not g^{s_im} for the committed s_im cannot be
 * proven without log_g h. Encoding: c, z1, z2 as 32-byte scalars.
 */
final class OpeningProof {
  private static final byte[] DOMAIN = "BFTWS-DKG-opening-v1".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

  private OpeningProof() {}

  static <E> byte[] prove(DlGroup<E> g, byte[] session, int dealer, int holder, E c, BigInteger s, BigInteger sPrime,
      SecureRandom random) {
    E v = g.expG(s);
    E w = g.op(c, g.inverse(v));
    BigInteger r1 = Lagrange.randomNonZero(g.order(), random);
    BigInteger r2 = Lagrange.randomNonZero(g.order(), random);
    BigInteger ch = challenge(g, session, dealer, holder, v, w, g.expG(r1), g.exp(g.h(), r2));
    BigInteger z1 = r1.add(ch.multiply(s)).mod(g.order());
    BigInteger z2 = r2.add(ch.multiply(sPrime)).mod(g.order());
    return new Codec.Writer().bytes(g.encodeScalar(ch)).bytes(g.encodeScalar(z1)).bytes(g.encodeScalar(z2))
        .toByteArray();
  }

  /** Whether {@code proof} shows that {@code v} is g^σ for the σ committed in {@code c}; false on bad bytes. */
  static <E> boolean verify(DlGroup<E> g, byte[] session, int dealer, int holder, E c, E v, byte[] proof) {
    try {
      Codec.Reader r = new Codec.Reader(proof);
      BigInteger ch = g.decodeScalar(r.bytes(), "challenge");
      BigInteger z1 = g.decodeScalar(r.bytes(), "z1");
      BigInteger z2 = g.decodeScalar(r.bytes(), "z2");
      r.end();
      BigInteger minusC = g.order().subtract(ch).mod(g.order());
      E w = g.op(c, g.inverse(v));
      E t1 = g.op(g.expG(z1), g.exp(v, minusC));
      E t2 = g.op(g.exp(g.h(), z2), g.exp(w, minusC));
      return challenge(g, session, dealer, holder, v, w, t1, t2).equals(ch);
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  @SafeVarargs
  private static <E> BigInteger challenge(DlGroup<E> g, byte[] session, int dealer, int holder, E... points) {
    try {
      MessageDigest md = MessageDigest.getInstance("SHA-512");
      Codec.Writer w = new Codec.Writer().bytes(DOMAIN).bytes(session).u16(dealer).u16(holder);
      for (E p : points) {
        w.bytes(g.same(p, g.identity()) ? new byte[0] : g.encode(p));
      }
      return new BigInteger(1, md.digest(w.toByteArray())).mod(g.order());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-512 unavailable", e);
    }
  }
}
