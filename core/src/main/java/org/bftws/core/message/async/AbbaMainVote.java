package org.bftws.core.message.async;

import java.util.List;
import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;
import org.bftws.core.codec.DecodeException;

/**
 * MAIN_VOTE of binary agreement (SINTRA §2.3): in {@code round}, for a bit with its validation (for 1) and
 * n−f pre-vote signatures, or to abstain ({@link #ABSTAIN}) with two pre-votes, one for each bit. Canonical:
 * {@code i64(round) || u8(value) || bytes(sig) ||} then {@code [bytes(validation)] || sigs(just)} for a bit,
 * or two embedded {@link AbbaPreVote}s to abstain.
 */
public record AbbaMainVote(long round, int value, byte[] sig, byte[] validation, List<AbbaSig> just,
    AbbaPreVote p0, AbbaPreVote p1) {
  /** The value of an abstaining main-vote. */
  public static final int ABSTAIN = 2;

  public byte[] encode() {
    ByteWriter w = new ByteWriter(1024).i64(round).u8(value).bytes(sig);
    if (value == ABSTAIN) {
      p1.writeEmbedded(p0.writeEmbedded(w));
      return w.toBytes();
    }
    if (value == 1) {
      w.bytes(validation);
    }
    return AbbaSig.write(w, just).toBytes();
  }

  /** A peer's in a group of {@code n}. */
  public static AbbaMainVote decode(byte[] body, int n) {
    ByteReader r = new ByteReader(body);
    long rn = AbbaSig.round(r.i64());
    int v = r.u8();
    if (v > ABSTAIN) {
      throw new DecodeException("main-vote " + v);
    }
    byte[] sig = r.bytes();
    byte[] proof = v == 1 ? r.bytes() : new byte[0];
    List<AbbaSig> just = v == ABSTAIN ? List.of() : AbbaSig.read(r, n);
    AbbaPreVote p0 = v == ABSTAIN ? AbbaPreVote.readEmbedded(r, n) : null;
    AbbaPreVote p1 = v == ABSTAIN ? AbbaPreVote.readEmbedded(r, n) : null;
    r.end();
    return new AbbaMainVote(rn, v, sig, proof, just, p0, p1);
  }
}
