package org.bftws.core.message.async;

import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;

/**
 * COIN of binary agreement (SINTRA §2.3): a party's share of round {@code round}'s threshold coin, encoded as
 * its scheme encodes signature shares. {@code i64(round) || bytes(share)}.
 */
public record AbbaCoin(long round, byte[] share) {
  public byte[] encode() {
    return new ByteWriter(256).i64(round).bytes(share).toBytes();
  }

  public static AbbaCoin decode(byte[] body) {
    ByteReader r = new ByteReader(body);
    long rn = AbbaSig.round(r.i64());
    byte[] share = r.bytes();
    r.end();
    return new AbbaCoin(rn, share);
  }
}
