package org.bftws.core.async;

import java.util.Map;
import java.util.TreeMap;
import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;
import org.bftws.core.codec.DecodeException;

/**
 * SINTRA §2.1's multi-signature: the certificate is a vector of {@link #quorum()} Ed25519 signatures from
 * distinct parties (Reiter's original echo broadcast), made and checked with the replicas' envelope keys
 * through {@link Context#sign} and {@link Context#verify}. No dealer and cheap to make; the certificate
 * grows with the quorum and costs that many verifications, which suits a proof checked a few times.
 *
 * <p>Canonical encoding: {@code u32(count) || (u32(party) || bytes(signature))*} with exactly {@link
 * #quorum()} entries in strictly increasing party order, so one set of signatures has one encoding.
 */
public final class MultiSignature implements QuorumSignatures {
  private final Context ctx;
  private final int quorum;

  /** The multi-signature of {@code ctx}'s group with consistent broadcast's quorum, ⌈(n+f+1)/2⌉. */
  public MultiSignature(Context ctx) {
    this(ctx, QuorumSignatures.echoQuorum(ctx.n(), ctx.f()));
  }

  /** The multi-signature of {@code ctx}'s group with another quorum (e.g. n−f or f+1 for justified votes). */
  public MultiSignature(Context ctx, int quorum) {
    if (quorum < 1 || quorum > ctx.n()) {
      throw new IllegalArgumentException("quorum " + quorum + " outside 1.." + ctx.n());
    }
    this.ctx = ctx;
    this.quorum = quorum;
  }

  @Override
  public int quorum() {
    return quorum;
  }

  @Override
  public byte[] share(byte[] message) {
    return ctx.sign(message);
  }

  @Override
  public boolean verifyShare(int party, byte[] message, byte[] share) {
    return party >= 0 && party < ctx.n() && ctx.verify(party, message, share);
  }

  @Override
  public byte[] combine(byte[] message, Map<Integer, byte[]> shares) {
    if (shares.size() < quorum) {
      throw new IllegalArgumentException(shares.size() + " shares, need " + quorum);
    }
    ByteWriter w = new ByteWriter().i32(quorum);
    new TreeMap<>(shares).entrySet().stream().limit(quorum)
        .forEach(e -> w.i32(e.getKey()).bytes(e.getValue()));
    return w.toBytes();
  }

  @Override
  public boolean verify(byte[] message, byte[] certificate) {
    try {
      ByteReader r = new ByteReader(certificate);
      if (r.i32() != quorum) {
        return false;
      }
      int last = -1;
      for (int i = 0; i < quorum; i++) {
        int party = r.i32();
        byte[] sig = r.bytes();
        if (party <= last || !verifyShare(party, message, sig)) {
          return false;
        }
        last = party;
      }
      r.end();
      return true;
    } catch (DecodeException e) {
      return false;
    }
  }
}
