package org.bftws.core.crypto.threshold;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.bouncycastle.crypto.hash2curve.HashToCurveProfile;
import org.bouncycastle.crypto.hash2curve.HashToEllipticCurve;
import org.bouncycastle.math.ec.ECPoint;

/**
 * The TDH2 threshold cryptosystem of Shoup and Gennaro ("Securing threshold cryptosystems against chosen
 * ciphertext attack", EUROCRYPT 1998 / J. Cryptology 2002, the scheme TDH2) on NIST P-256: the channel key of SINTRA's secure
 * causal atomic broadcast (§2.6). Secure against adaptive chosen-ciphertext attack in the random-oracle
 * model under the decisional Diffie-Hellman assumption, which is what keeps a Byzantine party from turning
 * an ordered ciphertext into a related one (a bid of the victim's value + 1).
 *
 * <p>Keys: secret x Shamir-shared with degree k−1 ({@link DlogKeys}), public key h = g^x, verification keys
 * h_i = g^{x_i}; ḡ is a second generator from RFC 9380 hash-to-curve, so nobody knows log_g ḡ
 * (docs/design/cryptography.md pitfall 2).
 *
 * <p>Encryption of m with label L, randomness r, s from the caller: u = g^r, ū = ḡ^r, the key K = H1(u, h^r)
 * and the payload c = AES-256-GCM_K(m) with L as associated data (a hybrid: the paper's c = H1(h^r) ⊕ m with
 * a standard AEAD in place of the hash-XOR; each K encrypts one message, so the fixed zero nonce is never
 * reused under one key); the validity proof is the paper's e = H2(c, L, u, w, ū, w̄) with w = g^s, w̄ = ḡ^s,
 * f = s + r·e — a Chaum-Pedersen proof that log_g u = log_ḡ ū bound to (L, c) ({@link ChaumPedersen}).
 * Anyone checks it ({@link #isValid}) with the public generators alone.
 *
 * <p>Decryption share of party i, only for a valid ciphertext: u_i = u^{x_i} with a Chaum-Pedersen proof that
 * log_g h_i = log_u u_i (the paper's e_i = H4(u_i, û_i, ĥ_i)), its nonce derived from the key share and the
 * ciphertext ({@link Nonces}). Combination: h^r = Π u_i^{λ_i} over k valid shares, then K and m.
 *
 * <p>Every share used is verified before combining: GCM is not key-committing, so a Byzantine share that
 * moved h^r to a point chosen with a colluding encryptor could open the payload to a second plaintext at some
 * replicas; with verified shares h^r is unique and every party decrypts alike, a payload that does not
 * decrypt included. Security level: 128 bits (P-256, SHA-256, AES-256-GCM with a 128-bit tag).
 */
public final class Tdh2 implements DlogThresholdKeys {
  /** RFC 9380 domain separation tag of ḡ's hash-to-curve. */
  public static final String GENERATOR_DST = "BFTWS-V01-CS02-with-P256_XMD:SHA-256_SSWU_RO_";
  private static final String VALIDITY_DOMAIN = "BFTWS-TDH2-H2-v1";
  private static final String SHARE_DOMAIN = "BFTWS-TDH2-H4-v1";
  private static final byte[] KDF_DOMAIN = "BFTWS-TDH2-H1-AES256GCM-v1".getBytes(StandardCharsets.US_ASCII);
  private static final String NONCE_DOMAIN = "BFTWS-TDH2-nonce-v1";
  private static final byte[] NO_CONTEXT = new byte[0];
  private static final int TAG_BITS = 128;
  /** ḡ: the second generator, with a discrete logarithm to base g that nobody knows. */
  private static final ECPoint G_BAR = P256.CURVE.importPoint(HashToEllipticCurve
      .getInstance(HashToCurveProfile.P256_XMD_SHA_256, GENERATOR_DST)
      .hashToCurve("second generator".getBytes(StandardCharsets.US_ASCII))).normalize();

  @Override
  public SchemeId id() {
    return SchemeId.TDH2;
  }

  /** Encrypts {@code message} under the group's public key with {@code label}; r and s come from {@code random}. */
  public Tdh2Ciphertext encrypt(GroupKey group, byte[] label, byte[] message, SecureRandom random) {
    requireTdh2(group);
    BigInteger r = Lagrange.randomNonZero(P256.Q, random);
    BigInteger s = Lagrange.randomNonZero(P256.Q, random);
    ECPoint u = P256.timesG(r);
    ECPoint uBar = P256.times(G_BAR, r);
    ECPoint hr = P256.times(DlogKeys.publicKey(group), r);
    byte[] payload = aead(Cipher.ENCRYPT_MODE, key(u, hr), label, message);
    ChaumPedersen.Proof proof = ChaumPedersen.prove(VALIDITY_DOMAIN, context(label, payload), P256.G, u, G_BAR,
        uBar, r, s);
    return new Tdh2Ciphertext(label, payload, u, uBar, proof);
  }

  /** The validity proof: log_g u = log_ḡ ū, bound to the label and payload. Needs no key. */
  public boolean isValid(Tdh2Ciphertext c) {
    return ChaumPedersen.verify(VALIDITY_DOMAIN, context(c.label(), c.payload()), P256.G, c.u, G_BAR, c.uBar,
        c.proof);
  }

