package org.bftws.core.crypto.threshold;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import org.bouncycastle.math.ec.ECAlgorithms;
import org.bouncycastle.math.ec.ECPoint;

/**
 * Chaum-Pedersen proof of equality of discrete logarithms on P-256, log_g a = log_b c, made non-interactive
 * by Fiat-Shamir: commitments (g^r, b^r), challenge e = H(domain, context, g, a, g^r, b, c, b^r) read as a
 * non-negative integer mod q (docs/design/cryptography.md pitfall 4), response z = r + e·x mod q. The CKS
 * coin's share proof and TDH2's ciphertext-validity and decryption-share proofs are all of this form; the
 * domain separates them, the context binds what else the proof is about (TDH2: the label and payload).
 */
final class ChaumPedersen {
  /** (challenge, response), both scalars below q. */
  record Proof(BigInteger challenge, BigInteger response) {
    byte[] encode() {
      return new Codec.Writer().bytes(P256.toScalar(challenge)).bytes(P256.toScalar(response)).toByteArray();
    }

    static Proof decode(byte[] b) {
      Codec.Reader r = new Codec.Reader(b);
      Proof p = new Proof(P256.decodeScalar(r.bytes(), "challenge"), P256.decodeScalar(r.bytes(), "response"));
      r.end();
      return p;
    }
  }

  private ChaumPedersen() {}

  /** Proves log_g a = log_b c = x with nonce r (a = g^x and c = b^x are the caller's). */
  static Proof prove(String domain, byte[] context, ECPoint g, ECPoint a, ECPoint b, ECPoint c, BigInteger x,
      BigInteger r) {
    BigInteger e = challenge(domain, context, g, a, P256.times(g, r), b, c, P256.times(b, r));
    return new Proof(e, r.add(e.multiply(x)).mod(P256.Q));
  }

  /** Recomputes the commitments g^z·a^{−e}, b^z·c^{−e} and accepts iff the challenge recomputes. */
  static boolean verify(String domain, byte[] context, ECPoint g, ECPoint a, ECPoint b, ECPoint c, Proof p) {
    BigInteger minusE = P256.Q.subtract(p.challenge()).mod(P256.Q);
    ECPoint h = ECAlgorithms.sumOfTwoMultiplies(g, p.response(), a, minusE);
    ECPoint ht = ECAlgorithms.sumOfTwoMultiplies(b, p.response(), c, minusE);
    return challenge(domain, context, g, a, h, b, c, ht).equals(p.challenge());
  }

  private static BigInteger challenge(String domain, byte[] context, ECPoint... points) {
    try {
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      md.update(domain.getBytes(StandardCharsets.US_ASCII));
      md.update(context);
      for (ECPoint p : points) {
        md.update(p.getEncoded(true));
      }
      return new BigInteger(1, md.digest()).mod(P256.Q);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 unavailable", e);
    }
  }
}
