package org.bftws.core.message.hybrid;

import java.util.ArrayList;
import java.util.List;
import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;
import org.bftws.core.codec.DecodeException;
import org.bftws.core.crypto.Digests;

/**
 * A fast-lane batch (PROPOSE, and BLOCK when fetched): its sequence number, the digest of the batch before it
 * (the hash chain of BDT's Bolt, which makes a batch name its whole prefix) and its client requests as
 * encoded envelopes. Canonical: {@code i64(seq) || bytes(prev) || u32(count) || bytes(payload)*}; its digest
 * is SHA-256 of exactly those bytes.
 */
public final class LaneBatch {
  private final long seq;
  private final byte[] prev;
  private final List<byte[]> payloads;
  // A batch is hashed where it is proposed, voted, prepared, committed, stored and chained: encoded and
  // hashed once, as its fields never change after construction.
  private byte[] encoded;
  private byte[] digest;

  public LaneBatch(long seq, byte[] prev, List<byte[]> payloads) {
    this.seq = seq;
    this.prev = prev;
    this.payloads = List.copyOf(payloads);
  }

  public long seq() {
    return seq;
  }

  public byte[] prev() {
    return prev;
  }

  public List<byte[]> payloads() {
    return payloads;
  }

  public byte[] encode() {
    if (encoded == null) {
      ByteWriter w = new ByteWriter().i64(seq).bytes(prev).i32(payloads.size());
      payloads.forEach(w::bytes);
      encoded = w.toBytes();
    }
    return encoded; // as Signed.encode: callers do not write to it
  }

  public byte[] digest() {
    if (digest == null) {
      digest = Digests.sha256(encode());
    }
    return digest.clone();
  }

  /** A batch of at most {@code maxPayloads} requests, with a 32-byte previous digest and a positive seq. */
  public static LaneBatch decode(byte[] bytes, int maxPayloads) {
    ByteReader r = new ByteReader(bytes);
    long seq = r.i64();
    byte[] prev = r.bytes();
    if (seq < 1 || prev.length != Digests.LENGTH) {
      throw new DecodeException("lane batch at seq " + seq + " with a " + prev.length + "-byte previous digest");
    }
    int count = r.count(maxPayloads);
    List<byte[]> payloads = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      payloads.add(r.bytes());
    }
    r.end();
    return new LaneBatch(seq, prev, payloads);
  }
}
