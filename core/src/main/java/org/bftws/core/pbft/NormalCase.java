package org.bftws.core.pbft;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.bftws.core.codec.DecodeException;
import org.bftws.core.config.GroupConfig;
import org.bftws.core.engine.Event;
import org.bftws.core.message.Kind;
import org.bftws.core.message.PrePrepare;
import org.bftws.core.message.PreparedCertificate;
import org.bftws.core.message.Request;
import org.bftws.core.message.RequestId;
import org.bftws.core.message.Signed;
import org.bftws.core.message.Vote;

/**
 * PBFT's normal-case operation (Castro-Liskov OSDI'99 §4.2): the primary assigns sequence numbers to batches
 * of pending requests in PRE-PREPAREs; a backup that accepts one multicasts its PREPARE; 2f matching prepares
 * make the request prepared and the replica multicasts its COMMIT; 2f+1 matching commits make it committed
 * locally, and the batch goes to {@link Execution}. With the BA algorithm (integrity paper §4) prepares and
 * commits are on d' = D(d || R) ({@link Replica#voteDigest}).
 *
 * <p>It owns the requests waiting to be ordered and, at the primary, what is already proposed in this view
 * and the next sequence number to assign; the view transitions ({@link ViewChanges}, {@link Recovery}) set
 * those through {@link #markProposed}, {@link #assignFrom} and {@link #assignAbove}.
 */
final class NormalCase {
  private final Replica r;
  /**
   * Authentic requests waiting to execute, in arrival order, each with the signed copies to order (one, or a
   * replicated client's p+1, BFT-WS §3.4); the view-change timer watches them.
   */
  private final LinkedHashMap<RequestId, List<Signed>> pending = new LinkedHashMap<>();
  /** Primary only: requests already placed in a pre-prepare of this view. */
  private final Set<RequestId> proposed = new HashSet<>();
  /** Primary only: the next sequence number to assign. */
  private long nextSeq = 1;

  NormalCase(Replica r) {
    this.r = r;
  }

  void onRequest(Signed s, Request q) {
    String refusal = r.requests.refusal(s, q);
    if (refusal == null) {
      refusal = r.decryptions.refusal(q);
    }
    if (refusal != null) {
      r.evidence(s.sender(), refusal);
      return;
    }
    if (r.requests.answeredFromCache(q, r.view, r.out)) {
      return;
    }
    if (!r.requests.admissible(q, pending.size())) {
      return; // bounded memory: the client retransmits once earlier requests have executed
    }
    List<Signed> copies = r.requests.filter(s, q);
    if (copies.isEmpty()) {
      return; // a replicated client's request with fewer than p+1 identical copies so far (§3.4)
    }
    pending.putIfAbsent(q.id(), copies);
    // The primary watches its own pending requests too: if it cannot get them committed (its backups
    // left the view, or its messages do not arrive) it asks for a new view like any backup would.
    r.startTimer();
    propose();
  }

  /**
   * The primary proposes batches, empty ones if nothing waits, up to this seq: the last seq of a membership epoch
   * that a reconfiguration ends there (docs/design/reconfiguration.md), which must be reached even when no
   * client sends anything more.
   */
  private long fillTo;

  void fillTo(long seq) {
    fillTo = Math.max(fillTo, seq);
  }

  long fillTo() {
    return fillTo;
  }

