package org.bftws.core.pbft;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.bftws.core.config.GroupConfig;
import org.bftws.core.crypto.Verifier;
import org.bftws.core.message.OrderedBatch;
import org.bftws.core.message.Signed;
import org.bftws.core.message.Vote;

/**
 * Agreement certificates of configuration III (BFT-WS §3.3.3; Yin et al. SOSP'03 §3.1): a committed batch
 * with the signed COMMITs of 2f+1 distinct agreement replicas for (view, seq, D(batch)). Committed-local at
 * one correct replica is exactly such a set (Castro-Liskov §4.2), and two of them for one seq hold the same
 * batch (§4.6, safety), so an execution node that checks the certificate needs to trust no single
 * agreement replica.
 */
final class AgreementCertificate {
  private AgreementCertificate() {}

  /**
   * The certificate of what committed at {@code slot}'s seq in its view: 2f+1 of its commits on the
   * pre-prepare's digest. Their signatures were verified on receipt (in configuration III also with
   * authenticators: {@link VoteAuthentication}), so a slot committed in its view always has one.
   */
  static OrderedBatch of(GroupConfig cfg, Slot slot) {
    byte[] d = slot.prePrepare.digest();
    List<Signed> proof = new ArrayList<>();
    for (Map.Entry<Integer, Signed> e : slot.commits.entrySet()) {
      if (proof.size() < cfg.quorum() && Arrays.equals(slot.commitDigests.get(e.getKey()), d)) {
        proof.add(e.getValue());
      }
    }
    if (proof.size() < cfg.quorum()) {
      throw new IllegalStateException("seq " + slot.seq + " committed with fewer than 2f+1 matching commits");
    }
    proof.sort((a, b) -> Integer.compare(a.sender(), b.sender()));
    return new OrderedBatch(slot.seq, slot.view, slot.prePrepare.requests(), proof);
  }

  /** Null when {@code b}'s certificate proves that its batch committed at its seq; else what is wrong. */
  static String invalid(GroupConfig cfg, Verifier verifier, OrderedBatch b) {
    if (b.commits().size() < cfg.quorum() || b.commits().size() > cfg.n()) {
      return b.commits().size() + " commits in an agreement certificate, not 2f+1 to n";
    }
    byte[] d = b.digest();
    Set<Integer> senders = new HashSet<>();
    for (Signed c : b.commits()) {
      if (c.sender() < 0 || c.sender() >= cfg.n() || !senders.add(c.sender())) {
        return "a commit from " + c.sender() + ", not one of distinct agreement replicas";
      }
      Vote v = Vote.decode(c.body());
      if (v.view() != b.view() || v.seq() != b.seq() || !Arrays.equals(v.digest(), d)) {
        return "a commit on another view, sequence number or batch than the certificate's";
      }
      if (!c.verify(verifier)) {
        return "a commit whose signature fails";
      }
    }
    return null;
  }
}
