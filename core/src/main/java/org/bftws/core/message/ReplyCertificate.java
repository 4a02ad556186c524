package org.bftws.core.message;

import java.util.ArrayList;
import java.util.List;
import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;
import org.bftws.core.crypto.Digests;

/**
 * The signed part of replies (Castro-Liskov §4.1 ⟨REPLY, v, t, c, i, r⟩, batched): one certificate per
 * executed batch lists, for each request, (sequence id, message number, D(result ‖ random)). A replica
 * signs it once per batch instead of once per request — signing was a third of a replica's per-request
 * cost — and each client gets the certificate with its own result ({@link ReplyBundle}).
 */
public record ReplyCertificate(long view, List<Entry> entries) {
  /** One request's reply, by digest. */
  public record Entry(String sequenceId, long messageNumber, byte[] resultDigest) {}

  public static byte[] resultDigest(byte[] result, byte[] random) {
    return Digests.sha256(new ByteWriter(result.length + random.length + 8).bytes(result).bytes(random).toBytes());
  }

  public byte[] encode() {
    ByteWriter w = new ByteWriter(16 + entries.size() * 80).i64(view).i32(entries.size());
    for (Entry e : entries) {
      w.str(e.sequenceId()).i64(e.messageNumber()).raw(e.resultDigest());
    }
    return w.toBytes();
  }

  public static ReplyCertificate decode(byte[] body) {
    ByteReader r = new ByteReader(body);
    long view = r.i64();
    int n = r.count(Codec.MAX_LIST);
    List<Entry> entries = new ArrayList<>(Math.min(n, 64));
    for (int i = 0; i < n; i++) {
      entries.add(new Entry(r.str(), r.i64(), Codec.readDigest(r)));
    }
    r.end();
    return new ReplyCertificate(view, List.copyOf(entries));
  }
}