  /**
   * Primary: assign sequence numbers to batches of pending requests while the window allows (§5.1), and empty
   * batches up to {@link #fillTo}.
   */
  void propose() {
    if (!r.active || !r.isPrimary()) {
      return;
    }
    int maxBatch = r.cfg.get(GroupConfig.MAX_BATCH_SIZE);
    while (nextSeq <= r.epochEnd && nextSeq - 1 - r.lastExecuted < r.cfg.get(GroupConfig.MAX_OUTSTANDING_BATCHES) && r.inWindow(nextSeq)) {
      List<Signed> batch = new ArrayList<>();
      for (Map.Entry<RequestId, List<Signed>> e : pending.entrySet()) {
        if (batch.size() >= maxBatch) {
          break;
        }
        if (!proposed.contains(e.getKey()) && r.clients.isNew(e.getKey())) {
          batch.addAll(e.getValue());
        }
      }
      if (batch.isEmpty() && nextSeq > fillTo) {
        return;
      }
      PrePrepare pp = PrePrepare.of(r.view, nextSeq++, batch);
      Signed contribution = r.contributions.primaryContribution(pp);
      if (contribution != null) {
        pp = pp.withRandomness(contribution); // BA (integrity paper §4): R_p rides in the pre-prepare
      }
      markProposed(batch);
      Signed msg = r.sign(Kind.PRE_PREPARE, pp.encode());
      r.multicast(msg);
      acceptPrePrepare(msg, pp);
    }
  }

  void onPrePrepare(Signed s, PrePrepare pp) {
    if (pp.view() != r.view || !r.active) {
      if (pp.view() < r.view) {
        r.lateCommits.onPrePrepare(s, pp);
      }
      r.viewChanges.noteView(s.sender(), pp.view());
      return;
    }
    if (s.sender() != r.cfg.primaryOf(r.view)) {
      r.evidence(s.sender(), "pre-prepare from a backup");
      return;
    }
    if (!r.inWindow(pp.seq())) {
      return; // outside the watermarks (§4.2): drop; a lagging replica catches up by state transfer
    }
    if (pp.seq() > r.epochEnd) {
      return; // past the membership epoch's end: its requests are ordered in the next epoch
    }
    Slot slot = r.slot(pp.seq());
    if (slot.prePrepare != null) {
      if (!Arrays.equals(slot.prePrepare.digest(), pp.digest())) {
        r.evidence(s.sender(), "equivocation: two pre-prepares for view " + r.view + " seq " + pp.seq());
      }
      return;
    }
    if (!validBatch(s.sender(), pp.requests()) || !r.contributions.checkPrePrepare(s.sender(), pp)) {
      return;
    }
    acceptPrePrepare(s, pp);
  }

  /**
   * Every request in a batch must be an authentic, well-formed client request (§4.2: "verifies"), and a
   * replicated client's must come with p+1 identical copies from distinct members (BFT-WS §3.4).
   */
  boolean validBatch(int primary, List<Signed> batch) {
    for (Signed q : batch) {
      String invalid = r.requests.invalidInBatch(q, alreadyVerified(q));
      if (invalid != null) {
        r.evidence(primary, invalid);
        return false;
      }
    }
    String unfiltered = r.requests.unfilteredInBatch(batch);
    if (unfiltered != null) {
      r.evidence(primary, unfiltered);
      return false;
    }
    return true;
  }

  /** A copy of a request this replica verified before (it is pending here): no second signature check. */
  private boolean alreadyVerified(Signed q) {
    List<Signed> known = null;
    try {
      known = pending.get(Request.decode(q.body()).id());
    } catch (DecodeException e) {
      // invalidInBatch names it
    }
    return known != null && known.stream().anyMatch(q::sameAs);
  }

  /** Record an accepted (or, at the primary, sent) pre-prepare and send our prepare. */
  void acceptPrePrepare(Signed msg, PrePrepare pp) {
    Slot slot = r.slot(pp.seq());
    slot.prePrepareMessage = msg;
    slot.prePrepare = pp;
    r.journal.signed(pp.seq(), msg); // accepted: no other pre-prepare for (v, n) after a restart either
    r.out.events.add(new Event.PrePrepared(r.view, pp.seq(), pp.digest()));
    r.contributions.accepted(slot, pp);
    sendPrepare(slot);
    checkPrepared(slot);
  }

