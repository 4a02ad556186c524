package org.bftws.core.message.async;

import java.util.ArrayList;
import java.util.List;
import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;

/**
 * FETCH_BATCH of atomic broadcast: the proposals (party, digest of its batch) a decided vector names and the
 * asker lacks. Canonical: {@code i32(count) || (i32(party) || bytes(digest))*}.
 */
public record AbcFetchBatch(List<Wanted> wanted) {
  /** One proposal asked for. */
  public record Wanted(int party, byte[] digest) {}

  public byte[] encode() {
    ByteWriter w = new ByteWriter(64 * wanted.size() + 8).i32(wanted.size());
    wanted.forEach(e -> w.i32(e.party()).bytes(e.digest()));
    return w.toBytes();
  }

  /** A peer's, asking for at most {@code n} proposals (a vector names at most n). */
  public static AbcFetchBatch decode(byte[] body, int n) {
    ByteReader r = new ByteReader(body);
    int count = r.count(n);
    List<Wanted> wanted = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      int party = r.i32();
      wanted.add(new Wanted(party, r.bytes()));
    }
    r.end();
    return new AbcFetchBatch(wanted);
  }
}
