package org.bftws.core.crypto.threshold;

import java.util.Arrays;

/**
 * One replica's share of the group value on a message, with its proof of correctness (empty for BLS,
 * whose shares are checked by a pairing). The index says which verification key of the {@link GroupKey}
 * checks it; the PBFT layer must also check that the index is the authenticated sender's. Immutable.
 */
public final class SignatureShare {
  private final SchemeId scheme;
  private final int index;
  private final byte[] value;
  private final byte[] proof;

  public SignatureShare(SchemeId scheme, int index, byte[] value, byte[] proof) {
    if (index < 0 || index > 0xFFFF) {
      throw new IllegalArgumentException("share index out of range: " + index);
    }
    this.scheme = scheme;
    this.index = index;
    this.value = value.clone();
    this.proof = proof.clone();
  }

  public SchemeId scheme() {
    return scheme;
  }

  public int index() {
    return index;
  }

  /** The share itself (a group element), canonical bytes. */
  public byte[] value() {
    return value.clone();
  }

  /** The proof of correctness, canonical bytes (scheme-specific layout). */
  public byte[] proof() {
    return proof.clone();
  }

  /** Canonical encoding: scheme, index, value, proof. */
  public byte[] encode() {
    return new Codec.Writer().u8(scheme.code()).u16(index).bytes(value).bytes(proof).toByteArray();
  }

  /** Strict decoding of {@link #encode()}'s output; whether the share is valid is a separate question. */
  public static SignatureShare decode(byte[] encoded) {
    Codec.Reader r = new Codec.Reader(encoded);
    SchemeId id = SchemeId.fromCode(r.u8());
    int index = r.u16();
    byte[] v = r.bytes();
    byte[] p = r.bytes();
    r.end();
    return new SignatureShare(id, index, v, p);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SignatureShare s && s.scheme == scheme && s.index == index
        && Arrays.equals(s.value, value) && Arrays.equals(s.proof, proof);
  }

  @Override
  public int hashCode() {
    return 31 * (31 * index + Arrays.hashCode(value)) + Arrays.hashCode(proof);
  }

  @Override
  public String toString() {
    return scheme.label() + " share from " + index;
  }
}
