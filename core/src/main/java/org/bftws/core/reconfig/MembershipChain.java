package org.bftws.core.reconfig;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.bftws.core.crypto.Signer;

/**
 * The memberships a replica or client knows, from a trusted one onwards (docs/design/reconfiguration.md, "The
 * membership certificate"): the root (the membership of the holder's own configuration, or where an operator
 * started it) and one link per later epoch, each the next membership with the valid signatures of members of
 * the epoch before that the holder collected. A link is <em>complete</em> once a quorum of the epoch before
 * signed it ({@link MembershipCertificate#verify}).
 *
 * <p>A link is known in one of two ways. Verified: a complete certificate that follows the newest known
 * membership ({@link #offer}), as Diem's epoch-change proof is followed from a waypoint; this is all a client
 * or a replica many epochs behind trusts. Derived: a replica executed the reconfiguration itself, so the
 * ordered history gives it the next membership ({@link #expect}), and it signs it and collects the others'
 * signatures. Signatures are kept only when valid under the epoch before, so a Byzantine sender adds nothing.
 */
public final class MembershipChain {
  /** Index 0 is the root; index k is epoch root + k. */
  private final List<Membership> memberships = new ArrayList<>();
  /** Per link (index k ≥ 1, at k − 1), the valid signatures by index in the epoch before. */
  private final List<TreeMap<Integer, byte[]>> signatures = new ArrayList<>();

  public MembershipChain(Membership root) {
    memberships.add(root);
  }

  /**
   * The chain {@code links} leads to from {@code trusted}, every link complete.
   *
   * @throws ReconfigurationException naming the first link that does not verify
   */
  public static MembershipChain verified(Membership trusted, List<MembershipCertificate> links) {
    MembershipChain chain = new MembershipChain(trusted);
    for (MembershipCertificate c : links) {
      c.verify(chain.newest());
      chain.append(c.next(), c.signatures());
    }
    return chain;
  }

  /** A copy (what an operator hands a joining replica). */
  public MembershipChain copy() {
    MembershipChain c = new MembershipChain(root());
    for (int k = 1; k < memberships.size(); k++) {
      c.memberships.add(memberships.get(k));
      c.signatures.add(new TreeMap<>(signatures.get(k - 1)));
    }
    return c;
  }

  public Membership root() {
    return memberships.get(0);
  }

  public Membership newest() {
    return memberships.get(memberships.size() - 1);
  }

  /** The membership of {@code epoch}, or null when it lies outside the chain. */
  public Membership at(long epoch) {
    long k = epoch - root().epoch();
    return k < 0 || k >= memberships.size() ? null : memberships.get((int) k);
  }

  /** Whether a quorum of the epoch before signed the link into {@code epoch} (false for the root and outside). */
  public boolean complete(long epoch) {
    long k = epoch - root().epoch();
    return k >= 1 && k < memberships.size()
        && signatures.get((int) k - 1).size() >= memberships.get((int) k - 1).quorum();
  }

  /** The certificate of {@code epoch} as collected so far (null for the root and outside the chain). */
  public MembershipCertificate link(long epoch) {
    long k = epoch - root().epoch();
    return k < 1 || k >= memberships.size() ? null
        : new MembershipCertificate(memberships.get((int) k), signatures.get((int) k - 1));
  }

  /** The links into epochs {@code from} and later, as collected so far. */
  public List<MembershipCertificate> linksFrom(long from) {
    List<MembershipCertificate> out = new ArrayList<>();
    for (long e = Math.max(from, root().epoch() + 1); e <= newest().epoch(); e++) {
      out.add(link(e));
    }
    return out;
  }

  /**
   * The next membership, derived by the holder from the ordered history: appended when it follows the newest
   * (true), or already the chain's (true); false when the chain holds another membership for that epoch.
   */
  public boolean expect(Membership next) {
    Membership known = at(next.epoch());
    if (known != null) {
      return known.equals(next);
    }
    if (next.epoch() != newest().epoch() + 1) {
      return false;
    }
    append(next, Map.of());
    return true;
  }

  /** Signs the link into {@code epoch} as the member with key {@code key} at {@code index} of the epoch before. */
  public void sign(long epoch, int index, Signer key) {
    Membership next = at(epoch);
    if (next == null || epoch == root().epoch()) {
      throw new IllegalArgumentException("no link into epoch " + epoch + " in " + this);
    }
    merge(next, Map.of(index, MembershipCertificate.sign(next, key)));
  }

  /**
   * A certificate from a peer, perhaps partial: its valid signatures are added to a link the chain holds for the
   * same membership; a complete one that follows the newest membership extends the chain. Anything else (a link
   * for another membership, one that does not verify, a gap) changes nothing. True when something was added.
   */
  public boolean offer(MembershipCertificate c) {
    Membership next = c.next();
    Membership known = at(next.epoch());
    if (known != null) {
      return next.epoch() != root().epoch() && known.equals(next) && merge(next, c.signatures());
    }
    if (next.epoch() != newest().epoch() + 1) {
      return false;
    }
    try {
      c.verify(newest());
    } catch (ReconfigurationException e) {
      return false;
    }
    append(next, Map.of());
    merge(next, c.signatures());
    return true;
  }

  private void append(Membership next, Map<Integer, byte[]> sigs) {
    memberships.add(next);
    signatures.add(new TreeMap<>());
    merge(next, sigs);
  }

  private boolean merge(Membership next, Map<Integer, byte[]> sigs) {
    int k = (int) (next.epoch() - root().epoch());
    Membership previous = memberships.get(k - 1);
    TreeMap<Integer, byte[]> held = signatures.get(k - 1);
    byte[] digest = next.digest();
    boolean added = false;
    for (Map.Entry<Integer, byte[]> e : sigs.entrySet()) {
      int i = e.getKey();
      if (i >= 0 && i < previous.n() && !held.containsKey(i)
          && EpochSigning.verify(previous.member(i).publicKey(), digest, e.getValue())) {
        held.put(i, e.getValue().clone());
        added = true;
      }
    }
    return added;
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("chain from epoch ").append(root().epoch()).append(" to ")
        .append(newest().epoch());
    for (int k = 1; k < memberships.size(); k++) {
      sb.append(k == 1 ? " (signatures: " : ", ").append(signatures.get(k - 1).size());
    }
    return sb.append(memberships.size() > 1 ? ")" : "").toString();
  }
}
