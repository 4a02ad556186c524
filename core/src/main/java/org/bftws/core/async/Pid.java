package org.bftws.core.async;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.bftws.core.codec.ByteWriter;
import org.bftws.core.codec.DecodeException;

/**
 * A protocol identifier (SINTRA §2: "every protocol instance is identified by a protocol identifier, which
 * must be included in all cryptographic operations of the instance"; §3's {@code String pid}). It is
 * hierarchical: a child instance's id extends its parent's, e.g. {@code "abc/7/mvba/cb/2"} for the
 * consistent broadcast of party 2 in the multi-valued agreement of round 7 of channel {@code abc}.
 *
 * <p>Canonical: segments are non-empty strings of {@code [A-Za-z0-9._-]} joined by {@code '/'}, at most
 * {@link #MAX_BYTES} bytes in all, so one id has exactly one encoding. Every envelope of the instance
 * carries it inside the signed body ({@link AsyncMessage}); every threshold share or coin of the instance
 * signs {@link #bind} of it, so a share from one instance never verifies in another.
 */
public final class Pid {
  /** The longest canonical id; deeper nesting than any protocol of SINTRA §2 needs fits easily. */
  public static final int MAX_BYTES = 256;
  private static final byte[] DOMAIN = "BFT-WS/1 async instance".getBytes(StandardCharsets.US_ASCII);

  private final String text;

  private Pid(String text) {
    this.text = text;
  }

  /** A top-level instance, e.g. the channel {@code "abc"}. */
  public static Pid root(String segment) {
    return of(check(segment));
  }

  /** The child instance {@code this/segment}. */
  public Pid child(String segment) {
    return of(text + "/" + check(segment));
  }

  /** The child instance {@code this/number} (a round, a party index). */
  public Pid child(long number) {
    return child(Long.toString(number));
  }

  /** The parent instance, or null for a root. */
  public Pid parent() {
    int slash = text.lastIndexOf('/');
    return slash < 0 ? null : new Pid(text.substring(0, slash));
  }

  /** The segments, root first. */
  public List<String> segments() {
    return List.of(text.split("/"));
  }

  /** The canonical bytes (US-ASCII of the text form). */
  public byte[] bytes() {
    return text.getBytes(StandardCharsets.US_ASCII);
  }

  /** Parses canonical bytes from the wire. */
  public static Pid decode(byte[] bytes) {
    if (bytes.length == 0 || bytes.length > MAX_BYTES) {
      throw new DecodeException("protocol id of " + bytes.length + " bytes");
    }
    List<String> segs = new ArrayList<>();
    int start = 0;
    for (int i = 0; i <= bytes.length; i++) {
      if (i == bytes.length || bytes[i] == '/') {
        if (i == start) {
          throw new DecodeException("empty protocol id segment");
        }
        segs.add(new String(bytes, start, i - start, StandardCharsets.US_ASCII));
        start = i + 1;
      } else if (!allowed(bytes[i])) {
        throw new DecodeException("protocol id byte " + (bytes[i] & 0xff));
      }
    }
    return new Pid(String.join("/", segs));
  }

  /**
   * The bytes a threshold share, threshold signature or coin of this instance signs: a domain tag, this
   * id, the purpose (e.g. {@code "coin/3"} for ABBA's round-3 coin) and the data. SINTRA §2: the id must be
   * included in every cryptographic operation of the instance.
   */
  public byte[] bind(String purpose, byte[] data) {
    return new ByteWriter(DOMAIN.length + MAX_BYTES + data.length + 16)
        .raw(DOMAIN).bytes(bytes()).str(purpose).bytes(data).toBytes();
  }

  private static Pid of(String text) {
    if (text.length() > MAX_BYTES) {
      throw new IllegalArgumentException("protocol id longer than " + MAX_BYTES + ": " + text);
    }
    return new Pid(text);
  }

  private static String check(String segment) {
    if (segment.isEmpty()) {
      throw new IllegalArgumentException("empty protocol id segment");
    }
    for (int i = 0; i < segment.length(); i++) {
      char c = segment.charAt(i);
      if (c > 127 || !allowed((byte) c)) {
        throw new IllegalArgumentException("protocol id segment " + segment + " has '" + c + "'");
      }
    }
    return segment;
  }

  private static boolean allowed(byte b) {
    return (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9')
        || b == '.' || b == '_' || b == '-';
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Pid p && p.text.equals(text);
  }

  @Override
  public int hashCode() {
    return text.hashCode();
  }

  @Override
  public String toString() {
    return text;
  }
}
