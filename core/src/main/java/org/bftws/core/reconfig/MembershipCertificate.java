package org.bftws.core.reconfig;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;
import org.bftws.core.codec.DecodeException;
import org.bftws.core.crypto.Signer;

/**
 * Epoch e+1's membership signed by a quorum of epoch e's members (docs/design/reconfiguration.md, "The
 * membership certificate"): Ed25519 signatures over {@link Membership#digest}, keyed by the signer's index in
 * epoch e. A quorum of epoch e holds f_e+1 correct members, each of which signs only the membership its
 * execution of the ordered history produced, so the certified membership is the one every correct replica
 * moved to. A client or a joining replica verifies a chain of them from the membership in its own
 * configuration ({@link #follow}), as Diem's epoch-change proof chains ledger infos from a waypoint.
 */
public final class MembershipCertificate {
  private final Membership next;
  private final Map<Integer, byte[]> signatures;

  public MembershipCertificate(Membership next, Map<Integer, byte[]> signatures) {
    this.next = next;
    TreeMap<Integer, byte[]> copy = new TreeMap<>();
    signatures.forEach((i, s) -> copy.put(i, s.clone()));
    this.signatures = copy;
  }

  /** A member's signature on {@code next}, with its own key (the member at that index of the epoch before). */
  public static byte[] sign(Membership next, Signer key) {
    return key.sign(next.digest());
  }

  public Membership next() {
    return next;
  }

  public Map<Integer, byte[]> signatures() {
    TreeMap<Integer, byte[]> copy = new TreeMap<>();
    signatures.forEach((i, s) -> copy.put(i, s.clone()));
    return copy;
  }

  /**
   * Checks this certificate against the epoch before it: the next epoch number, and a quorum of {@code
   * previous}'s members with valid signatures.
   *
   * @throws ReconfigurationException saying what is wrong
   */
  public void verify(Membership previous) {
    if (next.epoch() != previous.epoch() + 1) {
      throw new ReconfigurationException("a certificate of epoch " + next.epoch() + " does not follow epoch "
          + previous.epoch());
    }
    byte[] digest = next.digest();
    int valid = 0;
    for (Map.Entry<Integer, byte[]> e : signatures.entrySet()) {
      int i = e.getKey();
      if (i >= 0 && i < previous.n() && EpochSigning.verify(previous.member(i).publicKey(), digest, e.getValue())) {
        valid++;
      }
    }
    if (valid < previous.quorum()) {
      throw new ReconfigurationException("epoch " + next.epoch() + " is signed by " + valid + " members of epoch "
          + previous.epoch() + ", a quorum is " + previous.quorum());
    }
  }

  /**
   * The membership a chain of certificates leads to from {@code trusted} (the one in the caller's own
   * configuration), each certificate verified against the one before.
   *
   * @throws ReconfigurationException naming the first link that does not verify
   */
  public static Membership follow(Membership trusted, List<MembershipCertificate> chain) {
    return MembershipChain.verified(trusted, chain).newest();
  }

  public byte[] encode() {
    ByteWriter w = new ByteWriter().bytes(next.encode()).i32(signatures.size());
    signatures.forEach((i, s) -> w.i32(i).bytes(s));
    return w.toBytes();
  }

  /** Decodes a certificate; {@link DecodeException} for bytes that are not one (not yet verified). */
  public static MembershipCertificate decode(byte[] bytes) {
    ByteReader r = new ByteReader(bytes);
    Membership next = Membership.decode(r.bytes());
    int count = r.count(Membership.MAX_REPLICAS);
    TreeMap<Integer, byte[]> sigs = new TreeMap<>();
    for (int k = 0; k < count; k++) {
      int i = r.i32();
      if (sigs.put(i, r.bytes()) != null) {
        throw new DecodeException("two signatures of index " + i);
      }
    }
    r.end();
    return new MembershipCertificate(next, sigs);
  }
}
