package org.bftws.core.message;

import java.util.List;
import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;
import org.bftws.core.codec.DecodeException;
import org.bftws.core.crypto.Digests;

/**
 * ⟨PRE-PREPARE, v, n, d⟩ with the batch of signed client requests it orders (Castro-Liskov §4.2 and §5.1
 * batching). An empty batch is the null request of a view change (§4.4).
 */
public record PrePrepare(long view, long seq, byte[] digest, List<Signed> requests) {
  public static PrePrepare of(long view, long seq, List<Signed> requests) {
    return new PrePrepare(view, seq, batchDigest(requests), List.copyOf(requests));
  }

  /** d = D(batch): the digest of the request envelopes in order. */
  public static byte[] batchDigest(List<Signed> requests) {
    ByteWriter w = new ByteWriter(requests.size() * 32 + 8).i32(requests.size());
    for (Signed s : requests) {
      w.raw(s.digest());
    }
    return Digests.sha256(w.toBytes());
  }

  public byte[] encode() {
    ByteWriter w = new ByteWriter(256).i64(view).i64(seq).raw(digest);
    Codec.writeList(w, requests);
    return w.toBytes();
  }

  public static PrePrepare decode(byte[] body) {
    ByteReader r = new ByteReader(body);
    PrePrepare p = new PrePrepare(r.i64(), r.i64(), Codec.readDigest(r), Codec.readList(r, Kind.REQUEST));
    r.end();
    if (!java.util.Arrays.equals(p.digest, batchDigest(p.requests))) {
      throw new DecodeException("pre-prepare digest does not match its batch");
    }
    return p;
  }
}
