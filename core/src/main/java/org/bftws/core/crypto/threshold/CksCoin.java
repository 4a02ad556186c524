package org.bftws.core.crypto.threshold;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.bouncycastle.crypto.hash2curve.HashToCurveProfile;
import org.bouncycastle.crypto.hash2curve.HashToEllipticCurve;
import org.bouncycastle.math.ec.ECAlgorithms;
import org.bouncycastle.math.ec.ECPoint;

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
public final class CksCoin extends AbstractThresholdScheme implements DlogThresholdKeys {
  /** RFC 9380 §3.1: an application-specific domain separation tag ending in the suite id. */
  public static final String HASH_TO_CURVE_DST = "BFTWS-V01-CS01-with-P256_XMD:SHA-256_SSWU_RO_";
  private static final String PROOF_DOMAIN = "BFTWS-CKS-DLEQ-v1";
  private static final String NONCE_DOMAIN = "BFTWS-CKS-nonce-v1";
  private static final byte[] NO_CONTEXT = new byte[0];
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
  public SignatureShare share(GroupKey group, KeyShare key, byte[] message) {
    requireSameKey(group, key);
    BigInteger x = DlogKeys.secret(key);
    ECPoint gt = hashToCurve(message);
    ECPoint gti = gt.multiply(x).normalize();
    ECPoint gi = DlogKeys.verificationKey(group, key.index());
    // Chaum-Pedersen that log_g g_i = log_g̃ g̃_i, with a nonce derived from the key share and the name.
    BigInteger r = Nonces.derive(NONCE_DOMAIN, key.secretEncoding(), message, 384).mod(P256.Q);
    ChaumPedersen.Proof proof = ChaumPedersen.prove(PROOF_DOMAIN, NO_CONTEXT, P256.G, gi, gt, gti, x, r);
    return new SignatureShare(SchemeId.CKS, key.index(), P256.encodePoint(gti), proof.encode());
  }

  @Override
  public boolean verifyShare(GroupKey group, byte[] message, SignatureShare share) {
    if (!acceptable(group, share)) {
      return false;
    }
    try {
      ECPoint gti = P256.decodePoint(share.value(), "share");
      ChaumPedersen.Proof proof = ChaumPedersen.Proof.decode(share.proof());
      ECPoint gi = DlogKeys.verificationKey(group, share.index());
      return ChaumPedersen.verify(PROOF_DOMAIN, NO_CONTEXT, P256.G, gi, hashToCurve(message), gti, proof);
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  @Override
  GroupValue interpolate(GroupKey group, byte[] message, List<SignatureShare> used) {
    Codec.Writer evidence = new Codec.Writer().u16(used.size());
    for (SignatureShare s : used) {
      evidence.bytes(s.encode());
    }
    ECPoint acc = interpolateAtZero(used);
    return acc == null ? null : new GroupValue(SchemeId.CKS, P256.encodePoint(acc), evidence.toByteArray());
  }

  /**
   * Π v_i^{λ_i} over the share points v_i (CKS: g̃^x; TDH2: u^x) as one multi-scalar multiplication; null if a
   * share does not decode or the result is the point at infinity.
   */
  static ECPoint interpolateAtZero(List<SignatureShare> used) {
    int[] set = indices(used);
    ECPoint[] points = new ECPoint[used.size()];
    BigInteger[] lambdas = new BigInteger[used.size()];
    for (int j = 0; j < points.length; j++) {
      try {
        points[j] = P256.decodePoint(used.get(j).value(), "share");
      } catch (IllegalArgumentException e) {
        return null;
      }
      lambdas[j] = Lagrange.atZeroModPrime(set, used.get(j).index(), P256.Q);
    }
    ECPoint acc = ECAlgorithms.sumOfMultiplies(points, lambdas).normalize();
    return acc.isInfinity() ? null : acc;
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
    ECPoint p = P256.CURVE.importPoint(H2C.get().hashToCurve(message)).normalize();
    last.message = message.clone();
    last.point = p;
    return p;
  }

  private static final class LastHash {
    byte[] message;
    ECPoint point;
  }

  private static final ThreadLocal<LastHash> LAST_HASH = ThreadLocal.withInitial(LastHash::new);
}
