package org.bftws.core.message;

import java.util.ArrayList;
import java.util.List;
import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;

/**
 * ⟨COIN-SHARE, n, d, [(j, T(m_j, i))...]⟩: replica i's threshold-coin shares for the batch d committed at
 * sequence number n (CT algorithm, integrity paper §5). One entry per randomized request of the batch, j
 * being the request's position in the batch and m_j = CoinMessage(group, n, D(request j)); or, with
 * {@code bftws.coinPerBatch}, a single entry with j = {@link #BATCH} and m = CoinMessage(group, n, d). The
 * share is a {@code SignatureShare} in its canonical encoding; the envelope's sender is i.
 *
 * <p>The paper piggybacks T on the commit message; we send it in its own message once the batch committed
 * locally, so a coin is never revealed for a (n, d) that might still be replaced in a later view, and the
 * commit message, which view changes carry in certificates, keeps its format.
 */
public record CoinShare(long seq, byte[] digest, List<Entry> shares) {
  /** The request index of the single entry of a per-batch coin. */
  public static final int BATCH = -1;

  /** One share: the request's index in the batch (or {@link #BATCH}) and the encoded share. */
  public record Entry(int request, byte[] share) {}

  public CoinShare {
    shares = List.copyOf(shares);
  }

  public byte[] encode() {
    ByteWriter w = new ByteWriter(64 + shares.size() * 160).i64(seq).raw(digest).i32(shares.size());
    for (Entry e : shares) {
      w.i32(e.request).bytes(e.share);
    }
    return w.toBytes();
  }

  public static CoinShare decode(byte[] body) {
    ByteReader r = new ByteReader(body);
    long seq = r.i64();
    byte[] d = Codec.readDigest(r);
    int count = r.count(Codec.MAX_LIST);
    List<Entry> entries = new ArrayList<>(Math.min(count, 64));
    for (int i = 0; i < count; i++) {
      entries.add(new Entry(r.i32(), r.bytes()));
    }
    r.end();
    return new CoinShare(seq, d, entries);
  }
}
