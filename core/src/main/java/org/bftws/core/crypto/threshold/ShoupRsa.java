package org.bftws.core.crypto.threshold;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.bouncycastle.crypto.digests.SHA256Digest;
import org.bouncycastle.crypto.generators.MGF1BytesGenerator;
import org.bouncycastle.crypto.params.MGFParameters;

/**
 * Shoup, "Practical threshold signatures" (EUROCRYPT 2000), in the dual-threshold form of its §4 so that k
 * may be anything from t+1 to n−t (integrity paper §5). Security of the modulus: 2048 bits ≈ 112-bit,
 * 3072 ≈ 128-bit, 1024 ≈ 80-bit (benchmarks only), 512 bits none (tests only).
 *
 * <p>Dealer: N = pq with safe primes p = 2p'+1, q = 2q'+1 (docs/design/cryptography.md pitfall 5), m = p'q', prime e = 65537
 * &gt; n, d = e^{−1} mod m, polynomial f of degree k−1 over Z_m with f(0) = d, s_i = f(i); v a random square
 * (generator of Q_N w.h.p.), v_i = v^{s_i}; u with Jacobi symbol (u|N) = −1.
 *
 * <p>Message: x = FDH(m) by MGF1-SHA256 to |N|+128 bits mod N — deterministic, never a salted encoding, since
 * uniqueness is what makes the coin unbiasable (pitfall 5); x̂ = x if (x|N) = 1, else x·u^e (§4).
 * Share: x_i = x̂^{2Δs_i} with Δ = n! and a proof that log_{x̃} x_i² = log_v v_i (x̃ = x̂^{4Δ}): challenge c of
 * L1 = 128 bits, non-negative (pitfall 4), response z = s_i·c + r over the integers, r of |N|+2·L1 bits.
 * Combination over S: w = Π x_i^{2Δλ_{0,i}^S}, so w^e = x̂^{e'} with e' = 4Δ²; with a·e' + b·e = 1,
 * y = w^a·x̂^b is the e-th root of x̂, and y·u^{−1} (when x̂ ≠ x) is the standard RSA signature on x.
 */
public final class ShoupRsa extends AbstractThresholdScheme {
  /** Modulus size used by {@link Thresholds#scheme}: 2048 bits ≈ 112-bit security. */
  public static final int DEFAULT_MODULUS_BITS = 2048;
  /** Smallest modulus accepted (tests only: no security). */
  public static final int MIN_MODULUS_BITS = 512;
  private static final BigInteger E = BigInteger.valueOf(65537);
  private static final int L1 = 128;
  private static final String FDH_DOMAIN = "BFTWS-RSA-FDH-v1";
  private static final String PROOF_DOMAIN = "BFTWS-RSA-proof-v1";
  private static final String NONCE_DOMAIN = "BFTWS-RSA-nonce-v1";

  private final int modulusBits;

  /** A scheme that deals {@link #DEFAULT_MODULUS_BITS}-bit moduli. */
  public ShoupRsa() {
    this(DEFAULT_MODULUS_BITS);
  }

  /** A scheme that deals moduli of {@code modulusBits} bits (even, at least {@link #MIN_MODULUS_BITS}). */
  public ShoupRsa(int modulusBits) {
    if (modulusBits < MIN_MODULUS_BITS || modulusBits % 2 != 0) {
      throw new IllegalArgumentException("RSA modulus must be even and >= " + MIN_MODULUS_BITS + " bits");
    }
    this.modulusBits = modulusBits;
  }

  @Override
  public SchemeId id() {
    return SchemeId.RSA;
  }

  @Override
  boolean publiclyVerifiable() {
    return true;
  }

