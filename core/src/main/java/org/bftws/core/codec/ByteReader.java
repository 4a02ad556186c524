package org.bftws.core.codec;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Decoder for {@link ByteWriter}'s encoding. Every read is bounds-checked and every length is capped, so
 * bytes from a Byzantine peer can only produce a {@link DecodeException}, never an exhausted heap.
 */
public final class ByteReader {
  /** No single field may exceed this (a state snapshot is the largest field we carry). */
  public static final int MAX_FIELD = 64 << 20;

  private final byte[] buf;
  private int pos;

  public ByteReader(byte[] buf) {
    this.buf = buf;
  }

  private void need(int n) {
    if (n < 0 || buf.length - pos < n) {
      throw new DecodeException("truncated: need " + n + " bytes at offset " + pos);
    }
  }

  public int u8() {
    need(1);
    return buf[pos++] & 0xff;
  }

  public boolean bool() {
    int v = u8();
    if (v > 1) {
      throw new DecodeException("boolean out of range: " + v);
    }
    return v == 1;
  }

  public int i32() {
    need(4);
    int v = 0;
    for (int i = 0; i < 4; i++) {
      v = (v << 8) | (buf[pos++] & 0xff);
    }
    return v;
  }

  public long i64() {
    need(8);
    long v = 0;
    for (int i = 0; i < 8; i++) {
      v = (v << 8) | (buf[pos++] & 0xff);
    }
    return v;
  }

  /** A non-negative count no larger than {@code max}. */
  public int count(int max) {
    int n = i32();
    if (n < 0 || n > max) {
      throw new DecodeException("count out of range: " + n + " (max " + max + ")");
    }
    return n;
  }

  public byte[] bytes() {
    int n = count(MAX_FIELD);
    return raw(n);
  }

  public byte[] raw(int n) {
    need(n);
    byte[] v = Arrays.copyOfRange(buf, pos, pos + n);
    pos += n;
    return v;
  }

  public String str() {
    return new String(bytes(), StandardCharsets.UTF_8);
  }

  public int remaining() {
    return buf.length - pos;
  }

  /** Whether every byte was read (for an optional trailing field). */
  public boolean atEnd() {
    return pos == buf.length;
  }

  /** Rejects trailing garbage: a canonical encoding has exactly one length. */
  public void end() {
    if (pos != buf.length) {
      throw new DecodeException("trailing bytes: " + (buf.length - pos));
    }
  }
}
