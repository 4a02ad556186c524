package org.bftws.core.message.hybrid;

import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;
import org.bftws.core.codec.DecodeException;

/**
 * How an epoch ended, between replicas that left it and one still in it. ASK (no value): a replica stalled in
 * {@code epoch} asks its peers how it ended; the attempt number makes each retry a new envelope, as
 * {@link LaneFetch}'s. END: the vector the epoch's fallback agreement decided (the agreement's value, an
 * encoded {@link FallbackVector}). Canonical: {@code i64(epoch) || i32(attempt) || bytes(value)}.
 */
public record EpochEnd(long epoch, int attempt, byte[] value) {
  /** ASK for {@code epoch}'s end. */
  public static EpochEnd ask(long epoch, int attempt) {
    return new EpochEnd(epoch, attempt, new byte[0]);
  }

  public byte[] encode() {
    return new ByteWriter(16 + value.length).i64(epoch).i32(attempt).bytes(value).toBytes();
  }

  public static EpochEnd decode(byte[] bytes) {
    ByteReader r = new ByteReader(bytes);
    EpochEnd e = new EpochEnd(r.i64(), r.i32(), r.bytes());
    r.end();
    if (e.epoch < 0) {
      throw new DecodeException("end of epoch " + e.epoch);
    }
    return e;
  }
}