  @Override
  public Dealt deal(ThresholdParams params, SecureRandom random) {
    BigInteger p;
    BigInteger q;
    do {
      p = SafePrimes.generate(modulusBits / 2, random);
      q = SafePrimes.generate(modulusBits / 2, random);
    } while (p.equals(q));
    BigInteger n = p.multiply(q);
    BigInteger m = p.shiftRight(1).multiply(q.shiftRight(1));
    BigInteger[] poly = new BigInteger[params.k()];
    poly[0] = E.modInverse(m);
    for (int j = 1; j < poly.length; j++) {
      poly[j] = new BigInteger(m.bitLength() + 64, random).mod(m);
    }
    BigInteger v = randomUnit(n, random).modPow(BigInteger.TWO, n);
    BigInteger u;
    do {
      u = randomUnit(n, random);
    } while (SafePrimes.jacobi(u, n) != -1);
    Pub pub = new Pub(n, v, u);
    List<byte[]> vks = new ArrayList<>();
    List<KeyShare> shares = new ArrayList<>();
    for (int i = 1; i <= params.n(); i++) {
      BigInteger si = Lagrange.evaluate(poly, i, m);
      shares.add(new Share(params, i, si));
      vks.add(Codec.toFixed(v.modPow(si, n), pub.len));
    }
    return new Dealt(groupKey(params, pub.encode(), vks), shares);
  }

  @Override
  public GroupKey groupKey(ThresholdParams params, byte[] common, List<byte[]> verificationKeys) {
    requireCount(params, verificationKeys);
    if (params.n() >= E.intValue()) {
      throw new IllegalArgumentException("Shoup's scheme needs the public exponent above n");
    }
    Pub pub = Pub.decode(common);
    BigInteger[] vk = new BigInteger[params.n() + 1];
    for (int i = 1; i <= params.n(); i++) {
      vk[i] = pub.element(verificationKeys.get(i - 1), "verification key " + i);
      // v_i = v^{s_i} is a square, so its Jacobi symbol is 1: a cheap sanity check at load time.
      if (SafePrimes.jacobi(vk[i], pub.n) != 1) {
        throw new IllegalArgumentException("verification key " + i + ": Jacobi symbol is not 1");
      }
    }
    return new Group(params, pub, vk);
  }

  @Override
  public KeyShare keyShare(ThresholdParams params, int index, byte[] secret) {
    Codec.Reader r = new Codec.Reader(secret);
    BigInteger s = r.natural();
    r.end();
    return new Share(params, index, s);
  }

  @Override
  public boolean keyShareMatches(GroupKey group, KeyShare share) {
    if (!sameKey(group, share)) {
      return false;
    }
    Group g = (Group) group;
    return g.pub.v.modPow(((Share) share).s, g.pub.n).equals(g.vk[share.index()]);
  }

  @Override
  public SignatureShare share(GroupKey group, KeyShare key, byte[] message) {
    requireSameKey(group, key);
    Group g = (Group) group;
    Share sh = (Share) key;
    BigInteger n = g.pub.n;
    BigInteger xHat = g.pub.hatted(fdh(g.pub, message));
    BigInteger xi = xHat.modPow(g.twoDelta.multiply(sh.s), n);
    BigInteger xTilde = xHat.modPow(g.twoDelta.shiftLeft(1), n);
    BigInteger r = Nonces.derive(NONCE_DOMAIN, sh.secretEncoding(), message, n.bitLength() + 2 * L1);
    BigInteger c = challenge(g.pub, xTilde, g.vk[sh.index()], xi.multiply(xi).mod(n),
        g.pub.v.modPow(r, n), xTilde.modPow(r, n));
    BigInteger z = sh.s.multiply(c).add(r);
    byte[] proof = new Codec.Writer().bytes(Codec.toFixed(c, L1 / 8)).natural(z).toByteArray();
    return new SignatureShare(SchemeId.RSA, sh.index(), Codec.toFixed(xi, g.pub.len), proof);
  }

