package org.bftws.core.crypto.threshold;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.bouncycastle.asn1.x9.X9ECParameters;
import org.bouncycastle.crypto.ec.CustomNamedCurves;
import org.bouncycastle.crypto.hash2curve.HashToCurveProfile;
import org.bouncycastle.crypto.hash2curve.HashToEllipticCurve;
import org.bouncycastle.math.ec.ECAlgorithms;
import org.bouncycastle.math.ec.ECCurve;
import org.bouncycastle.math.ec.ECPoint;
import org.bouncycastle.math.ec.FixedPointCombMultiplier;

/**
 * The Cachin-Kursawe-Shoup threshold coin ("Random oracles in Constantinople", 2000; SINTRA §2.1 and §3.1)
 * on NIST P-256: 128-bit security (discrete logarithm in a 256-bit prime-order group).
 *
 * <p>Dealer: secret x with a random polynomial f of degree k−1 over Z_q, x_i = f(i), verification keys
 * g_i = g^{x_i}. For a coin name C, g̃ = H(C) is RFC 9380 hash-to-curve (P256_XMD:SHA-256_SSWU_RO_), whose
 * discrete logarithm nobody knows (docs/design/cryptography.md pitfall 2: never g^hash). Share: g̃_i = g̃^{x_i} with a
 * Chaum-Pedersen proof that log_g g_i = log_g̃ g̃_i, made non-interactive by Fiat-Shamir with a non-negative
 * challenge (pitfall 4). Combination: g̃_0 = Π g̃_i^{λ_i} = g̃^x; the coin is SHA-256(g̃_0).
 *
 * <p>g̃^x cannot be checked against g^x without a pairing, so {@link #combine} verifies the k proofs it uses
 * and the {@link GroupValue} carries those shares as evidence (docs/design/cryptography.md: "CKS needs the shares and proofs").
 */
public final class CksCoin extends AbstractThresholdScheme {
  /** RFC 9380 §3.1: an application-specific domain separation tag ending in the suite id. */
  public static final String HASH_TO_CURVE_DST = "BFTWS-V01-CS01-with-P256_XMD:SHA-256_SSWU_RO_";
  private static final String PROOF_DOMAIN = "BFTWS-CKS-DLEQ-v1";
  private static final String NONCE_DOMAIN = "BFTWS-CKS-nonce-v1";
  private static final X9ECParameters P256 = CustomNamedCurves.getByName("P-256");
  private static final ECCurve CURVE = P256.getCurve();
  private static final ECPoint G = P256.getG();
  private static final BigInteger Q = P256.getN();
  private static final int SCALAR_BYTES = 32;
  /** Fixed-base comb for g: faster than the generic multiplier and regular in the scalar's bits. */
  private static final FixedPointCombMultiplier COMB = new FixedPointCombMultiplier();
  private static final ThreadLocal<HashToEllipticCurve> H2C = ThreadLocal.withInitial(
      () -> HashToEllipticCurve.getInstance(HashToCurveProfile.P256_XMD_SHA_256, HASH_TO_CURVE_DST));

  @Override
  public SchemeId id() {
    return SchemeId.CKS;
  }

  @Override
  boolean publiclyVerifiable() {
    return false;
  }

  @Override
  public Dealt deal(ThresholdParams params, SecureRandom random) {
    BigInteger[] poly = Lagrange.randomPolynomial(params.k(), Q, random);
    List<byte[]> vks = new ArrayList<>();
    List<KeyShare> shares = new ArrayList<>();
    for (int i = 1; i <= params.n(); i++) {
      BigInteger xi = Lagrange.evaluate(poly, i, Q);
      shares.add(new Share(params, i, xi));
      vks.add(encodePoint(COMB.multiply(G, xi)));
    }
    return new Dealt(groupKey(params, encodePoint(COMB.multiply(G, poly[0])), vks), shares);
  }

