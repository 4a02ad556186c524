package org.bftws.core.crypto.threshold;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.util.Arrays;

/**
 * The canonical binary encoding used for keys, shares and group values: big-endian fixed-width integers and
 * byte strings prefixed by a 32-bit length. Decoding is strict (bounded lengths, no trailing bytes) because
 * shares arrive from possibly Byzantine replicas; never Java serialization (docs/design/style.md).
 */
public final class Codec {
  /** Longest byte string accepted when decoding (large enough for a 16384-bit RSA element). */
  public static final int MAX_FIELD = 1 << 16;

  private Codec() {}

  /** Appends fields to a growing buffer. */
  public static final class Writer {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    public Writer u8(int v) {
      out.write(v);
      return this;
    }

    public Writer u16(int v) {
      if (v < 0 || v > 0xFFFF) {
        throw new IllegalArgumentException("u16 out of range: " + v);
      }
      out.write(v >>> 8);
      out.write(v);
      return this;
    }

    public Writer u32(int v) {
      out.write(v >>> 24);
      out.write(v >>> 16);
      out.write(v >>> 8);
      out.write(v);
      return this;
    }

    public Writer bytes(byte[] b) {
      u32(b.length);
      out.writeBytes(b);
      return this;
    }

    /** A non-negative integer as its minimal big-endian magnitude (zero is the empty string). */
    public Writer natural(BigInteger v) {
      return bytes(toMagnitude(v));
    }

    public byte[] toByteArray() {
      return out.toByteArray();
    }
  }

  /** Reads fields in order; every failure is an {@link IllegalArgumentException}. */
  public static final class Reader {
    private final byte[] in;
    private int pos;

    public Reader(byte[] in) {
      this.in = in;
    }

    public int u8() {
      need(1);
      return in[pos++] & 0xFF;
    }

    public int u16() {
      need(2);
      int v = ((in[pos] & 0xFF) << 8) | (in[pos + 1] & 0xFF);
      pos += 2;
      return v;
    }

    public int u32() {
      need(4);
      int v = 0;
      for (int i = 0; i < 4; i++) {
        v = (v << 8) | (in[pos++] & 0xFF);
      }
      return v;
    }

    public byte[] bytes() {
      int len = u32();
      if (len < 0 || len > MAX_FIELD) {
        throw new IllegalArgumentException("field length " + len + " out of range");
      }
      need(len);
      byte[] b = Arrays.copyOfRange(in, pos, pos + len);
      pos += len;
      return b;
    }

    /** A natural number written by {@link Writer#natural}; rejects leading zero bytes (non-canonical). */
    public BigInteger natural() {
      byte[] b = bytes();
      if (b.length > 0 && b[0] == 0) {
        throw new IllegalArgumentException("non-canonical integer (leading zero byte)");
      }
      return new BigInteger(1, b);
    }

    /** Everything not read yet (a last field of unbounded length, such as a ciphertext's payload). */
    public byte[] rest() {
      byte[] b = Arrays.copyOfRange(in, pos, in.length);
      pos = in.length;
      return b;
    }

    /** Fails unless every byte was read: trailing bytes would make two encodings of one value. */
    public void end() {
      if (pos != in.length) {
        throw new IllegalArgumentException((in.length - pos) + " trailing bytes");
      }
    }

    private void need(int n) {
      if (n > in.length - pos) {
        throw new IllegalArgumentException("truncated encoding");
      }
    }
  }

  /** Minimal big-endian magnitude of a non-negative integer. */
  public static byte[] toMagnitude(BigInteger v) {
    if (v.signum() < 0) {
      throw new IllegalArgumentException("negative integer");
    }
    if (v.signum() == 0) {
      return new byte[0];
    }
    byte[] b = v.toByteArray();
    return b[0] == 0 ? Arrays.copyOfRange(b, 1, b.length) : b;
  }

  /** Big-endian encoding of a non-negative integer in exactly {@code len} bytes. */
  public static byte[] toFixed(BigInteger v, int len) {
    byte[] m = toMagnitude(v);
    if (m.length > len) {
      throw new IllegalArgumentException("integer does not fit in " + len + " bytes");
    }
    byte[] out = new byte[len];
    System.arraycopy(m, 0, out, len - m.length, m.length);
    return out;
  }
}
