package org.bftws.core.message.async;

import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;

/** PRE_PROCESS of binary agreement (SINTRA §2.3): a party's initial bit, signed. {@code u8(bit) || bytes(sig)}. */
public record AbbaPreProcess(int bit, byte[] sig) {
  public byte[] encode() {
    return new ByteWriter(80).u8(bit).bytes(sig).toBytes();
  }

  public static AbbaPreProcess decode(byte[] body) {
    ByteReader r = new ByteReader(body);
    int b = AbbaSig.bit(r.u8());
    byte[] sig = r.bytes();
    r.end();
    return new AbbaPreProcess(b, sig);
  }
}
