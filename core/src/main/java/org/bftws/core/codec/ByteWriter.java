package org.bftws.core.codec;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Canonical binary encoder. Big-endian fixed-width integers, length-prefixed byte strings: one message
 * has exactly one encoding, so digests and signatures over it are well defined (docs/design/architecture.md, "The
 * core's contract"). Never Java serialization.
 */
public final class ByteWriter {
  private byte[] buf;
  private int len;

  public ByteWriter() {
    this(128);
  }

  public ByteWriter(int capacity) {
    buf = new byte[Math.max(16, capacity)];
  }

  private void ensure(int extra) {
    if (len + extra > buf.length) {
      buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + extra));
    }
  }

  public ByteWriter u8(int v) {
    ensure(1);
    buf[len++] = (byte) v;
    return this;
  }

  public ByteWriter bool(boolean v) {
    return u8(v ? 1 : 0);
  }

  public ByteWriter i32(int v) {
    ensure(4);
    for (int s = 24; s >= 0; s -= 8) {
      buf[len++] = (byte) (v >>> s);
    }
    return this;
  }

  public ByteWriter i64(long v) {
    ensure(8);
    for (int s = 56; s >= 0; s -= 8) {
      buf[len++] = (byte) (v >>> s);
    }
    return this;
  }

  /** Length-prefixed bytes. */
  public ByteWriter bytes(byte[] v) {
    i32(v.length);
    return raw(v);
  }

  /** Bytes without a prefix (fixed-size fields such as digests, or an already framed encoding). */
  public ByteWriter raw(byte[] v) {
    ensure(v.length);
    System.arraycopy(v, 0, buf, len, v.length);
    len += v.length;
    return this;
  }

  public ByteWriter str(String v) {
    return bytes(v.getBytes(StandardCharsets.UTF_8));
  }

  public byte[] toBytes() {
    return Arrays.copyOf(buf, len);
  }
}