  @Override
  public boolean verifyShare(GroupKey group, byte[] message, SignatureShare share) {
    if (!acceptable(group, share)) {
      return false;
    }
    Group g = (Group) group;
    BigInteger n = g.pub.n;
    try {
      BigInteger xi = g.pub.element(share.value(), "share");
      Codec.Reader r = new Codec.Reader(share.proof());
      byte[] cBytes = r.bytes();
      BigInteger z = r.natural();
      r.end();
      if (cBytes.length != L1 / 8 || z.bitLength() > n.bitLength() + 2 * L1 + 1) {
        return false;
      }
      BigInteger c = new BigInteger(1, cBytes);
      BigInteger vi = g.vk[share.index()];
      BigInteger xTilde = g.pub.hatted(fdh(g.pub, message)).modPow(g.twoDelta.shiftLeft(1), n);
      BigInteger xi2 = xi.multiply(xi).mod(n);
      // v' = v^z·v_i^{−c}, x' = x̃^z·x_i^{−2c}; accept iff c recomputes (Shoup 2000, §3 "Verifying").
      BigInteger vPrime = g.pub.v.modPow(z, n).multiply(vi.modPow(c, n).modInverse(n)).mod(n);
      BigInteger xPrime = xTilde.modPow(z, n).multiply(xi2.modPow(c, n).modInverse(n)).mod(n);
      return challenge(g.pub, xTilde, vi, xi2, vPrime, xPrime).equals(c);
    } catch (IllegalArgumentException | ArithmeticException e) {
      return false;
    }
  }

  @Override
  GroupValue interpolate(GroupKey group, byte[] message, List<SignatureShare> used) {
    Group g = (Group) group;
    BigInteger n = g.pub.n;
    int[] set = indices(used);
    BigInteger w = BigInteger.ONE;
    try {
      for (SignatureShare s : used) {
        BigInteger xi = g.pub.element(s.value(), "share");
        BigInteger lambda = Lagrange.atZeroTimesDelta(set, s.index(), g.delta).shiftLeft(1);
        w = w.multiply(lambda.signum() >= 0 ? xi.modPow(lambda, n) : xi.modInverse(n).modPow(lambda.negate(), n))
            .mod(n);
      }
      BigInteger x = fdh(g.pub, message);
      BigInteger xHat = g.pub.hatted(x);
      // a·e' + b·e = 1 with e' = 4Δ² (coprime to the prime e > n): y = w^a·x̂^b, y^e = x̂.
      BigInteger ePrime = g.delta.multiply(g.delta).shiftLeft(2);
      BigInteger a = ePrime.modInverse(E);
      BigInteger b = BigInteger.ONE.subtract(a.multiply(ePrime)).divide(E);
      BigInteger y = w.modPow(a, n).multiply(xHat.modInverse(n).modPow(b.negate(), n)).mod(n);
      if (!xHat.equals(x)) {
        y = y.multiply(g.pub.u.modInverse(n)).mod(n);
      }
      return new GroupValue(SchemeId.RSA, Codec.toFixed(y, g.pub.len), new byte[0]);
    } catch (IllegalArgumentException | ArithmeticException e) {
      return null;
    }
  }

