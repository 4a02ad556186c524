package org.bftws.core.message.async;

import java.util.ArrayList;
import java.util.List;
import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;

/**
 * DECIDED of atomic broadcast's decided-vector instance, the answer to an {@link AbcFetchDecided}: round
 * {@code round}'s decided vector and the encoded batches it names, in its order. Canonical: {@code i64(round)
 * || bytes(vector) || i32(count) || bytes(batch)*}.
 */
public record AbcDecided(long round, byte[] vector, List<byte[]> batches) {
  public byte[] encode() {
    ByteWriter w = new ByteWriter(vector.length + 16).i64(round).bytes(vector).i32(batches.size());
    batches.forEach(w::bytes);
    return w.toBytes();
  }

  /** A peer's DECIDED in a group of {@code n}: a vector names at most n batches. */
  public static AbcDecided decode(byte[] body, int n) {
    ByteReader r = new ByteReader(body);
    long round = r.i64();
    byte[] vector = r.bytes();
    int count = r.count(n);
    List<byte[]> batches = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      batches.add(r.bytes());
    }
    r.end();
    return new AbcDecided(round, vector, batches);
  }
}
