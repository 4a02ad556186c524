package org.bftws.core.crypto.threshold;

import java.math.BigInteger;
import java.util.Arrays;
import org.bouncycastle.math.ec.ECPoint;

/**
 * A TDH2 ciphertext ψ = (c, L, u, ū, e, f) (Shoup-Gennaro 1998, scheme TDH2): the label L, the payload c (here an
 * AES-256-GCM ciphertext with its tag, see {@link Tdh2}), u = g^r, ū = ḡ^r and the validity proof (e, f).
 * Decoding checks the form only (points on the curve, scalars below q); whether the proof holds is {@link
 * Tdh2#isValid}. Immutable.
 *
 * <p>Canonical encoding: the scheme code (4), label, u, ū, e, f as length-prefixed fields, then the payload
 * as the remaining bytes (it may be longer than a field may be).
 */
public final class Tdh2Ciphertext {
  private final byte[] label;
  private final byte[] payload;
  final ECPoint u;
  final ECPoint uBar;
  final ChaumPedersen.Proof proof;

  Tdh2Ciphertext(byte[] label, byte[] payload, ECPoint u, ECPoint uBar, ChaumPedersen.Proof proof) {
    this.label = label.clone();
    this.payload = payload.clone();
    this.u = u;
    this.uBar = uBar;
    this.proof = proof;
  }

  /** The label L the encryptor bound to the ciphertext; the validity proof covers it. */
  public byte[] label() {
    return label.clone();
  }

  /** The encrypted payload c. */
  public byte[] payload() {
    return payload.clone();
  }

  public byte[] encode() {
    Codec.Writer w = new Codec.Writer().u8(SchemeId.TDH2.code()).bytes(label).bytes(P256.encodePoint(u))
        .bytes(P256.encodePoint(uBar)).bytes(P256.toScalar(proof.challenge()))
        .bytes(P256.toScalar(proof.response()));
    byte[] head = w.toByteArray();
    byte[] out = Arrays.copyOf(head, head.length + payload.length);
    System.arraycopy(payload, 0, out, head.length, payload.length);
    return out;
  }

  /** Strict decoding of {@link #encode()}'s output; {@link IllegalArgumentException} if malformed. */
  public static Tdh2Ciphertext decode(byte[] encoded) {
    Codec.Reader r = new Codec.Reader(encoded);
    if (r.u8() != SchemeId.TDH2.code()) {
      throw new IllegalArgumentException("not a TDH2 ciphertext");
    }
    byte[] label = r.bytes();
    ECPoint u = P256.decodePoint(r.bytes(), "u");
    ECPoint uBar = P256.decodePoint(r.bytes(), "ū");
    BigInteger e = P256.decodeScalar(r.bytes(), "e");
    BigInteger f = P256.decodeScalar(r.bytes(), "f");
    return new Tdh2Ciphertext(label, r.rest(), u, uBar, new ChaumPedersen.Proof(e, f));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Tdh2Ciphertext c && Arrays.equals(c.encode(), encode());
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(payload);
  }
}
