package org.bftws.core.message.hybrid;

import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;
import org.bftws.core.codec.DecodeException;
import org.bftws.core.crypto.Digests;

/**
 * FETCH: a replica asks for the batch at seq with this digest (it knows the digest from commits or from a
 * certified chain and lacks the batch). The attempt number makes each retry a new envelope: a resent copy of
 * the same one would be dropped unseen by a peer that took it already. Canonical: {@code i64(seq) ||
 * bytes(digest) || i32(attempt)}.
 */
public record LaneFetch(long seq, byte[] digest, int attempt) {
  public byte[] encode() {
    return new ByteWriter(52).i64(seq).bytes(digest).i32(attempt).toBytes();
  }

  public static LaneFetch decode(byte[] bytes) {
    ByteReader r = new ByteReader(bytes);
    LaneFetch q = new LaneFetch(r.i64(), r.bytes(), r.i32());
    r.end();
    if (q.seq < 1 || q.digest.length != Digests.LENGTH) {
      throw new DecodeException("fetch of seq " + q.seq + " with a " + q.digest.length + "-byte digest");
    }
    return q;
  }
}
