package org.bftws.core.message.async;

import java.util.ArrayList;
import java.util.List;
import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;

/**
 * A party's batch of payloads for one round of atomic broadcast (SINTRA §2.5): what it proposes, signs and
 * the decided vector names by digest. Canonical: {@code i32(count) || bytes(payload)*}.
 */
public record AbcBatch(List<byte[]> payloads) {
  public byte[] encode() {
    ByteWriter w = new ByteWriter(64).i32(payloads.size());
    payloads.forEach(w::bytes);
    return w.toBytes();
  }

  /** A peer's batch, of at most {@code maxBatch} payloads ({@code bftws.maxBatchSize}). */
  public static AbcBatch decode(byte[] bytes, int maxBatch) {
    ByteReader r = new ByteReader(bytes);
    int count = r.count(maxBatch);
    List<byte[]> payloads = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      payloads.add(r.bytes());
    }
    r.end();
    return new AbcBatch(payloads);
  }
}