  /** A backup's prepare, once the digest to vote on is known (BA: after the entropy combination, §4). */
  private void sendPrepare(Slot slot) {
    byte[] d = r.voteDigest(slot);
    if (r.isPrimary() || slot.ownPrepare != null || d == null) {
      return;
    }
    Signed prepare = r.sign(Kind.PREPARE, new Vote(r.view, slot.seq, d).encode());
    slot.ownPrepare = prepare;
    slot.prepares.put(r.id, prepare);
    slot.prepareDigests.put(r.id, d);
    r.journal.signed(slot.seq, prepare);
    r.multicast(prepare);
  }

  /** BA: R became known for this slot's batch; prepare on d' now. */
  void randomnessKnown(Slot slot) {
    sendPrepare(slot);
    checkPrepared(slot);
  }

  void onPrepare(Signed s, Vote v) {
    if (v.view() != r.view || !r.active) {
      r.viewChanges.noteView(s.sender(), v.view());
      return;
    }
    if (s.sender() == r.cfg.primaryOf(r.view)) {
      r.evidence(s.sender(), "prepare from the primary");
      return;
    }
    if (!r.inWindow(v.seq())) {
      return;
    }
    Slot slot = r.slot(v.seq());
    if (!record(slot.prepares, slot.prepareDigests, s, v, "prepare")) {
      return;
    }
    checkPrepared(slot);
  }

  void onCommit(Signed s, Vote v) {
    if (v.view() != r.view || !r.active) {
      if (v.view() < r.view) {
        r.lateCommits.onCommit(s, v);
      }
      r.viewChanges.noteView(s.sender(), v.view());
      return;
    }
    if (!r.inWindow(v.seq())) {
      return;
    }
    Slot slot = r.slot(v.seq());
    if (!record(slot.commits, slot.commitDigests, s, v, "commit")) {
      return;
    }
    checkCommitted(slot);
  }

  private boolean record(Map<Integer, Signed> msgs, Map<Integer, byte[]> digests, Signed s, Vote v, String what) {
    byte[] before = digests.get(s.sender());
    if (before != null) {
      if (!Arrays.equals(before, v.digest())) {
        r.evidence(s.sender(), "double " + what + " for view " + v.view() + " seq " + v.seq());
      }
      return false;
    }
    msgs.put(s.sender(), s);
    digests.put(s.sender(), v.digest());
    return true;
  }

  /**
   * A byte-identical copy of a prepare or commit we already hold (retransmissions) needs no second
   * signature check: signatures are the dominant cost of a step.
   */
  boolean isDuplicate(Signed s) {
    if (s.kind() != Kind.PREPARE && s.kind() != Kind.COMMIT) {
      return false;
    }
    Vote v = Vote.decode(s.body());
    Slot slot = r.log.get(v.seq());
    if (slot == null || slot.view != v.view()) {
      return false;
    }
    Signed held = (s.kind() == Kind.PREPARE ? slot.prepares : slot.commits).get(s.sender());
    return held != null && Arrays.equals(held.signature(), s.signature());
  }

  /** prepared(m, v, n, i): the pre-prepare and 2f matching prepares from distinct backups (§4.2);
   * with n > 3f+1, quorum − 1 of them ({@link GroupConfig#quorum}). */
  private void checkPrepared(Slot slot) {
    if (slot.prePrepare == null || slot.ownCommit != null) {
      return;
    }
    byte[] d = r.voteDigest(slot);
    if (d == null || slot.matching(slot.prepareDigests, d) < r.cfg.quorum() - 1) {
      return;
    }
    List<Signed> proof = r.votes.preparedProof(slot, d);
    if (proof.size() < r.cfg.quorum() - 1) {
      return; // a prepare's signature failed: wait for another
    }
    slot.prepared = new PreparedCertificate(slot.prePrepareMessage, List.copyOf(proof),
        r.contributions.certificate(slot));
    slot.preparedView = r.view;
    r.journal.prepared(slot.seq, slot.prepared);
    Signed commit = r.sign(Kind.COMMIT, new Vote(r.view, slot.seq, d).encode());
    slot.ownCommit = commit;
    slot.commits.put(r.id, commit);
    slot.commitDigests.put(r.id, d);
    r.journal.signed(slot.seq, commit);
    r.multicast(commit);
    checkCommitted(slot);
  }

