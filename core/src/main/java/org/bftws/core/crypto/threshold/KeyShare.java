package org.bftws.core.crypto.threshold;

/**
 * One replica's private key share. Its canonical encoding carries the scheme, (n, k, t), the index and the
 * secret; the public parameters needed to use it come from the {@link GroupKey}. Never log it.
 */
public abstract class KeyShare {
  private final SchemeId scheme;
  private final ThresholdParams params;
  private final int index;

  KeyShare(SchemeId scheme, ThresholdParams params, int index) {
    if (!params.isValidIndex(index)) {
      throw new IllegalArgumentException("share index " + index + " outside 1.." + params.n());
    }
    this.scheme = scheme;
    this.params = params;
    this.index = index;
  }

  public final SchemeId scheme() {
    return scheme;
  }

  public final ThresholdParams params() {
    return params;
  }

  /** The replica index, 1..n. */
  public final int index() {
    return index;
  }

  /** Canonical bytes of the secret alone. */
  abstract byte[] secretEncoding();

  /** Canonical encoding: scheme, n, k, t, index, secret. */
  public final byte[] encode() {
    return new Codec.Writer().u8(scheme.code()).u16(params.n()).u16(params.k()).u16(params.t())
        .u16(index).bytes(secretEncoding()).toByteArray();
  }

  /** Decodes and validates {@link #encode()}'s output. */
  public static KeyShare decode(byte[] encoded) {
    Codec.Reader r = new Codec.Reader(encoded);
    SchemeId id = SchemeId.fromCode(r.u8());
    ThresholdParams p = new ThresholdParams(r.u16(), r.u16(), r.u16());
    int index = r.u16();
    byte[] secret = r.bytes();
    r.end();
    return Thresholds.keys(id).keyShare(p, index, secret);
  }

  @Override
  public final String toString() {
    return scheme.label() + " key share " + index + "/" + params.n() + " (secret not shown)";
  }
}
