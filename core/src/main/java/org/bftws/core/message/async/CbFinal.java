package org.bftws.core.message.async;

import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;

/**
 * Consistent broadcast's FINAL (SINTRA §2.2, echo broadcast): the digest of the payload and the quorum
 * certificate on it that the sender combined from the parties' signature shares. Canonical: {@code
 * bytes(digest) || bytes(certificate)}.
 */
public record CbFinal(byte[] digest, byte[] certificate) {
  public byte[] encode() {
    return new ByteWriter(digest.length + certificate.length + 16).bytes(digest).bytes(certificate).toBytes();
  }

  public static CbFinal decode(byte[] body) {
    ByteReader r = new ByteReader(body);
    byte[] digest = r.bytes();
    byte[] certificate = r.bytes();
    r.end();
    return new CbFinal(digest, certificate);
  }
}
