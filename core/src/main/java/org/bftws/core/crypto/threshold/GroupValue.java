package org.bftws.core.crypto.threshold;

import java.util.Arrays;

/**
 * The combined value: the unique group signature (BLS, RSA) or the unique coin point g̃^x (CKS). Only
 * {@link #unique()} feeds the coin (docs/design/cryptography.md pitfall 7: never hash the set of shares). For CKS, whose value
 * cannot be checked against the group key alone, {@link #evidence()} carries the k shares with their proofs
 * so that any holder of the group key can verify it; it is empty for BLS and RSA.
 */
public final class GroupValue {
  private final SchemeId scheme;
  private final byte[] unique;
  private final byte[] evidence;

  public GroupValue(SchemeId scheme, byte[] unique, byte[] evidence) {
    this.scheme = scheme;
    this.unique = unique.clone();
    this.evidence = evidence.clone();
  }

  public SchemeId scheme() {
    return scheme;
  }

  /** Canonical bytes of the unique group value: the same whichever k valid shares produced it. */
  public byte[] unique() {
    return unique.clone();
  }

  /** Scheme-specific evidence (CKS: the shares used); empty for publicly verifiable schemes. */
  public byte[] evidence() {
    return evidence.clone();
  }

  /** Canonical encoding: scheme, unique value, evidence. */
  public byte[] encode() {
    return new Codec.Writer().u8(scheme.code()).bytes(unique).bytes(evidence).toByteArray();
  }

  public static GroupValue decode(byte[] encoded) {
    Codec.Reader r = new Codec.Reader(encoded);
    SchemeId id = SchemeId.fromCode(r.u8());
    byte[] u = r.bytes();
    byte[] e = r.bytes();
    r.end();
    return new GroupValue(id, u, e);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof GroupValue v && v.scheme == scheme && Arrays.equals(v.unique, unique)
        && Arrays.equals(v.evidence, evidence);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(unique);
  }
}