  @Override
  public GroupKey groupKey(ThresholdParams params, byte[] common, List<byte[]> verificationKeys) {
    requireCount(params, verificationKeys);
    ECPoint y = decodePoint(common, "group public key");
    ECPoint[] vk = new ECPoint[params.n() + 1];
    for (int i = 1; i <= params.n(); i++) {
      vk[i] = decodePoint(verificationKeys.get(i - 1), "verification key " + i);
    }
    return new Group(params, y, vk);
  }

  @Override
  public KeyShare keyShare(ThresholdParams params, int index, byte[] secret) {
    return new Share(params, index, decodeScalar(secret, "key share secret"));
  }

  @Override
  public boolean keyShareMatches(GroupKey group, KeyShare share) {
    if (!sameKey(group, share)) {
      return false;
    }
    return COMB.multiply(G, ((Share) share).x).equals(((Group) group).vk[share.index()]);
  }

  @Override
  public SignatureShare share(GroupKey group, KeyShare key, byte[] message) {
    requireSameKey(group, key);
    Share s = (Share) key;
    ECPoint gt = hashToCurve(message);
    ECPoint gti = gt.multiply(s.x).normalize();
    ECPoint gi = ((Group) group).vk[s.index()];
    // Chaum-Pedersen: commit with nonce r, challenge c = H(...) >= 0, response z = r + c·x_i mod q.
    BigInteger r = Nonces.derive(NONCE_DOMAIN, s.secretEncoding(), message, 384).mod(Q);
    ECPoint h = COMB.multiply(G, r);
    ECPoint ht = gt.multiply(r);
    BigInteger c = challenge(gi, h, gt, gti, ht);
    BigInteger z = r.add(c.multiply(s.x)).mod(Q);
    byte[] proof = new Codec.Writer().bytes(toScalar(c)).bytes(toScalar(z)).toByteArray();
    return new SignatureShare(SchemeId.CKS, s.index(), encodePoint(gti), proof);
  }

