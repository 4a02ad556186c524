package org.bftws.core.message;

import java.util.Arrays;
import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;
import org.bftws.core.codec.DecodeException;
import org.bftws.core.crypto.Verifier;

/**
 * What a replica sends a client: the signed {@link ReplyCertificate} of the batch, the index of the
 * client's entry in it, and the result and random number that entry's digest covers. Authentic when the
 * certificate is a replica's signed REPLY and the digest matches; the Voter then compares (result,
 * random) across replicas (BFT-WS §3.3.1.5).
 */
public final class ReplyBundle {
  private final Signed certificate;
  private final int index;
  private final byte[] result;
  private final byte[] random;
  private final ReplyCertificate.Entry entry;

  private ReplyBundle(Signed certificate, int index, byte[] result, byte[] random) {
    this.certificate = certificate;
    this.index = index;
    this.result = result;
    this.random = random;
    if (certificate.kind() != Kind.REPLY && certificate.kind() != Kind.READ_ONLY_REPLY) {
      throw new DecodeException("reply bundle without a reply certificate");
    }
    ReplyCertificate cert = ReplyCertificate.decode(certificate.body());
    if (index < 0 || index >= cert.entries().size()) {
      throw new DecodeException("reply bundle index " + index + " outside its certificate");
    }
    this.entry = cert.entries().get(index);
  }

  public static ReplyBundle of(Signed certificate, int index, byte[] result, byte[] random) {
    return new ReplyBundle(certificate, index, result, random);
  }

  public byte[] encode() {
    byte[] c = certificate.encode();
    return new ByteWriter(c.length + result.length + random.length + 16).raw(c).i32(index).bytes(result)
        .bytes(random).toBytes();
  }

  public static ReplyBundle decode(byte[] bytes) {
    ByteReader r = new ByteReader(bytes);
    Signed cert = Signed.read(r);
    ReplyBundle b = new ReplyBundle(cert, r.i32(), r.bytes(), r.bytes());
    r.end();
    return b;
  }

  /** The replica's signature on the certificate holds and its entry covers this result and random. */
  public boolean verify(Verifier verifier) {
    return Arrays.equals(entry.resultDigest(), ReplyCertificate.resultDigest(result, random)) && certificate.verify(verifier);
  }

  /** The reply answers a read-only request (Castro-Liskov §5.1.3): executed without ordering. */
  public boolean readOnly() {
    return certificate.kind() == Kind.READ_ONLY_REPLY;
  }

  public int sender() {
    return certificate.sender();
  }

  public String sequenceId() {
    return entry.sequenceId();
  }

  public long messageNumber() {
    return entry.messageNumber();
  }

  public byte[] result() {
    return result.clone();
  }

  public byte[] random() {
    return random.clone();
  }

  public Signed certificate() {
    return certificate;
  }
}
