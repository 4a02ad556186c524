package org.bftws.core.message;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;
import org.bftws.core.crypto.Digests;
import org.bftws.core.crypto.Signer;
import org.bftws.core.crypto.Verifier;

/**
 * The envelope of every message on the wire: kind, sender, canonical body, and the sender's signature
 * over a domain tag, the kind, the sender and the body. Certificates (prepared, checkpoint, view-change)
 * are lists of these envelopes, so anyone can re-check them (Castro-Liskov §4.4 with signatures).
 *
 * <p>On the wire between replicas an envelope may be followed by an authenticator ({@link
 * org.bftws.core.crypto.Authenticators}, with {@code bftws.authentication=macs}): {@link #wire} writes it,
 * {@link #decode} reads it back. It is no part of {@link #encode}, so never of a digest or certificate.
 */
public final class Signed {
  private static final byte[] DOMAIN = "BFT-WS/1 signed message".getBytes(StandardCharsets.US_ASCII);

  private final Kind kind;
  private final int sender;
  private final byte[] body;
  private final byte[] signature;
  private byte[] encoded;
  /** The authenticator that came with it on the wire, or null. */
  private byte[] authenticator;

  private Signed(Kind kind, int sender, byte[] body, byte[] signature) {
    this.kind = kind;
    this.sender = sender;
    this.body = body;
    this.signature = signature;
  }

  public static Signed sign(Kind kind, int sender, byte[] body, Signer signer) {
    return new Signed(kind, sender, body, signer.sign(signedData(kind, sender, body)));
  }

  /** An envelope with an arbitrary signature: for Byzantine test nodes and decoding only. */
  public static Signed of(Kind kind, int sender, byte[] body, byte[] signature) {
    return new Signed(kind, sender, body, signature);
  }

  private static byte[] signedData(Kind kind, int sender, byte[] body) {
    return new ByteWriter(body.length + 48).raw(DOMAIN).u8(kind.code()).i32(sender).bytes(body).toBytes();
  }

  public boolean verify(Verifier verifier) {
    return verifier.verify(sender, signedData(kind, sender, body), signature);
  }

  public Kind kind() {
    return kind;
  }

  public int sender() {
    return sender;
  }

  public byte[] body() {
    return body;
  }

  public byte[] signature() {
    return signature;
  }

  public byte[] encode() {
    if (encoded == null) {
      encoded = new ByteWriter(body.length + signature.length + 16)
          .u8(kind.code()).i32(sender).bytes(body).bytes(signature).toBytes();
    }
    return encoded;
  }

  /**
   * Byte-identical to {@code other}: same kind, sender, body and signature. A replica may skip the signature
   * check of an envelope only when it is this to one it verified: an equal signature alone is not enough, for a
   * faulty relay can keep a request's id and signature and change its body.
   */
  public boolean sameAs(Signed other) {
    return other != null && kind == other.kind && sender == other.sender && Arrays.equals(body, other.body)
        && Arrays.equals(signature, other.signature);
  }

  public byte[] digest() {
    return Digests.sha256(encode());
  }

  /** The authenticator that followed this envelope on the wire; null if none did. */
  public byte[] authenticator() {
    return authenticator;
  }

  /** The envelope followed by an authenticator, as sent to replicas with MAC authentication. */
  public static byte[] wire(Signed s, byte[] authenticator) {
    byte[] e = s.encode();
    return new ByteWriter(e.length + authenticator.length + 8).raw(e).bytes(authenticator).toBytes();
  }

  /** An envelope, optionally followed by an authenticator ({@link #wire}). */
  public static Signed decode(byte[] bytes) {
    ByteReader r = new ByteReader(bytes);
    Signed s = read(r);
    if (r.atEnd()) {
      s.encoded = bytes;
      return s;
    }
    int end = bytes.length - r.remaining();
    s.authenticator = r.bytes();
    r.end();
    s.encoded = Arrays.copyOf(bytes, end);
    return s;
  }

  /** True when {@code bytes} start like an envelope of {@code kind} (its first byte), before any decoding. */
  public static boolean startsAs(byte[] bytes, Kind kind) {
    return bytes.length > 0 && (bytes[0] & 0xff) == kind.code();
  }

  static Signed read(ByteReader r) {
    Kind kind = Kind.of(r.u8());
    int sender = r.i32();
    byte[] body = r.bytes();
    byte[] sig = r.bytes();
    return new Signed(kind, sender, body, sig);
  }

  void write(ByteWriter w) {
    w.raw(encode());
  }
}
