package org.bftws.core.crypto;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Map;
import org.bftws.core.codec.ByteWriter;
import org.bouncycastle.crypto.agreement.X25519Agreement;
import org.bouncycastle.crypto.digests.SHA256Digest;
import org.bouncycastle.crypto.generators.HKDFBytesGenerator;
import org.bouncycastle.crypto.macs.HMac;
import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;
import org.bouncycastle.crypto.params.Ed25519PublicKeyParameters;
import org.bouncycastle.crypto.params.HKDFParameters;
import org.bouncycastle.crypto.params.KeyParameter;
import org.bouncycastle.crypto.params.X25519PrivateKeyParameters;
import org.bouncycastle.crypto.params.X25519PublicKeyParameters;

/**
 * One replica's authenticators (Castro-Liskov TOCS 2002 §3.2): a vector with one MAC per replica, entry j
 * computed with the session key k(i→j) of sender i and receiver j, over the digest of the signed envelope
 * (signature included, so a valid MAC vouches for the signature bytes too). A message is multicast with one
 * authenticator; each receiver checks only its own entry.
 *
 * <p>Keys. k(i→j) = HKDF-SHA256(X25519(i, j), info = domain ‖ i ‖ j), the X25519 keys being the birational
 * images of the replicas' Ed25519 keys from the group's key files (RFC 7748 §4.1; libsodium's
 * {@code crypto_sign_ed25519_*_to_curve25519}), so no key file changes. Directional keys: i cannot present a
 * message of j's to a third replica, nor reflect j's message back to j as its own. MACs are HMAC-SHA256
 * truncated to 16 bytes (RFC 2104 §5 allows ≥ half the output; RFC 4868 uses the same length).
 */
public final class Authenticators {
  public static final int TAG = 16;
  private static final byte[] KDF_INFO = "BFT-WS/1 pairwise MAC key".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] MAC_DOMAIN = "BFT-WS/1 authenticator".getBytes(StandardCharsets.US_ASCII);
  private static final BigInteger P = BigInteger.ONE.shiftLeft(255).subtract(BigInteger.valueOf(19));

  private final int self;
  private final int n;
  /** k(self→j), indexed by j; null at self. */
  private final byte[][] outgoing;
  /** k(j→self), indexed by j; null at self. */
  private final byte[][] incoming;

  /**
   * @param self      this replica's id (0..n-1)
   * @param own       its Ed25519 private key
   * @param replicas  the Ed25519 public keys of replicas 0..n-1 from the group's key file
   */
  public Authenticators(int self, Ed25519PrivateKeyParameters own, Map<Integer, Ed25519PublicKeyParameters> replicas) {
    this.self = self;
    this.n = replicas.size();
    if (self < 0 || self >= n) {
      throw new IllegalArgumentException("replica id " + self + " outside 0.." + (n - 1));
    }
    X25519PrivateKeyParameters x = x25519Private(own);
    outgoing = new byte[n][];
    incoming = new byte[n][];
    for (int j = 0; j < n; j++) {
      if (j != self) {
        byte[] shared = agree(x, x25519Public(replicas.get(j)));
        outgoing[j] = kdf(shared, self, j);
        incoming[j] = kdf(shared, j, self);
        Arrays.fill(shared, (byte) 0);
      }
    }
  }

  public int replicas() {
    return n;
  }

  /** The authenticator of a message with this digest from this replica to all others: n tags (own one zero). */
  public byte[] authenticator(byte[] digest) {
    byte[] out = new byte[n * TAG];
    for (int j = 0; j < n; j++) {
      if (j != self) {
        System.arraycopy(tag(outgoing[j], digest), 0, out, j * TAG, TAG);
      }
    }
    return out;
  }

  /** True when this replica's entry of {@code authenticator} is sender's MAC on {@code digest}. */
  public boolean check(int sender, byte[] digest, byte[] authenticator) {
    if (sender < 0 || sender >= n || sender == self || authenticator == null || authenticator.length != n * TAG) {
      return false;
    }
    byte[] want = tag(incoming[sender], digest);
    return MessageDigest.isEqual(want, Arrays.copyOfRange(authenticator, self * TAG, (self + 1) * TAG));
  }

  private static byte[] tag(byte[] key, byte[] digest) {
    HMac mac = new HMac(new SHA256Digest());
    mac.init(new KeyParameter(key));
    mac.update(MAC_DOMAIN, 0, MAC_DOMAIN.length);
    mac.update(digest, 0, digest.length);
    byte[] full = new byte[mac.getMacSize()];
    mac.doFinal(full, 0);
    return Arrays.copyOf(full, TAG);
  }

  private static byte[] kdf(byte[] shared, int from, int to) {
    HKDFBytesGenerator hkdf = new HKDFBytesGenerator(new SHA256Digest());
    byte[] info = new ByteWriter(KDF_INFO.length + 8).raw(KDF_INFO).i32(from).i32(to).toBytes();
    hkdf.init(new HKDFParameters(shared, null, info));
    byte[] key = new byte[32];
    hkdf.generateBytes(key, 0, key.length);
    return key;
  }

  private static byte[] agree(X25519PrivateKeyParameters own, X25519PublicKeyParameters peer) {
    X25519Agreement a = new X25519Agreement();
    a.init(own);
    byte[] shared = new byte[a.getAgreementSize()];
    a.calculateAgreement(peer, shared, 0);
    return shared;
  }

  /** RFC 8032 §5.1.5: the scalar is the clamped first half of SHA-512(seed); X25519 clamps it again. */
  static X25519PrivateKeyParameters x25519Private(Ed25519PrivateKeyParameters key) {
    try {
      byte[] h = MessageDigest.getInstance("SHA-512").digest(key.getEncoded());
      return new X25519PrivateKeyParameters(Arrays.copyOf(h, 32), 0);
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException("JDK without SHA-512", e);
    }
  }

  /** RFC 7748 §4.1: the Montgomery u of the Edwards point with y: u = (1 + y) / (1 - y) mod p. */
  static X25519PublicKeyParameters x25519Public(Ed25519PublicKeyParameters key) {
    byte[] le = key.getEncoded();
    byte[] be = new byte[32];
    for (int i = 0; i < 32; i++) {
      be[i] = le[31 - i];
    }
    be[0] &= 0x7f; // the top bit is the sign of x
    BigInteger y = new BigInteger(1, be);
    if (y.mod(P).equals(BigInteger.ONE)) {
      throw new IllegalArgumentException("the Ed25519 identity point has no X25519 image");
    }
    BigInteger u = BigInteger.ONE.add(y).multiply(BigInteger.ONE.subtract(y).modInverse(P)).mod(P);
    byte[] ub = u.toByteArray();
    byte[] out = new byte[32];
    for (int i = 0; i < 32 && i < ub.length; i++) {
      out[i] = ub[ub.length - 1 - i];
    }
    return new X25519PublicKeyParameters(out, 0);
  }
}
