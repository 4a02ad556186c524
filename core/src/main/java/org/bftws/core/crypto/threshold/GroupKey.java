package org.bftws.core.crypto.threshold;

import java.util.ArrayList;
import java.util.List;

/**
 * All public material of one dealt threshold key: the scheme, (n, k, t), the scheme's common public part
 * (group public key and parameters) and one verification key per replica index 1..n. Shares are verified
 * against these verification keys by index, never against key material carried in a share (docs/design/cryptography.md
 * pitfall 3). Instances are immutable and only made by the schemes of this package, which validate every
 * part on construction.
 */
public abstract class GroupKey {
  private final SchemeId scheme;
  private final ThresholdParams params;

  GroupKey(SchemeId scheme, ThresholdParams params) {
    this.scheme = scheme;
    this.params = params;
  }

  public final SchemeId scheme() {
    return scheme;
  }

  public final ThresholdParams params() {
    return params;
  }

  /** Canonical bytes of the scheme's common public part (e.g. the group public key). */
  public abstract byte[] commonEncoding();

  /** Canonical bytes of the verification key of replica {@code index} (1..n). */
  public abstract byte[] verificationKeyEncoding(int index);

  /** Canonical encoding: scheme, n, k, t, common part, then the n verification keys in index order. */
  public final byte[] encode() {
    Codec.Writer w = new Codec.Writer().u8(scheme.code()).u16(params.n()).u16(params.k()).u16(params.t());
    w.bytes(commonEncoding());
    for (int i = 1; i <= params.n(); i++) {
      w.bytes(verificationKeyEncoding(i));
    }
    return w.toByteArray();
  }

  /** Decodes and validates {@link #encode()}'s output. */
  public static GroupKey decode(byte[] encoded) {
    Codec.Reader r = new Codec.Reader(encoded);
    SchemeId id = SchemeId.fromCode(r.u8());
    ThresholdParams p = new ThresholdParams(r.u16(), r.u16(), r.u16());
    byte[] common = r.bytes();
    List<byte[]> vks = new ArrayList<>();
    for (int i = 1; i <= p.n(); i++) {
      vks.add(r.bytes());
    }
    r.end();
    return Thresholds.keys(id).groupKey(p, common, vks);
  }

  void checkIndex(int index) {
    if (!params.isValidIndex(index)) {
      throw new IllegalArgumentException("index " + index + " outside 1.." + params.n());
    }
  }
}
