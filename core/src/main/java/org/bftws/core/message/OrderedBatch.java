package org.bftws.core.message;

import java.util.List;
import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;

/**
 * The body of {@link Kind#ORDERED} (BFT-WS §3.3.3; Yin et al. SOSP'03 §3.1): the batch the agreement
 * replicas committed at seq in view, and its agreement certificate, the signed COMMITs of that view for
 * (view, seq, D(batch)) from 2f+1 distinct agreement replicas. Anyone holding the agreement replicas' keys
 * re-checks it, so execution nodes relay it among themselves unchanged.
 */
public record OrderedBatch(long seq, long view, List<Signed> requests, List<Signed> commits) {
  public OrderedBatch {
    requests = List.copyOf(requests);
    commits = List.copyOf(commits);
  }

  /** D(batch), what the commits must be on. */
  public byte[] digest() {
    return PrePrepare.batchDigest(requests);
  }

  public byte[] encode() {
    ByteWriter w = new ByteWriter(256).i64(seq).i64(view);
    Codec.writeList(w, requests);
    Codec.writeList(w, commits);
    return w.toBytes();
  }

  public static OrderedBatch decode(byte[] body) {
    ByteReader r = new ByteReader(body);
    OrderedBatch b = new OrderedBatch(r.i64(), r.i64(), Codec.readList(r, Kind.REQUEST), Codec.readList(r, Kind.COMMIT));
    r.end();
    return b;
  }
}
