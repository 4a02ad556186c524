package org.bftws.core.crypto.threshold;

import java.math.BigInteger;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import supranational.blst.BLST_ERROR;
import supranational.blst.P1;
import supranational.blst.P1_Affine;
import supranational.blst.P2;
import supranational.blst.P2_Affine;

/**
 * Threshold BLS (Boldyreva, PKC 2003) on BLS12-381 with blst: signature in G1 (48 bytes compressed), public
 * keys in G2 (96 bytes), the drand "quicknet" layout and DST {@value #DST}. Security about 117–128 bits
 * (BLS12-381 after the tower-NFS estimates).
 *
 * <p>Dealer: x with a random polynomial of degree k−1 over Z_r; group key g2^x, verification keys g2^{x_i}.
 * Share: σ_i = H(m)^{x_i}, checked by the pairing e(σ_i, g2) = e(H(m), g2^{x_i}) against the group's key of
 * index i. Combination: σ = Π σ_i^{λ_i} (Lagrange in the exponent), verified once against g2^x. σ is the
 * unique BLS signature of m under x, so the coin SHA-256(σ) is publicly verifiable (docs/design/cryptography.md).
 *
 * <p>blst's point objects mutate in place ({@code mult}, {@code add} return {@code this}): always
 * {@code dup()} shared points first.
 */
public final class BlsThreshold extends AbstractThresholdScheme {
  /** RFC 9380 / IRTF BLS signature suite for signatures in G1, as drand quicknet uses. */
  public static final String DST = "BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_";
  /** Order r of G1 and G2. */
  static final BigInteger R =
      new BigInteger("73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001", 16);
  private static final int SCALAR_BYTES = 32;

  @Override
  public SchemeId id() {
    return SchemeId.BLS;
  }

  @Override
  boolean publiclyVerifiable() {
    return true;
  }

  @Override
  public Dealt deal(ThresholdParams params, SecureRandom random) {
    BigInteger[] poly = Lagrange.randomPolynomial(params.k(), R, random);
    List<byte[]> vks = new ArrayList<>();
    List<KeyShare> shares = new ArrayList<>();
    for (int i = 1; i <= params.n(); i++) {
      BigInteger xi = Lagrange.evaluate(poly, i, R);
      shares.add(new Share(params, i, xi));
      vks.add(P2.generator().mult(xi).compress());
    }
    return new Dealt(groupKey(params, P2.generator().mult(poly[0]).compress(), vks), shares);
  }

  @Override
  public GroupKey groupKey(ThresholdParams params, byte[] common, List<byte[]> verificationKeys) {
    requireCount(params, verificationKeys);
    P2_Affine pk = decodeG2(common, "group public key");
    P2_Affine[] vk = new P2_Affine[params.n() + 1];
    for (int i = 1; i <= params.n(); i++) {
      vk[i] = decodeG2(verificationKeys.get(i - 1), "verification key " + i);
    }
    return new Group(params, pk, vk);
  }

  @Override
  public KeyShare keyShare(ThresholdParams params, int index, byte[] secret) {
    if (secret.length != SCALAR_BYTES) {
      throw new IllegalArgumentException("key share secret: expected " + SCALAR_BYTES + " bytes");
    }
    BigInteger x = new BigInteger(1, secret);
    if (x.compareTo(R) >= 0) {
      throw new IllegalArgumentException("key share secret: not below the group order");
    }
    return new Share(params, index, x);
  }

  @Override
  public boolean keyShareMatches(GroupKey group, KeyShare share) {
    if (!sameKey(group, share)) {
      return false;
    }
    P2_Affine expected = ((Group) group).vk[share.index()];
    return new P2_Affine(P2.generator().mult(((Share) share).x)).is_equal(expected);
  }

  @Override
  public SignatureShare share(GroupKey group, KeyShare key, byte[] message) {
    requireSameKey(group, key);
    Share s = (Share) key;
    byte[] sigma = new P1().hash_to(message, DST).mult(s.x).compress();
    return new SignatureShare(SchemeId.BLS, s.index(), sigma, new byte[0]);
  }

  @Override
  public boolean verifyShare(GroupKey group, byte[] message, SignatureShare share) {
    if (!acceptable(group, share) || share.proof().length != 0) {
      return false;
    }
    return verify(((Group) group).vk[share.index()], message, share.value());
  }

  @Override
  GroupValue interpolate(GroupKey group, byte[] message, List<SignatureShare> used) {
    int[] set = indices(used);
    P1 acc = null;
    for (SignatureShare s : used) {
      P1_Affine sigma = decodeG1(s.value());
      if (sigma == null) {
        return null;
      }
      P1 term = sigma.to_jacobian().mult(Lagrange.atZeroModPrime(set, s.index(), R));
      acc = acc == null ? term : acc.add(term);
    }
    return new GroupValue(SchemeId.BLS, acc.compress(), new byte[0]);
  }

  @Override
  public boolean verifyCombined(GroupKey group, byte[] message, GroupValue value) {
    requireScheme(group.scheme());
    return value.scheme() == SchemeId.BLS && value.evidence().length == 0
        && verify(((Group) group).pk, message, value.unique());
  }

  /** e(σ, g2) = e(H(m), pk) with subgroup checks on σ (blst's core_verify, hash mode, our DST). */
  private static boolean verify(P2_Affine pk, byte[] message, byte[] sigma) {
    P1_Affine sig = decodeG1(sigma);
    return sig != null && sig.core_verify(pk, true, message, DST) == BLST_ERROR.BLST_SUCCESS;
  }

  /** A compressed G1 point in the prime-order subgroup, not infinity; null otherwise. */
  private static P1_Affine decodeG1(byte[] b) {
    if (b.length != 48) {
      return null;
    }
    try {
      P1_Affine p = new P1_Affine(b);
      return p.is_inf() || !p.in_group() ? null : p;
    } catch (RuntimeException e) {
      return null;
    }
  }

  static P2_Affine decodeG2(byte[] b, String what) {
    if (b.length != 96) {
      throw new IllegalArgumentException(what + ": not a compressed G2 point");
    }
    P2_Affine p;
    try {
      p = new P2_Affine(b);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(what + ": not a G2 point");
    }
    if (p.is_inf() || !p.in_group()) {
      throw new IllegalArgumentException(what + ": not in the G2 subgroup or infinity");
    }
    return p;
  }

  private static final class Group extends GroupKey {
    private final P2_Affine pk;
    private final P2_Affine[] vk;

    Group(ThresholdParams params, P2_Affine pk, P2_Affine[] vk) {
      super(SchemeId.BLS, params);
      this.pk = pk;
      this.vk = vk;
    }

    @Override
    public byte[] commonEncoding() {
      return pk.compress();
    }

    @Override
    public byte[] verificationKeyEncoding(int index) {
      checkIndex(index);
      return vk[index].compress();
    }
  }

  private static final class Share extends KeyShare {
    private final BigInteger x;

    Share(ThresholdParams params, int index, BigInteger x) {
      super(SchemeId.BLS, params, index);
      if (x.signum() == 0) {
        throw new IllegalArgumentException("key share secret is zero");
      }
      this.x = x;
    }

    @Override
    byte[] secretEncoding() {
      return Codec.toFixed(x, SCALAR_BYTES);
    }
  }
}
