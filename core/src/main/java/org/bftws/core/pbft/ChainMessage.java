package org.bftws.core.pbft;

import java.util.ArrayList;
import java.util.List;
import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;
import org.bftws.core.codec.DecodeException;
import org.bftws.core.crypto.Signer;
import org.bftws.core.message.Kind;
import org.bftws.core.message.Signed;
import org.bftws.core.reconfig.EpochSigning;
import org.bftws.core.reconfig.Membership;
import org.bftws.core.reconfig.MembershipCertificate;
import org.bftws.core.reconfig.MembershipChain;

/**
 * What replicas of an {@link EpochReplica} exchange about the membership chain (docs/design/reconfiguration.md,
 * "A member many epochs behind"): the sender's stable id and epoch, links of its {@code MembershipChain}
 * (consecutive, the last perhaps partial) and, from a member of a later epoch to one far behind, where its epoch
 * began (the checkpoint seq, digest and the previous epoch's proof; the previous membership is the chain's).
 * It travels as a {@link Kind#MEMBERSHIP_CHAIN} envelope, signed under the sender's stable id and epoch. Its
 * content needs no trust in the sender (each link and the proof verify on their own); the signature is what lets
 * a receiver answer the sender it names ({@link #authentic}), so that no one makes a replica send its chain to a
 * third party.
 */
record ChainMessage(int sender, long epoch, List<MembershipCertificate> links, long startSeq, byte[] startDigest,
    List<Signed> startProof) {
  /** Most links in one message: far more epochs than a group goes through between two answers. */
  static final int MAX_LINKS = 4096;

  static ChainMessage of(int sender, long epoch, List<MembershipCertificate> links, EpochReplica.Start start) {
    return start == null ? new ChainMessage(sender, epoch, links, -1, null, List.of())
        : new ChainMessage(sender, epoch, links, start.seq(), start.digest(), start.proof());
  }

  static boolean is(byte[] bytes) {
    return Signed.startsAs(bytes, Kind.MEMBERSHIP_CHAIN);
  }

  boolean hasStart() {
    return startDigest != null;
  }

  /** Where the sender's epoch began, with {@code previous} (the chain's membership of the epoch before). */
  EpochReplica.Start start(Membership previous) {
    return new EpochReplica.Start(previous, startSeq, startDigest, startProof);
  }

  /** The envelope's bytes, signed with {@code key} under this message's epoch. */
  byte[] encode(Signer key) {
    return Signed.sign(Kind.MEMBERSHIP_CHAIN, sender, body(), EpochSigning.signer(epoch, key)).encode();
  }

  /**
   * True when the sender it names signed it as a member of the epoch it claims, per {@code chain}'s membership of
   * that epoch (false when the chain does not hold that epoch).
   */
  boolean authentic(Signed envelope, MembershipChain chain) {
    Membership m = chain.at(epoch);
    return m != null && envelope.verify(EpochSigning.byStableId(m));
  }

  private byte[] body() {
    ByteWriter w = new ByteWriter(256).i64(epoch).i32(links.size());
    for (MembershipCertificate c : links) {
      w.bytes(c.encode());
    }
    w.bool(hasStart());
    if (hasStart()) {
      w.i64(startSeq).bytes(startDigest).i32(startProof.size());
      for (Signed s : startProof) {
        w.bytes(s.encode());
      }
    }
    return w.toBytes();
  }

  /** Decodes one from its envelope; {@link DecodeException} for one that is not (nothing in it verified yet). */
  static ChainMessage decode(Signed envelope) {
    if (envelope.kind() != Kind.MEMBERSHIP_CHAIN) {
      throw new DecodeException("not a chain message");
    }
    int sender = envelope.sender();
    ByteReader r = new ByteReader(envelope.body());
    long epoch = r.i64();
    int count = r.count(MAX_LINKS);
    List<MembershipCertificate> links = new ArrayList<>(count);
    for (int k = 0; k < count; k++) {
      links.add(MembershipCertificate.decode(r.bytes()));
    }
    if (!r.bool()) {
      r.end();
      return new ChainMessage(sender, epoch, links, -1, null, List.of());
    }
    long seq = r.i64();
    byte[] digest = r.bytes();
    int votes = r.count(Membership.MAX_REPLICAS);
    List<Signed> proof = new ArrayList<>(votes);
    for (int k = 0; k < votes; k++) {
      proof.add(Signed.decode(r.bytes()));
    }
    r.end();
    return new ChainMessage(sender, epoch, links, seq, digest, proof);
  }
}