  @Override
  public boolean verifyShare(GroupKey group, byte[] message, SignatureShare share) {
    if (!acceptable(group, share)) {
      return false;
    }
    try {
      ECPoint gti = decodePoint(share.value(), "share");
      Codec.Reader r = new Codec.Reader(share.proof());
      BigInteger c = decodeScalar(r.bytes(), "challenge");
      BigInteger z = decodeScalar(r.bytes(), "response");
      r.end();
      ECPoint gi = ((Group) group).vk[share.index()];
      ECPoint gt = hashToCurve(message);
      // h = g^z · g_i^{-c}, h̃ = g̃^z · g̃_i^{-c}; accept iff the challenge recomputes.
      BigInteger minusC = Q.subtract(c).mod(Q);
      ECPoint h = ECAlgorithms.sumOfTwoMultiplies(G, z, gi, minusC);
      ECPoint ht = ECAlgorithms.sumOfTwoMultiplies(gt, z, gti, minusC);
      return challenge(gi, h, gt, gti, ht).equals(c);
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  @Override
  GroupValue interpolate(GroupKey group, byte[] message, List<SignatureShare> used) {
    int[] set = indices(used);
    ECPoint[] points = new ECPoint[used.size()];
    BigInteger[] lambdas = new BigInteger[used.size()];
    Codec.Writer evidence = new Codec.Writer().u16(used.size());
    for (int j = 0; j < points.length; j++) {
      SignatureShare s = used.get(j);
      try {
        points[j] = decodePoint(s.value(), "share");
      } catch (IllegalArgumentException e) {
        return null;
      }
      lambdas[j] = Lagrange.atZeroModPrime(set, s.index(), Q);
      evidence.bytes(s.encode());
    }
    // g̃_0 = Π g̃_i^{λ_i} as one multi-scalar multiplication.
    ECPoint acc = ECAlgorithms.sumOfMultiplies(points, lambdas).normalize();
    if (acc.isInfinity()) {
      return null;
    }
    return new GroupValue(SchemeId.CKS, encodePoint(acc), evidence.toByteArray());
  }

  /** Checks every share of the evidence and that they interpolate to the claimed unique value. */
  @Override
  public boolean verifyCombined(GroupKey group, byte[] message, GroupValue value) {
    requireScheme(group.scheme());
    if (value.scheme() != SchemeId.CKS) {
      return false;
    }
    try {
      Codec.Reader r = new Codec.Reader(value.evidence());
      int count = r.u16();
      if (count != group.params().k()) {
        return false;
      }
      List<SignatureShare> used = new ArrayList<>();
      Set<Integer> seen = new HashSet<>();
      for (int j = 0; j < count; j++) {
        SignatureShare s = SignatureShare.decode(r.bytes());
        if (!seen.add(s.index()) || !verifyShare(group, message, s)) {
          return false;
        }
        used.add(s);
      }
      r.end();
      GroupValue recomputed = interpolate(group, message, used);
      return recomputed != null && Arrays.equals(recomputed.unique(), value.unique());
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  /**
   * g̃ = H(C): RFC 9380 hash_to_curve, so log_g g̃ is unknown (docs/design/cryptography.md pitfall 2). A replica hashes one
   * coin name for its own share and for each of the k shares it checks, so the last result is kept per
   * thread (keyed by a copy of the whole name: a pure function, nothing shared between threads). Public for
   * the crypto benchmark, which times this one-off cost on its own.
   */
  public static ECPoint hashToCurve(byte[] message) {
    LastHash last = LAST_HASH.get();
    if (last.message != null && Arrays.equals(last.message, message)) {
      return last.point;
    }
    ECPoint p = CURVE.importPoint(H2C.get().hashToCurve(message)).normalize();
    last.message = message.clone();
    last.point = p;
    return p;
  }

  private static final class LastHash {
    byte[] message;
    ECPoint point;
  }

  private static final ThreadLocal<LastHash> LAST_HASH = ThreadLocal.withInitial(LastHash::new);

  private static BigInteger challenge(ECPoint gi, ECPoint h, ECPoint gt, ECPoint gti, ECPoint ht) {
    try {
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      md.update(PROOF_DOMAIN.getBytes(StandardCharsets.US_ASCII));
      for (ECPoint p : new ECPoint[] {G, gi, h, gt, gti, ht}) {
        md.update(p.getEncoded(true));
      }
      // Non-negative challenge (docs/design/cryptography.md pitfall 4): the digest read as an unsigned integer, mod q.
      return new BigInteger(1, md.digest()).mod(Q);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 unavailable", e);
    }
  }

  private static byte[] encodePoint(ECPoint p) {
    return p.getEncoded(true);
  }

  /** SEC1 compressed, on the curve, not infinity, and canonical (re-encodes to the same bytes). */
  static ECPoint decodePoint(byte[] b, String what) {
    if (b.length != 33 || (b[0] != 2 && b[0] != 3)) {
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

  private static byte[] toScalar(BigInteger v) {
    return Codec.toFixed(v, SCALAR_BYTES);
  }

  private static BigInteger decodeScalar(byte[] b, String what) {
    if (b.length != SCALAR_BYTES) {
      throw new IllegalArgumentException(what + ": expected " + SCALAR_BYTES + " bytes");
    }
    BigInteger v = new BigInteger(1, b);
    if (v.compareTo(Q) >= 0) {
      throw new IllegalArgumentException(what + ": not below the group order");
    }
    return v;
  }

  private static final class Group extends GroupKey {
    private final ECPoint y;
    private final ECPoint[] vk;

    Group(ThresholdParams params, ECPoint y, ECPoint[] vk) {
      super(SchemeId.CKS, params);
      this.y = y;
      this.vk = vk;
    }

    @Override
    public byte[] commonEncoding() {
      return encodePoint(y);
    }

    @Override
    public byte[] verificationKeyEncoding(int index) {
      checkIndex(index);
      return encodePoint(vk[index]);
    }
  }

  private static final class Share extends KeyShare {
    private final BigInteger x;

    Share(ThresholdParams params, int index, BigInteger x) {
      super(SchemeId.CKS, params, index);
      if (x.signum() == 0) {
        throw new IllegalArgumentException("key share secret is zero");
      }
      this.x = x;
    }

    @Override
    byte[] secretEncoding() {
      return toScalar(x);
    }
  }
}
