package org.bftws.core.message;

import java.util.ArrayList;
import java.util.List;
import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;

/**
 * ⟨VIEW-CHANGE, v+1, n, C, P, i⟩ (Castro-Liskov §4.4): n is the sender's stable checkpoint, C its 2f+1
 * checkpoint messages, P a prepared certificate for every sequence number above n it prepared.
 */
public record ViewChange(long newView, long stableSeq, byte[] stableDigest, List<Signed> checkpointProof,
    List<PreparedCertificate> prepared) {
  public byte[] encode() {
    ByteWriter w = new ByteWriter(512).i64(newView).i64(stableSeq).raw(stableDigest);
    Codec.writeList(w, checkpointProof);
    w.i32(prepared.size());
    for (PreparedCertificate c : prepared) {
      c.write(w);
    }
    return w.toBytes();
  }

  public static ViewChange decode(byte[] body) {
    ByteReader r = new ByteReader(body);
    long v = r.i64();
    long n = r.i64();
    byte[] d = Codec.readDigest(r);
    List<Signed> proof = Codec.readList(r, Kind.CHECKPOINT);
    int count = r.count(Codec.MAX_LIST);
    List<PreparedCertificate> certs = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      certs.add(PreparedCertificate.read(r));
    }
    r.end();
    return new ViewChange(v, n, d, proof, List.copyOf(certs));
  }
}
