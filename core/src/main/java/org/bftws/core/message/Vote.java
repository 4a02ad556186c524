package org.bftws.core.message;

import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;

/**
 * The body shared by ⟨PREPARE, v, n, d, i⟩ and ⟨COMMIT, v, n, d, i⟩ (Castro-Liskov §4.2); the envelope's
 * kind tells which, and its sender is i.
 */
public record Vote(long view, long seq, byte[] digest) {
  public byte[] encode() {
    return new ByteWriter(48).i64(view).i64(seq).raw(digest).toBytes();
  }

  public static Vote decode(byte[] body) {
    ByteReader r = new ByteReader(body);
    Vote v = new Vote(r.i64(), r.i64(), Codec.readDigest(r));
    r.end();
    return v;
  }
}
