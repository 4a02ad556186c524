package org.bftws.core.message.async;

import java.util.List;
import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;

/**
 * DECIDE of binary agreement: the decided bit of {@code round}, the validation of a 1 and the n−f main-vote
 * signatures that prove it. {@code i64(round) || u8(bit) || bytes(validation) || sigs(proof)}.
 */
public record AbbaDecide(long round, int bit, byte[] validation, List<AbbaSig> proof) {
  public byte[] encode() {
    return AbbaSig.write(new ByteWriter(1024).i64(round).u8(bit).bytes(validation), proof).toBytes();
  }

  /** A peer's in a group of {@code n}. */
  public static AbbaDecide decode(byte[] body, int n) {
    ByteReader r = new ByteReader(body);
    long rn = AbbaSig.round(r.i64());
    int b = AbbaSig.bit(r.u8());
    byte[] validation = r.bytes();
    List<AbbaSig> proof = AbbaSig.read(r, n);
    r.end();
    return new AbbaDecide(rn, b, validation, proof);
  }
}
