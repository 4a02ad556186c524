package org.bftws.core.dkg;

import java.math.BigInteger;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import org.bftws.core.crypto.threshold.Codec;
import org.bftws.core.crypto.threshold.DlGroup;
import org.bftws.core.crypto.threshold.Lagrange;
import org.bouncycastle.math.ec.ECPoint;

/**
 * Encrypts a dealer's shares to each receiver's individual encryption key: hashed ElGamal on P-256 with one
 * ephemeral key per dealing (R = g^r, shared by all receivers), the key stream for receiver j being
 * SHA-256(domain, session, dealer, j, R, pk_j^r, counter). GJKR assume private channels (their communication
 * model); this provides them over the group's ordering, which every replica reads. There is no MAC: the
 * dealer's commitments authenticate every plaintext (a share that does not decrypt to a committed value is
 * complained about like any bad share, GJKR Fig. 2 step 1(c)).
 *
 * <p>The individual encryption key is a P-256 key pair of its own (secret scalar, public point), not the
 * replica's Ed25519 signing key: it is generated beside it on the replica's own host.
 */
public final class ShareCipher {
  private static final byte[] DOMAIN = "BFTWS-DKG-share-encryption-v1".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
  private static final DlGroup<ECPoint> G = DlGroup.p256();

  private ShareCipher() {}

  /** A replica's individual encryption key pair: a secret scalar and its public point g^sk (33 bytes). */
  public record KeyPair(byte[] secret, byte[] publicKey) {}

  public static KeyPair generate(SecureRandom random) {
    BigInteger sk = Lagrange.randomNonZero(G.order(), random);
    return new KeyPair(G.encodeScalar(sk), G.encode(G.expG(sk)));
  }

  /** Checks a published encryption key (a P-256 point); {@link IllegalArgumentException} otherwise. */
  static ECPoint publicKey(byte[] encoded, int receiver) {
    return G.decode(encoded, "encryption key of receiver " + receiver);
  }

  static BigInteger ephemeral(SecureRandom random) {
    return Lagrange.randomNonZero(G.order(), random);
  }

  static byte[] ephemeralPoint(BigInteger r) {
    return G.encode(G.expG(r));
  }

  static byte[] encrypt(byte[] session, int dealer, int receiver, BigInteger r, ECPoint pk, byte[] plaintext) {
    byte[] rPoint = ephemeralPoint(r);
    return xor(plaintext, stream(session, dealer, receiver, rPoint, G.exp(pk, r), plaintext.length));
  }

  /** The plaintext, or null if R is not a valid point (then the receiver complains). */
  static byte[] decrypt(byte[] session, int dealer, int receiver, byte[] secret, byte[] rPoint, byte[] ciphertext) {
    ECPoint r;
    try {
      r = G.decode(rPoint, "ephemeral key");
    } catch (IllegalArgumentException e) {
      return null;
    }
    BigInteger sk = G.decodeScalar(secret, "encryption secret");
    return xor(ciphertext, stream(session, dealer, receiver, rPoint, G.exp(r, sk), ciphertext.length));
  }

  private static byte[] stream(byte[] session, int dealer, int receiver, byte[] rPoint, ECPoint z, int len) {
    byte[] out = new byte[len];
    try {
      for (int block = 0; block * 32 < len; block++) {
        MessageDigest md = MessageDigest.getInstance("SHA-256");
        md.update(new Codec.Writer().bytes(DOMAIN).bytes(session).u16(dealer).u16(receiver).bytes(rPoint)
            .bytes(G.encode(z)).u32(block).toByteArray());
        byte[] d = md.digest();
        System.arraycopy(d, 0, out, block * 32, Math.min(32, len - block * 32));
      }
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 unavailable", e);
    }
    return out;
  }

  private static byte[] xor(byte[] a, byte[] b) {
    byte[] out = new byte[a.length];
    for (int i = 0; i < a.length; i++) {
      out[i] = (byte) (a[i] ^ b[i]);
    }
    return out;
  }
}
