package org.bftws.core.message.hybrid;

import java.util.ArrayList;
import java.util.List;
import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;
import org.bftws.core.codec.DecodeException;
import org.bftws.core.crypto.Digests;

/**
 * SWITCH (the input of BDT's Transformer): its signer leaves the epoch's fast lane, reporting its highest prepared
 * slot {@code high} with the batch digest there and the prepare certificate (empty when {@code high} is the
 * epoch's base), and proposing a few of its oldest pending requests for the fallback batch. The signature, on
 * {@code pid.bind("switch", signed())}, makes the message transferable: the fallback's agreement carries n−f
 * of them as its value. Canonical: {@code i32(signer) || i64(high) || bytes(highDigest) || bytes(certificate)
 * || u32(count) || bytes(request)* || bytes(signature)}.
 */
public record LaneSwitch(int signer, long high, byte[] highDigest, byte[] certificate, List<byte[]> batch,
    byte[] signature) {
  public LaneSwitch {
    batch = List.copyOf(batch);
  }

  public byte[] encode() {
    ByteWriter w = new ByteWriter().i32(signer).i64(high).bytes(highDigest).bytes(certificate).i32(batch.size());
    batch.forEach(w::bytes);
    return w.bytes(signature).toBytes();
  }

  /** What the signature covers: (high, digest, D(batch)). */
  public byte[] signed() {
    return signed(high, highDigest, batch);
  }

  public static byte[] signed(long high, byte[] highDigest, List<byte[]> batch) {
    ByteWriter b = new ByteWriter().i32(batch.size());
    batch.forEach(b::bytes);
    return new ByteWriter(80).i64(high).raw(highDigest).raw(Digests.sha256(b.toBytes())).toBytes();
  }

  /** A SWITCH of a group of {@code n} with at most {@code maxBatch} requests. */
  public static LaneSwitch decode(byte[] bytes, int n, int maxBatch) {
    ByteReader r = new ByteReader(bytes);
    int signer = r.i32();
    long high = r.i64();
    byte[] digest = r.bytes();
    byte[] certificate = r.bytes();
    if (signer < 0 || signer >= n || high < 0 || digest.length != Digests.LENGTH) {
      throw new DecodeException("switch of signer " + signer + " at " + high);
    }
    int count = r.count(maxBatch);
    List<byte[]> batch = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      batch.add(r.bytes());
    }
    byte[] signature = r.bytes();
    r.end();
    return new LaneSwitch(signer, high, digest, certificate, batch, signature);
  }
}