  /** committed-local(m, v, n, i): prepared and 2f+1 matching commits (§4.2), a quorum with n > 3f+1. */
  private void checkCommitted(Slot slot) {
    if (slot.ownCommit == null || slot.committedInView) {
      return;
    }
    byte[] d = slot.prePrepare.digest();
    if (slot.matching(slot.commitDigests, r.voteDigest(slot)) < r.cfg.quorum()) {
      return;
    }
    slot.committedInView = true;
    if (slot.committedBatch == null) {
      slot.committedBatch = slot.prePrepare.requests();
      slot.committedDigest = d;
    }
    r.out.events.add(new Event.Committed(r.view, slot.seq, d, slot.prePrepare.requests()));
    r.handouts.committed(slot);
    r.coins.committed(slot.seq, slot.committedDigest, slot.committedBatch);
    r.decryptions.committed(slot.seq, slot.committedDigest, slot.committedBatch);
    r.contributions.committed(slot);
    r.execution.executeCommitted();
  }

  /**
   * pp committed in its view, below ours, while we change view ({@link LateCommits}): executed like our own
   * commits, in order; we never voted for it.
   */
  void committedInLowerView(Slot slot, PrePrepare pp) {
    slot.committedBatch = pp.requests();
    slot.committedDigest = pp.digest();
    r.out.events.add(new Event.Committed(pp.view(), slot.seq, pp.digest(), pp.requests()));
    r.coins.committed(slot.seq, slot.committedDigest, slot.committedBatch);
    r.decryptions.committed(slot.seq, slot.committedDigest, slot.committedBatch);
    r.execution.executeCommitted();
  }

  // ---------------------------------------------------------------- what the view transitions set

  /** Primary: these requests are in a pre-prepare of this view (its own, or of O in §4.4); not batched again. */
  void markProposed(List<Signed> requests) {
    for (Signed q : requests) {
      proposed.add(Request.decode(q.body()).id());
    }
  }

  /** A view left or entered: nothing of the new view is proposed yet. */
  void forgetProposed() {
    proposed.clear();
  }

  /** Primary: the next pre-prepare gets seq (§4.4: after the highest sequence number of O). */
  void assignFrom(long seq) {
    nextSeq = seq;
  }

  /**
   * Primary after a restart: it sent a pre-prepare for seq, so the next one gets a higher number; also
   * after a checkpoint at seq became stable or was installed (§4.3).
   */
  void assignAbove(long seq) {
    nextSeq = Math.max(nextSeq, seq + 1);
  }

  /** The request goes to execution (or is skipped there): no longer pending, nor proposed. */
  void ordered(RequestId id) {
    pending.remove(id);
    proposed.remove(id);
  }

  /** A checkpoint was installed by state transfer: the requests it executed wait no longer. */
  void dropExecuted() {
    for (Iterator<RequestId> it = pending.keySet().iterator(); it.hasNext(); ) {
      RequestId id = it.next();
      if (!r.clients.isNew(id)) {
        it.remove();
        proposed.remove(id);
      }
    }
  }

  /**
   * One signed copy of each pending request, oldest first, then of each request in a batch pre-prepared above
   * {@code epochEnd} and not pending here (a new membership epoch takes them over).
   */
  List<Signed> carried(long epochEnd) {
    List<Signed> out = new ArrayList<>();
    for (List<Signed> copies : pending.values()) {
      out.add(copies.get(0));
    }
    for (Slot slot : r.log.tailMap(epochEnd, false).values()) {
      if (slot.prePrepare == null) {
        continue;
      }
      for (Signed q : slot.prePrepare.requests()) {
        RequestId id = Request.decode(q.body()).id();
        if (!pending.containsKey(id) && r.clients.isNew(id)) {
          out.add(q);
        }
      }
    }
    return out;
  }

  int pendingCount() {
    return pending.size();
  }

  long nextSeq() {
    return nextSeq;
  }
}
