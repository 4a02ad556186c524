package org.bftws.core.message.async;

import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;
import org.bftws.core.codec.DecodeException;

/**
 * VOTE of multi-valued agreement (SINTRA §2.4): in loop round {@code round}, yes with a certificate of the
 * round's candidate's consistent broadcast (its digest and quorum certificate, encoded as a {@link CbFinal}),
 * or no ({@code certified} null). Canonical: {@code i32(round) || bool(yes) || [bytes(digest) ||
 * bytes(certificate)]}.
 */
public record MvbaVote(int round, CbFinal certified) {
  public boolean yes() {
    return certified != null;
  }

  public byte[] encode() {
    ByteWriter w = new ByteWriter().i32(round).bool(yes());
    if (yes()) {
      w.bytes(certified.digest()).bytes(certified.certificate());
    }
    return w.toBytes();
  }

  /** A peer's vote in a group of {@code n}: a loop round is one of its n candidates' (0..n-1). */
  public static MvbaVote decode(byte[] body, int n) {
    ByteReader r = new ByteReader(body);
    int round = r.i32();
    if (round < 0 || round >= n) {
      throw new DecodeException("vote for round " + round);
    }
    CbFinal certified = r.bool() ? new CbFinal(r.bytes(), r.bytes()) : null;
    r.end();
    return new MvbaVote(round, certified);
  }
}
