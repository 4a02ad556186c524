package org.bftws.core.crypto.threshold;

import java.math.BigInteger;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import org.bouncycastle.math.ec.ECPoint;

/**
 * Shamir-shared discrete-logarithm keys on P-256, as the CKS coin and TDH2 both deal them: secret x with a
 * random polynomial f of degree k−1 over Z_q (docs/design/cryptography.md pitfall 1), x_i = f(i), group
 * public key y = g^x and verification keys y_i = g^{x_i}.
 */
final class DlogKeys {
  private DlogKeys() {}

  static Dealt deal(SchemeId scheme, ThresholdParams params, SecureRandom random) {
    BigInteger[] poly = Lagrange.randomPolynomial(params.k(), P256.Q, random);
    ECPoint[] vk = new ECPoint[params.n() + 1];
    List<KeyShare> shares = new ArrayList<>();
    for (int i = 1; i <= params.n(); i++) {
      BigInteger xi = Lagrange.evaluate(poly, i, P256.Q);
      shares.add(new Share(scheme, params, i, xi));
      vk[i] = P256.timesG(xi);
    }
    return new Dealt(new Group(scheme, params, P256.timesG(poly[0]), vk), shares);
  }

  static GroupKey groupKey(SchemeId scheme, ThresholdParams params, byte[] common, List<byte[]> verificationKeys) {
    AbstractThresholdScheme.requireCount(params, verificationKeys);
    ECPoint y = P256.decodePoint(common, "group public key");
    ECPoint[] vk = new ECPoint[params.n() + 1];
    for (int i = 1; i <= params.n(); i++) {
      vk[i] = P256.decodePoint(verificationKeys.get(i - 1), "verification key " + i);
    }
    return new Group(scheme, params, y, vk);
  }

  static KeyShare keyShare(SchemeId scheme, ThresholdParams params, int index, byte[] secret) {
    return new Share(scheme, params, index, P256.decodeScalar(secret, "key share secret"));
  }

  /** Whether g^{x_i} is verification key i (the caller checked scheme and (n, k, t)). */
  static boolean matches(GroupKey group, KeyShare share) {
    return P256.timesG(secret(share)).equals(verificationKey(group, share.index()));
  }

  static ECPoint publicKey(GroupKey group) {
    return ((Group) group).y;
  }

  static ECPoint verificationKey(GroupKey group, int index) {
    return ((Group) group).vk[index];
  }

  static BigInteger secret(KeyShare share) {
    return ((Share) share).x;
  }

  private static final class Group extends GroupKey {
    private final ECPoint y;
    private final ECPoint[] vk;

    Group(SchemeId scheme, ThresholdParams params, ECPoint y, ECPoint[] vk) {
      super(scheme, params);
      this.y = y;
      this.vk = vk;
    }

    @Override
    public byte[] commonEncoding() {
      return P256.encodePoint(y);
    }

    @Override
    public byte[] verificationKeyEncoding(int index) {
      checkIndex(index);
      return P256.encodePoint(vk[index]);
    }
  }

  private static final class Share extends KeyShare {
    private final BigInteger x;

    Share(SchemeId scheme, ThresholdParams params, int index, BigInteger x) {
      super(scheme, params, index);
      if (x.signum() == 0) {
        throw new IllegalArgumentException("key share secret is zero");
      }
      this.x = x;
    }

    @Override
    byte[] secretEncoding() {
      return P256.toScalar(x);
    }
  }
}
