package org.bftws.core.message;

import java.util.ArrayList;
import java.util.List;
import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;
import org.bftws.core.codec.DecodeException;

/**
 * ⟨PP-UPDATE, v, n, i, R_i, d⟩ of the BA algorithm (integrity paper §4), and its hardened variant's
 * commit-before-reveal messages; the envelope's sender is i. One message covers every randomized request
 * of the batch with digest d at n: {@code values} holds one 32-byte value per randomized request, in batch
 * order.
 *
 * <ul>
 *   <li>{@link Type#CONTRIBUTION}: R_i (plain BA). The primary's rides in its pre-prepare.
 *   <li>{@link Type#SET}: the primary's S_R: {@code set} holds 2f+1 contributors' own signed
 *       CONTRIBUTION (hardened: COMMITMENT) envelopes, so every backup checks each ⟨R_i, i⟩ against its
 *       contributor's signature; hardened certificates also carry the 2f+1 REVEALs in {@code reveals}.
 *   <li>{@link Type#COMMITMENT}: hardened, H(i, n, j, d, R_ij, nonce_i) per randomized request j.
 *   <li>{@link Type#REVEAL}: hardened, R_i and {@code nonce}, sent once the commitment set is fixed.
 * </ul>
 * The view is where the message was sent; contributions and reveals are bound to (n, d), not to the view,
 * so a certified set stays checkable after a view change.
 */
public record PpUpdate(Type type, long view, long seq, byte[] digest, List<byte[]> values, byte[] nonce,
    List<Signed> set, List<Signed> reveals) {
  /** Length of a contribution, commitment and combined random number. */
  public static final int VALUE_LENGTH = 32;

  public enum Type { CONTRIBUTION, SET, COMMITMENT, REVEAL }

  public static PpUpdate values(Type type, long view, long seq, byte[] digest, List<byte[]> values, byte[] nonce) {
    return new PpUpdate(type, view, seq, digest, List.copyOf(values), nonce, List.of(), List.of());
  }

  public static PpUpdate set(long view, long seq, byte[] digest, List<Signed> set, List<Signed> reveals) {
    return new PpUpdate(Type.SET, view, seq, digest, List.of(), new byte[0], List.copyOf(set), List.copyOf(reveals));
  }

  public byte[] encode() {
    ByteWriter w = new ByteWriter(128 + values.size() * VALUE_LENGTH).u8(type.ordinal()).i64(view).i64(seq).raw(digest);
    w.i32(values.size());
    for (byte[] v : values) {
      w.raw(v);
    }
    w.bytes(nonce);
    Codec.writeList(w, set);
    Codec.writeList(w, reveals);
    return w.toBytes();
  }

  public static PpUpdate decode(byte[] body) {
    ByteReader r = new ByteReader(body);
    int t = r.u8();
    if (t >= Type.values().length) {
      throw new DecodeException("unknown pp-update type " + t);
    }
    long v = r.i64();
    long n = r.i64();
    byte[] d = Codec.readDigest(r);
    int count = r.count(Codec.MAX_LIST);
    List<byte[]> values = new ArrayList<>(Math.min(count, 64));
    for (int i = 0; i < count; i++) {
      values.add(r.raw(VALUE_LENGTH));
    }
    byte[] nonce = r.bytes();
    if (nonce.length != 0 && nonce.length != VALUE_LENGTH) {
      throw new DecodeException("pp-update nonce of " + nonce.length + " bytes");
    }
    List<Signed> set = Codec.readList(r, Kind.PP_UPDATE);
    List<Signed> reveals = Codec.readList(r, Kind.PP_UPDATE);
    r.end();
    return new PpUpdate(Type.values()[t], v, n, d, List.copyOf(values), nonce, set, reveals);
  }
}
