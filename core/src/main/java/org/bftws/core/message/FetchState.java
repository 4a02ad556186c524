package org.bftws.core.message;

import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;

/** fetch-state (BFT-WS §3.3.1.8): a lagging replica asks for the stable checkpoint at or above seq. */
public record FetchState(long seq) {
  public byte[] encode() {
    return new ByteWriter(8).i64(seq).toBytes();
  }

  public static FetchState decode(byte[] body) {
    ByteReader r = new ByteReader(body);
    FetchState f = new FetchState(r.i64());
    r.end();
    return f;
  }
}
