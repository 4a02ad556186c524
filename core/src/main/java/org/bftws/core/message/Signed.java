package org.bftws.core.message;

import java.nio.charset.StandardCharsets;
import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;
import org.bftws.core.crypto.Digests;
import org.bftws.core.crypto.Signer;
import org.bftws.core.crypto.Verifier;

/**
 * The envelope of every message on the wire: kind, sender, canonical body, and the sender's signature
 * over a domain tag, the kind, the sender and the body. Certificates (prepared, checkpoint, view-change)
 * are lists of these envelopes, so anyone can re-check them (Castro-Liskov §4.4 with signatures).
 */
public final class Signed {
  private static final byte[] DOMAIN = "BFT-WS/1 signed message".getBytes(StandardCharsets.US_ASCII);

  private final Kind kind;
  private final int sender;
  private final byte[] body;
  private final byte[] signature;
  private byte[] encoded;

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

  public byte[] digest() {
    return Digests.sha256(encode());
  }

  public static Signed decode(byte[] bytes) {
    ByteReader r = new ByteReader(bytes);
    Signed s = read(r);
    r.end();
    s.encoded = bytes;
    return s;
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