  /** The standard RSA check y^e = FDH(m) mod N. */
  @Override
  public boolean verifyCombined(GroupKey group, byte[] message, GroupValue value) {
    requireScheme(group.scheme());
    if (value.scheme() != SchemeId.RSA || value.evidence().length != 0) {
      return false;
    }
    Pub pub = ((Group) group).pub;
    try {
      BigInteger y = pub.element(value.unique(), "signature");
      return y.modPow(E, pub.n).equals(fdh(pub, message));
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  /** Full-domain hash: MGF1-SHA256 over (domain, N, message) to |N|+128 bits, reduced mod N. */
  static BigInteger fdh(Pub pub, byte[] message) {
    byte[] seed = new Codec.Writer().bytes(FDH_DOMAIN.getBytes(StandardCharsets.US_ASCII))
        .bytes(Codec.toFixed(pub.n, pub.len)).bytes(message).toByteArray();
    MGF1BytesGenerator mgf = new MGF1BytesGenerator(new SHA256Digest());
    mgf.init(new MGFParameters(seed));
    byte[] out = new byte[pub.len + L1 / 8];
    mgf.generateBytes(out, 0, out.length);
    return new BigInteger(1, out).mod(pub.n);
  }

  private static BigInteger challenge(Pub pub, BigInteger... values) {
    try {
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      md.update(PROOF_DOMAIN.getBytes(StandardCharsets.US_ASCII));
      md.update(Codec.toFixed(pub.v, pub.len));
      for (BigInteger x : values) {
        md.update(Codec.toFixed(x, pub.len));
      }
      // L1 = 128-bit truncated, non-negative challenge (Shoup §3; docs/design/cryptography.md pitfall 4).
      byte[] h = md.digest();
      return new BigInteger(1, Arrays.copyOf(h, L1 / 8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 unavailable", e);
    }
  }

  private static BigInteger randomUnit(BigInteger n, SecureRandom random) {
    BigInteger r;
    do {
      r = new BigInteger(n.bitLength() + 64, random).mod(n);
    } while (r.signum() == 0 || !r.gcd(n).equals(BigInteger.ONE));
    return r;
  }

  /** The common public part: N, v, u (e is fixed at 65537). */
  static final class Pub {
    final BigInteger n;
    final BigInteger v;
    final BigInteger u;
    final int len;
    final BigInteger uToE;

    Pub(BigInteger n, BigInteger v, BigInteger u) {
      this.n = n;
      this.len = (n.bitLength() + 7) / 8;
      this.v = v;
      this.u = u;
      this.uToE = u.modPow(E, n);
    }

    byte[] encode() {
      return new Codec.Writer().natural(n).natural(E).bytes(Codec.toFixed(v, len))
          .bytes(Codec.toFixed(u, len)).toByteArray();
    }

    static Pub decode(byte[] common) {
      Codec.Reader r = new Codec.Reader(common);
      BigInteger n = r.natural();
      if (n.bitLength() < MIN_MODULUS_BITS || !n.testBit(0)) {
        throw new IllegalArgumentException("RSA modulus: odd, at least " + MIN_MODULUS_BITS + " bits");
      }
      if (!r.natural().equals(E)) {
        throw new IllegalArgumentException("RSA public exponent: must be 65537");
      }
      Pub probe = new Pub(n, BigInteger.TWO, BigInteger.TWO);
      BigInteger v = probe.element(r.bytes(), "RSA verification base v");
      BigInteger u = probe.element(r.bytes(), "RSA Jacobi element u");
      r.end();
      if (SafePrimes.jacobi(v, n) != 1) {
        throw new IllegalArgumentException("RSA verification base v: must be a square (Jacobi symbol 1)");
      }
      if (SafePrimes.jacobi(u, n) != -1) {
        throw new IllegalArgumentException("RSA Jacobi element u: (u|N) must be -1");
      }
      return new Pub(n, v, u);
    }

    /** A fixed-length element of Z_N^* (1 &lt; x &lt; N, coprime to N). */
    BigInteger element(byte[] b, String what) {
      if (b.length != len) {
        throw new IllegalArgumentException(what + ": expected " + len + " bytes");
      }
      BigInteger x = new BigInteger(1, b);
      if (x.compareTo(BigInteger.ONE) <= 0 || x.compareTo(n) >= 0 || !x.gcd(n).equals(BigInteger.ONE)) {
        throw new IllegalArgumentException(what + ": not a unit modulo N");
      }
      return x;
    }

    /** Shoup §4: x̂ = x if (x|N) = 1, else x·u^e, so x̂ always has Jacobi symbol 1. */
    BigInteger hatted(BigInteger x) {
      return SafePrimes.jacobi(x, n) == 1 ? x : x.multiply(uToE).mod(n);
    }
  }

  private static final class Group extends GroupKey {
    private final Pub pub;
    private final BigInteger[] vk;
    private final BigInteger delta;
    private final BigInteger twoDelta;

    Group(ThresholdParams params, Pub pub, BigInteger[] vk) {
      super(SchemeId.RSA, params);
      this.pub = pub;
      this.vk = vk;
      this.delta = Lagrange.factorial(params.n());
      this.twoDelta = delta.shiftLeft(1);
    }

    @Override
    public byte[] commonEncoding() {
      return pub.encode();
    }

    @Override
    public byte[] verificationKeyEncoding(int index) {
      checkIndex(index);
      return Codec.toFixed(vk[index], pub.len);
    }
  }

  private static final class Share extends KeyShare {
    private final BigInteger s;

    Share(ThresholdParams params, int index, BigInteger s) {
      super(SchemeId.RSA, params, index);
      this.s = s;
    }

    @Override
    byte[] secretEncoding() {
      return new Codec.Writer().natural(s).toByteArray();
    }
  }
}