  /**
   * Party {@code key.index()}'s decryption share of {@code c}, with its proof.
   *
   * @throws InvalidCiphertextException the validity proof fails: no share is released for it
   */
  public SignatureShare share(GroupKey group, KeyShare key, Tdh2Ciphertext c) throws InvalidCiphertextException {
    requireTdh2(group);
    if (key.scheme() != SchemeId.TDH2 || !key.params().equals(group.params())) {
      throw new IllegalArgumentException("a TDH2 key share of the group's (n, k, t) is needed");
    }
    if (!isValid(c)) {
      throw new InvalidCiphertextException("TDH2 ciphertext fails its validity proof: no decryption share");
    }
    BigInteger x = DlogKeys.secret(key);
    ECPoint ui = P256.times(c.u, x);
    BigInteger nonce = Nonces.derive(NONCE_DOMAIN, key.secretEncoding(), c.encode(), 384).mod(P256.Q);
    ChaumPedersen.Proof proof = ChaumPedersen.prove(SHARE_DOMAIN, NO_CONTEXT, P256.G,
        DlogKeys.verificationKey(group, key.index()), c.u, ui, x, nonce);
    return new SignatureShare(SchemeId.TDH2, key.index(), P256.encodePoint(ui), proof.encode());
  }

  /**
   * Checks a decryption share against the group's verification key of its index (never against key material
   * in the share, pitfall 3). False for another scheme, an index outside 1..n, a malformed or wrong share.
   */
  public boolean verifyShare(GroupKey group, Tdh2Ciphertext c, SignatureShare share) {
    requireTdh2(group);
    if (share.scheme() != SchemeId.TDH2 || !group.params().isValidIndex(share.index())) {
      return false;
    }
    try {
      ECPoint ui = P256.decodePoint(share.value(), "share");
      ChaumPedersen.Proof proof = ChaumPedersen.Proof.decode(share.proof());
      return ChaumPedersen.verify(SHARE_DOMAIN, NO_CONTEXT, P256.G, DlogKeys.verificationKey(group, share.index()),
          c.u, ui, proof);
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  /**
   * The plaintext from the first k of {@code shares} (in the given order), each verified first.
   *
   * @throws InvalidCiphertextException the ciphertext fails its validity proof, or its payload does not
   *     decrypt under the unique key the valid shares give (alike at every party)
   * @throws DuplicateIndexException two shares carry one index
   * @throws InsufficientSharesException fewer than k shares
   * @throws InvalidSharesException some of the first k shares are bad; {@code badIndices()} names every bad
   *     share given
   */
  public byte[] combine(GroupKey group, Tdh2Ciphertext c, Collection<SignatureShare> shares)
      throws ThresholdException {
    requireTdh2(group);
    if (!isValid(c)) {
      throw new InvalidCiphertextException("TDH2 ciphertext fails its validity proof");
    }
    List<SignatureShare> given = AbstractThresholdScheme.checkIndices(SchemeId.TDH2, group.params(), shares);
    List<SignatureShare> used = given.subList(0, group.params().k());
    if (!badIndices(group, c, used).isEmpty()) {
      throw new InvalidSharesException(badIndices(group, c, given));
    }
    ECPoint hr = CksCoin.interpolateAtZero(used);
    if (hr == null) {
      throw new IllegalStateException("valid TDH2 shares interpolated to nothing");
    }
    try {
      return aead(Cipher.DECRYPT_MODE, key(c.u, hr), c.label(), c.payload());
    } catch (IllegalStateException e) {
      if (e.getCause() instanceof AEADBadTagException) {
        throw new InvalidCiphertextException("TDH2 payload does not decrypt under the group's key");
      }
      throw e;
    }
  }

  private List<Integer> badIndices(GroupKey group, Tdh2Ciphertext c, List<SignatureShare> shares) {
    Set<Integer> bad = new TreeSet<>();
    for (SignatureShare s : shares) {
      if (!verifyShare(group, c, s)) {
        bad.add(s.index());
      }
    }
    return new ArrayList<>(bad);
  }

  /** H1: K = SHA-256(domain, u, h^r), a 256-bit AES key used for one message only. */
  private static byte[] key(ECPoint u, ECPoint hr) {
    try {
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      md.update(KDF_DOMAIN);
      md.update(P256.encodePoint(u));
      md.update(P256.encodePoint(hr));
      return md.digest();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("SHA-256 unavailable", e);
    }
  }

  /** AES-256-GCM with a zero nonce (one message per key) and the label as associated data. */
  private static byte[] aead(int mode, byte[] key, byte[] label, byte[] input) {
    try {
      Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
      cipher.init(mode, new SecretKeySpec(key, "AES"), new GCMParameterSpec(TAG_BITS, new byte[12]));
      cipher.updateAAD(label);
      return cipher.doFinal(input);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES-256-GCM failed", e);
    }
  }

  /** What the validity proof binds besides u and ū: the label and the payload (the paper's H2(c, L, ...)). */
  private static byte[] context(byte[] label, byte[] payload) {
    return new Codec.Writer().bytes(label).bytes(payload).toByteArray();
  }

  private static void requireTdh2(GroupKey group) {
    if (group.scheme() != SchemeId.TDH2) {
      throw new IllegalArgumentException("expected a tdh2 group key, got " + group.scheme().label());
    }
  }
}
