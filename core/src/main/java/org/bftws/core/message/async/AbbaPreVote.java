package org.bftws.core.message.async;

import java.util.List;
import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;
import org.bftws.core.codec.DecodeException;

/**
 * PRE_VOTE of binary agreement (SINTRA §2.3): {@code signer}'s pre-vote for {@code bit} in {@code round} with
 * its signature, the validation data of a 1, and its justification (signatures and, for a soft pre-vote,
 * the encoded combined coin). Canonical: {@code i64(round) || u8(bit) || bytes(sig) || bytes(validation) ||
 * bool(soft) || sigs(just) || bytes(coin)}; embedded in an abstaining main-vote, {@code i32(signer)} first.
 */
public record AbbaPreVote(int signer, long round, int bit, byte[] sig, byte[] validation, boolean soft,
    List<AbbaSig> just, byte[] coin) {
  /** The same pre-vote with {@code signature} (one's own is built before it is signed). */
  public AbbaPreVote signed(byte[] signature) {
    return new AbbaPreVote(signer, round, bit, signature, validation, soft, just, coin);
  }

  public byte[] encode() {
    return write(new ByteWriter(1024)).toBytes();
  }

  ByteWriter write(ByteWriter w) {
    w.i64(round).u8(bit).bytes(sig).bytes(validation).bool(soft);
    return AbbaSig.write(w, just).bytes(coin);
  }

  ByteWriter writeEmbedded(ByteWriter w) {
    return write(w.i32(signer));
  }

  /** A PRE_VOTE from {@code signer} in a group of {@code n}. */
  public static AbbaPreVote decode(int signer, byte[] body, int n) {
    ByteReader r = new ByteReader(body);
    AbbaPreVote p = read(signer, r, n);
    r.end();
    return p;
  }

  static AbbaPreVote read(int signer, ByteReader r, int n) {
    long rn = AbbaSig.round(r.i64());
    int b = AbbaSig.bit(r.u8());
    byte[] sig = r.bytes();
    byte[] proof = r.bytes();
    boolean soft = r.bool();
    return new AbbaPreVote(signer, rn, b, sig, proof, soft, AbbaSig.read(r, n), r.bytes());
  }

  static AbbaPreVote readEmbedded(ByteReader r, int n) {
    int signer = r.i32();
    if (signer < 0 || signer >= n) {
      throw new DecodeException("signer " + signer);
    }
    return read(signer, r, n);
  }
}
