package org.bftws.core.pbft;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;
import org.bftws.core.codec.DecodeException;
import org.bftws.core.message.Signed;
import org.bftws.core.reconfig.Membership;
import org.bftws.core.reconfig.MembershipCertificate;

/**
 * What replicas of an {@link EpochReplica} exchange about the membership chain (docs/design/reconfiguration.md,
 * "A member many epochs behind"): the sender's stable id and epoch, links of its {@code MembershipChain}
 * (consecutive, the last perhaps partial) and, from a member of a later epoch to one far behind, where its epoch
 * began (the checkpoint seq, digest and the previous epoch's proof; the previous membership is the chain's).
 * Nothing in it is trusted for its sender: each link and the proof verify on their own, so it is not signed.
 * It travels outside the PBFT kinds, recognised by {@link #MAGIC}.
 */
record ChainMessage(int sender, long epoch, List<MembershipCertificate> links, long startSeq, byte[] startDigest,
    List<Signed> startProof) {
  static final byte[] MAGIC = "BFTWS-CHAIN/1".getBytes(StandardCharsets.US_ASCII);
  /** Most links in one message: far more epochs than a group goes through between two answers. */
  static final int MAX_LINKS = 4096;

  static ChainMessage of(int sender, long epoch, List<MembershipCertificate> links, EpochReplica.Start start) {
    return start == null ? new ChainMessage(sender, epoch, links, -1, null, List.of())
        : new ChainMessage(sender, epoch, links, start.seq(), start.digest(), start.proof());
  }

  static boolean is(byte[] bytes) {
    return bytes.length >= MAGIC.length && Arrays.equals(bytes, 0, MAGIC.length, MAGIC, 0, MAGIC.length);
  }

  boolean hasStart() {
    return startDigest != null;
  }

  /** Where the sender's epoch began, with {@code previous} (the chain's membership of the epoch before). */
  EpochReplica.Start start(Membership previous) {
    return new EpochReplica.Start(previous, startSeq, startDigest, startProof);
  }

  byte[] encode() {
    ByteWriter w = new ByteWriter(256).raw(MAGIC).i32(sender).i64(epoch).i32(links.size());
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

  /** Decodes one; {@link DecodeException} for bytes that are not one (nothing in it verified yet). */
  static ChainMessage decode(byte[] bytes) {
    if (!is(bytes)) {
      throw new DecodeException("not a chain message");
    }
    ByteReader r = new ByteReader(bytes);
    r.raw(MAGIC.length);
    int sender = r.i32();
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
