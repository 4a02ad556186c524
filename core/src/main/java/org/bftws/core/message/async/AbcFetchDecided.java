package org.bftws.core.message.async;

import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;

/**
 * FETCH_DECIDED of atomic broadcast's decided-vector instance: round {@code round}'s decided vector, asked of
 * all by its digest by a party whose agreement decided it without holding it. Canonical: {@code i64(round) ||
 * bytes(digest)}.
 */
public record AbcFetchDecided(long round, byte[] digest) {
  public byte[] encode() {
    return new ByteWriter(48).i64(round).bytes(digest).toBytes();
  }

  public static AbcFetchDecided decode(byte[] body) {
    ByteReader r = new ByteReader(body);
    long round = r.i64();
    byte[] digest = r.bytes();
    r.end();
    return new AbcFetchDecided(round, digest);
  }
}
