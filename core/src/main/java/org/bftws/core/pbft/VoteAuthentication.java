package org.bftws.core.pbft;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import org.bftws.core.crypto.Authenticators;
import org.bftws.core.message.Kind;
import org.bftws.core.message.Signed;

/**
 * How a {@link Replica} authenticates the normal case's votes ({@code bftws.authentication}): by signatures,
 * or with authenticators (Castro-Liskov TOCS 2002 §3.2) — a prepare or commit is accepted by its MAC, a
 * prepare's signature is verified only when it goes into this replica's prepared certificate, a commit's
 * never (but in configuration III, where commits form agreement certificates). Certificates stay lists of signed messages, each verified before it is used (docs/design/
 * cryptography.md, "Authenticators", argues why the prepared certificate is the place).
 */
final class VoteAuthentication {
  private final Replica r;
  /** Null: signatures only. */
  private final Authenticators macs;

  VoteAuthentication(Replica r, Authenticators macs) {
    if (macs != null && macs.replicas() != r.n) {
      throw new IllegalArgumentException("authenticators for " + macs.replicas() + " replicas, the group has " + r.n);
    }
    this.r = r;
    this.macs = macs;
  }

  /**
   * By its MAC, for a prepare or commit with a valid authenticator entry (its signature is checked later,
   * if ever: {@link #preparedProof}); by its signature otherwise — so a message whose authenticator was
   * lost or damaged on the way still counts when its signature is good.
   */
  boolean authentic(Signed s) {
    if (macs != null && s.kind().macAuthenticated() && !certifiesCommits(s)
        && macs.check(s.sender(), s.digest(), s.authenticator())) {
      return true;
    }
    return s.verify(r.verifier);
  }

  /**
   * Configuration III: commits go into agreement certificates for the execution nodes ({@link
   * AgreementCertificate}), so they are accepted by their signatures only; a commit with a valid MAC and a
   * bad signature would otherwise count towards committed-local and leave a certificate short.
   */
  private boolean certifiesCommits(Signed s) {
    return s.kind() == Kind.COMMIT && !r.cfg.executionNodes().isEmpty();
  }

  /** Our own prepares and commits get an authenticator with MAC authentication; the rest go as they are. */
  byte[] wire(Signed msg) {
    if (macs == null || msg.sender() != r.id || !msg.kind().macAuthenticated()) {
      return msg.encode();
    }
    return Signed.wire(msg, macs.authenticator(msg.digest()));
  }

  /**
   * The prepares on d that go into the prepared certificate, by sender. With authenticators this is where
   * their signatures are verified (the certificate must convince others in a view change, §4.4), as few as
   * 2f need, our own first; a prepare with a valid MAC and a bad signature proves its sender faulty to us
   * (only it holds its key to us): it is dropped and named, and the slot waits for another prepare.
   */
  List<Signed> preparedProof(Slot slot, byte[] d) {
    List<Signed> proof = new ArrayList<>();
    if (Arrays.equals(slot.prepareDigests.get(r.id), d)) {
      proof.add(slot.prepares.get(r.id));
    }
    for (int j : new TreeSet<>(slot.prepares.keySet())) {
      if (j == r.id || !Arrays.equals(slot.prepareDigests.get(j), d)) {
        continue;
      }
      Signed p = slot.prepares.get(j);
      if (macs == null) {
        proof.add(p);
      } else if (proof.size() >= r.cfg.quorum() - 1) {
        break;
      } else if (p.verify(r.verifier)) {
        proof.add(p);
      } else {
        slot.prepares.remove(j);
        slot.prepareDigests.remove(j);
        r.evidence(j, "prepare with a valid authenticator and a bad signature");
      }
    }
    proof.sort((a, b) -> Integer.compare(a.sender(), b.sender()));
    return proof;
  }
}
