package org.bftws.core.message;

import java.util.List;
import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;
import org.bftws.core.codec.DecodeException;
import org.bftws.core.crypto.Digests;

/**
 * ⟨PRE-PREPARE, v, n, d⟩ with the batch of signed client requests it orders (Castro-Liskov §4.2 and §5.1
 * batching). An empty batch is the null request of a view change (§4.4).
 *
 * <p>{@code randomness} (BA algorithm, integrity paper §4; null otherwise): the primary's own signed
 * {@link Kind#PP_UPDATE} contribution R_p for the batch's randomized requests, or, when a view change
 * re-proposes a prepared batch, the certified set S_R it prepared with. It is not covered by d (it is
 * covered by the pre-prepare's signature) and is encoded only when present, so other pre-prepares keep
 * their bytes.
 */
public record PrePrepare(long view, long seq, byte[] digest, List<Signed> requests, Signed randomness) {
  public PrePrepare(long view, long seq, byte[] digest, List<Signed> requests) {
    this(view, seq, digest, requests, null);
  }

  public static PrePrepare of(long view, long seq, List<Signed> requests) {
    return new PrePrepare(view, seq, batchDigest(requests), List.copyOf(requests));
  }

  public PrePrepare withRandomness(Signed r) {
    return new PrePrepare(view, seq, digest, requests, r);
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
    if (randomness != null) {
      randomness.write(w);
    }
    return w.toBytes();
  }

  public static PrePrepare decode(byte[] body) {
    ByteReader r = new ByteReader(body);
    long v = r.i64();
    long n = r.i64();
    byte[] d = Codec.readDigest(r);
    List<Signed> requests = Codec.readList(r, Kind.REQUEST);
    Signed randomness = null;
    if (!r.atEnd()) {
      randomness = Signed.read(r);
      if (randomness.kind() != Kind.PP_UPDATE) {
        throw new DecodeException("pre-prepare randomness that is not a pp-update");
      }
    }
    r.end();
    PrePrepare p = new PrePrepare(v, n, d, requests, randomness);
    if (!java.util.Arrays.equals(p.digest, batchDigest(p.requests))) {
      throw new DecodeException("pre-prepare digest does not match its batch");
    }
    return p;
  }
}
