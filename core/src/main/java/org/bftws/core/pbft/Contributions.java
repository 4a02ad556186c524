package org.bftws.core.pbft;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.bftws.core.codec.DecodeException;
import org.bftws.core.config.GroupConfig;
import org.bftws.core.engine.Event;
import org.bftws.core.message.Kind;
import org.bftws.core.message.PpUpdate;
import org.bftws.core.message.PrePrepare;
import org.bftws.core.message.Signed;

/**
 * The BA algorithm (integrity paper §4): collective determination of random numbers by agreement on 2f+1
 * contributions before the prepare phase; and its hardened, commit-before-reveal variant.
 *
 * <p><b>Plain BA.</b> The primary checks which requests of a batch are randomized and puts its own
 * contribution R_p — one 32-byte value per randomized request, from the embedding's {@link Entropy} — in
 * the pre-prepare, as its own signed {@link Kind#PP_UPDATE}. A backup checks that the batch really has
 * randomized requests (a contribution for a batch without any is refused: needless work is a DoS vector),
 * and multicasts its contribution R_i in a signed pp-update. With 2f+1 contributions (its own first) the
 * primary multicasts its pp-update carrying S_R: the 2f+1 contributors' <em>own signed</em> pp-updates, so
 * a backup checks every ⟨R_i, i⟩ against its contributor's signature (a byte-identical copy of one it holds
 * needs no second check). A forged or missing contribution cannot enter S_R, and the paper's
 * "retransmission of missing pp-updates" is never needed: S_R carries them. Every replica then combines R
 * ({@link BaRandomness#combine}) and prepares and commits on d' = D(d || R) instead of d.
 *
 * <p><b>Hardened BA</b> (removes docs/design/cryptography.md's two weaknesses). Contributions are replaced by commitments
 * H(i, n, j, d, R_ij, nonce_i) (the primary's in its pre-prepare); the primary's set fixes 2f+1
 * commitments; only then does each contributor in the set reveal (R_i, nonce_i), and every replica checks
 * each reveal against its commitment and combines the 2f+1 revealed values once it holds all of them. A
 * Byzantine backup sees no honest value before its own is fixed (no last revealer), and the primary fixes
 * the subset while every honest value is still hidden (its choice carries no information).
 * A committed contributor that never reveals leaves the slot unprepared: nothing substitutes for its value
 * (that would hand its choice to whoever picks the substitute), the view-change timer fires, and a
 * new primary proposes again. With f silent replicas the primary never receives their commitments, so its
 * 2f+1 are correct replicas' and all reveal. What remains is the "abort" option of a Byzantine member: it
 * can withhold its reveal after seeing the others, forcing a new draw at the price of a view change; the
 * bias benchmark measures it ({@code perf/results/ba-bias.csv}). Removing it needs verifiable secret sharing
 * or threshold encryption of the contributions — or the CT algorithm.
 *
 * <p><b>View changes.</b> A prepared certificate carries the set its batch prepared with (hardened: with the
 * 2f+1 reveals), so the new primary re-proposes it in the new view's pre-prepare and every replica
 * recomputes the same R and d' (§4.4 unchanged otherwise; null requests carry nothing). Nothing prepared
 * means nothing was fixed: the new view draws afresh.
 *
 * <p>State is per sequence number within the log window; entries at or below the stable checkpoint are
 * discarded. Early pp-updates (before the pre-prepare is accepted) are kept, one per sender and type.
 */
final class Contributions {
  private final Replica r;
  private final boolean active;
  private final boolean hardened;
  private final Entropy entropy;
  private final TreeMap<Long, Round> rounds = new TreeMap<>();
  private final TreeMap<Long, Map<String, Signed>> early = new TreeMap<>();
  /** Per committed seq: the random number of each request index of the batch (null: not randomized). */
  private final TreeMap<Long, byte[][]> committed = new TreeMap<>();
  /** Primary: its secrets drawn for a pre-prepare before the round exists (created on acceptance). */
  private final Map<Long, Round> drawn = new HashMap<>();
  /**
   * After a restart: what this replica signed before it, per seq, from its journal ({@link Recovery}). A
   * contribution is drawn from entropy, so a restarted replica would otherwise sign another one for the same
   * pre-prepare, and a restarted primary another set; it signs these again instead.
   */
  private final TreeMap<Long, Round> remembered = new TreeMap<>();

  /** The BA state of one pre-prepared batch in one view. */
  private static final class Round {
    final long view;
    final byte[] d;
    final int[] randomized;
    /** Contributions (hardened: commitments) received, by contributor; the primary's from its pre-prepare. */
    final TreeMap<Integer, Signed> contributions = new TreeMap<>();
    /** Our own contribution or commitment, and (hardened) its secret values and nonce. */
    Signed own;
    List<byte[]> secret;
    byte[] nonce;
    /** The primary's set message (sent or accepted); hardened: its members, by contributor. */
    Signed set;
    Map<Integer, PpUpdate> members;
    /** Hardened: reveals received (checked against the set once fixed), and ours. */
    final TreeMap<Integer, Signed> reveals = new TreeMap<>();
    Signed ownReveal;
    List<byte[]> randoms;
    byte[] voteDigest;
    /** What a prepared certificate carries: the set (hardened: with its reveals). */
    Signed certificate;
    final Map<Integer, Long> answered = new HashMap<>();

    Round(long view, byte[] d, int[] randomized) {
      this.view = view;
      this.d = d;
      this.randomized = randomized;
    }
  }

  Contributions(Replica r, RandomnessConfig c) {
    this.r = r;
    this.active = c.algorithm().agreement();
    this.hardened = c.algorithm() == RandomnessConfig.Algorithm.BA_HARDENED;
    this.entropy = c.entropy();
  }

  boolean active() {
    return active;
  }

  private PpUpdate.Type contributionType() {
    return hardened ? PpUpdate.Type.COMMITMENT : PpUpdate.Type.CONTRIBUTION;
  }

  // ---------------------------------------------------------------- pre-prepare

  /** Primary: R_p (hardened: its commitment) for the pre-prepare of this batch; null if none is needed. */
  Signed primaryContribution(PrePrepare pp) {
    if (!active) {
      return null;
    }
    int[] randomized = r.operations.randomizedIndices(pp.requests());
    return randomized.length == 0 ? null : contribute(pp.seq(), pp.digest(), randomized.length, pendingOwn(pp.seq()));
  }

  private Round pendingOwn(long seq) {
    Round holder = new Round(r.view, null, null);
    drawn.put(seq, holder);
    return holder;
  }

  /**
   * Draw our values for (seq, d) and sign them (hardened: sign the commitments, keep values and nonce), or
   * take again those signed before a restart; journaled either way.
   */
  private Signed contribute(long seq, byte[] d, int count, Round into) {
    Round kept = rememberedOwn(seq, d);
    if (kept != null) {
      into.own = kept.own;
      into.secret = kept.secret;
      into.nonce = kept.nonce;
    } else {
      draw(seq, d, count, into);
    }
    List<byte[]> secrets = new ArrayList<>();
    if (into.secret != null) {
      secrets.addAll(into.secret);
      secrets.add(into.nonce);
    }
    r.journal.signed(seq, into.own, secrets);
    return into.own;
  }

  private void draw(long seq, byte[] d, int count, Round into) {
    List<byte[]> values = new ArrayList<>(count);
    for (int j = 0; j < count; j++) {
      byte[] v = new byte[PpUpdate.VALUE_LENGTH];
      entropy.fill(v);
      values.add(v);
    }
    PpUpdate u;
    if (hardened) {
      byte[] nonce = new byte[PpUpdate.VALUE_LENGTH];
      entropy.fill(nonce);
      List<byte[]> commitments = new ArrayList<>(count);
      for (int j = 0; j < count; j++) {
        commitments.add(BaRandomness.commitment(r.id, seq, d, j, values.get(j), nonce));
      }
      into.secret = values;
      into.nonce = nonce;
      u = PpUpdate.values(PpUpdate.Type.COMMITMENT, r.view, seq, d, commitments, new byte[0]);
    } else {
      u = PpUpdate.values(PpUpdate.Type.CONTRIBUTION, r.view, seq, d, values, new byte[0]);
    }
    into.own = r.sign(Kind.PP_UPDATE, u.encode());
  }

  /** Our contribution signed before a restart for (this view, seq, d), if any. */
  private Round rememberedOwn(long seq, byte[] d) {
    Round kept = remembered.get(seq);
    return kept != null && kept.own != null && kept.view == r.view && Arrays.equals(kept.d, d) ? kept : null;
  }

  /**
   * From the journal ({@link Recovery}): a pp-update of the current view this replica signed before a
   * restart, our contribution or commitment (with its {@code secrets}, hardened: the values, then the
   * nonce) or, as primary, the set.
   */
  void remember(Signed msg, List<byte[]> secrets) {
    PpUpdate u = PpUpdate.decode(msg.body());
    if (u.view() != r.view) {
      return;
    }
    Round kept = remembered.computeIfAbsent(u.seq(), k -> new Round(u.view(), u.digest(), null));
    if (u.type() == PpUpdate.Type.SET) {
      kept.set = msg;
    } else {
      kept.own = msg;
      if (hardened && !secrets.isEmpty()) {
        kept.secret = List.copyOf(secrets.subList(0, secrets.size() - 1));
        kept.nonce = secrets.get(secrets.size() - 1);
      }
    }
  }

  /**
   * Backup, before accepting a pre-prepare: its randomness must match its batch — the primary's own
   * contribution when the batch has randomized requests (or, re-proposed after a view change, a certified
   * set), nothing otherwise. Records evidence and returns false if not.
   */
  boolean checkPrePrepare(int primary, PrePrepare pp) {
    Signed t = pp.randomness();
    if (!active) {
      if (t != null) {
        r.evidence(primary, "randomness in a pre-prepare, but this group does not run the BA algorithm");
        return false;
      }
      return true;
    }
    int[] randomized = r.operations.randomizedIndices(pp.requests());
    if (randomized.length == 0) {
      if (t != null) {
        r.evidence(primary, "a contribution for seq " + pp.seq() + ", whose batch has no randomized request");
        return false;
      }
      return true;
    }
    if (t == null) {
      r.evidence(primary, "a pre-prepare of randomized requests without the primary's contribution");
      return false;
    }
    try {
      if (PpUpdate.decode(t.body()).type() == PpUpdate.Type.SET) {
        certified(pp, t);
      } else if (t.sender() != primary) {
        throw new IllegalArgumentException("another replica's contribution in the pre-prepare");
      } else {
        BaRandomness.checkMember(t, contributionType(), pp.seq(), pp.digest(), randomized.length, r.n,
            s -> s.verify(r.verifier));
      }
    } catch (IllegalArgumentException | DecodeException e) {
      r.evidence(primary, "pre-prepare for seq " + pp.seq() + " with " + e.getMessage());
      return false;
    }
    return true;
  }

  /** The random numbers of a certified set for this pre-prepare's batch (all signatures checked). */
  private List<byte[]> certified(PrePrepare pp, Signed set) {
    return BaRandomness.checkCertificate(set, pp.seq(), pp.digest(), pp.requests(), r.operations, r.n, r.f, hardened,
        s -> s.verify(r.verifier));
  }

  /** A pre-prepare was accepted (or sent): start its round; a backup multicasts its own contribution. */
  void accepted(Slot slot, PrePrepare pp) {
    if (!active) {
      return;
    }
    int[] randomized = r.operations.randomizedIndices(pp.requests());
    Round rd = new Round(r.view, pp.digest(), randomized);
    rounds.put(pp.seq(), rd);
    Round mine = drawn.remove(pp.seq());
    if (mine == null) {
      mine = rememberedOwn(pp.seq(), pp.digest()); // a restarted primary's pre-prepare, from its journal
    }
    if (randomized.length == 0) {
      rd.voteDigest = pp.digest();
      return;
    }
    Signed t = pp.randomness();
    PpUpdate u = PpUpdate.decode(t.body());
    if (u.type() == PpUpdate.Type.SET) {
      rd.set = t;
      rd.certificate = t;
      known(rd, pp.seq(), certified(pp, t), null);
      return;
    }
    rd.contributions.put(t.sender(), t);
    if (r.isPrimary()) {
      rd.own = t;
      if (mine != null) {
        rd.secret = mine.secret;
        rd.nonce = mine.nonce;
      }
    } else {
      Signed own = contribute(pp.seq(), pp.digest(), randomized.length, rd);
      rd.contributions.put(r.id, own);
      r.multicast(own);
    }
    Map<String, Signed> buffered = early.remove(pp.seq());
    if (buffered != null) {
      for (Signed s : buffered.values()) {
        PpUpdate bu = PpUpdate.decode(s.body());
        if (bu.view() == r.view) {
          onPpUpdate(s, bu, slot);
        }
      }
    }
    if (r.isPrimary()) {
      formSet(rd, slot);
    }
  }

  // ---------------------------------------------------------------- pp-updates

  void onPpUpdate(Signed s) {
    if (!active) {
      r.evidence(s.sender(), "a pp-update, but this group does not run the BA algorithm");
      return;
    }
    PpUpdate u = PpUpdate.decode(s.body());
    if (!r.inWindow(u.seq()) || u.view() != r.view) {
      // A pp-update counts only in the view it was sent in: a delayed one of an earlier round would
      // otherwise look like a second contribution, or a reveal opening nothing, of a correct replica.
      return;
    }
    Round rd = rounds.get(u.seq());
    Slot slot = r.log.get(u.seq());
    if (rd == null || rd.view != r.view || !r.active || slot == null || slot.prePrepare == null
        || !Arrays.equals(rd.d, u.digest())) {
      early.computeIfAbsent(u.seq(), k -> new HashMap<>()).put(s.sender() + "/" + u.type(), s);
      return;
    }
    onPpUpdate(s, u, slot);
  }

  private void onPpUpdate(Signed s, PpUpdate u, Slot slot) {
    Round rd = rounds.get(u.seq());
    if (rd == null || !Arrays.equals(rd.d, u.digest()) || rd.randomized.length == 0) {
      if (rd != null && rd.randomized.length == 0 && Arrays.equals(rd.d, u.digest())) {
        r.evidence(s.sender(), "a pp-update for seq " + u.seq() + ", whose batch has no randomized request");
      }
      return;
    }
    switch (u.type()) {
      case CONTRIBUTION, COMMITMENT -> onContribution(rd, s, u, slot);
      case SET -> onSet(rd, s, u, slot);
      case REVEAL -> onReveal(rd, s, slot);
    }
  }

  private void onContribution(Round rd, Signed s, PpUpdate u, Slot slot) {
    Signed held = rd.contributions.get(s.sender());
    if (held != null) {
      if (!Arrays.equals(held.signature(), s.signature())) {
        r.evidence(s.sender(), "two contributions for seq " + u.seq());
      } else {
        answer(rd, s.sender()); // a stalled peer sends its contribution again: it may lack our set
      }
      return;
    }
    if (u.type() != contributionType()) {
      r.evidence(s.sender(), "a " + u.type() + " in a group running " + (hardened ? "hardened " : "") + "BA");
      return;
    }
    if (u.values().size() != rd.randomized.length) {
      r.evidence(s.sender(), "a contribution for seq " + u.seq() + " that does not cover its randomized requests");
      return;
    }
    rd.contributions.put(s.sender(), s);
    if (r.isPrimary()) {
      formSet(rd, slot);
    }
  }

  /** Primary: with 2f+1 contributions (its own first), send S_R and combine (hardened: fix and reveal). */
  private void formSet(Round rd, Slot slot) {
    if (rd.set != null) {
      return;
    }
    Round kept = remembered.get(slot.seq);
    if (kept != null && kept.set != null && kept.view == r.view && Arrays.equals(kept.d, rd.d)) {
      rd.set = kept.set; // fixed before a restart: the same S_R again, not one chosen afresh
      r.multicast(rd.set);
      fixed(rd, slot, PpUpdate.decode(rd.set.body()).set());
      return;
    }
    if (rd.contributions.size() < 2 * r.f + 1) {
      return;
    }
    List<Signed> members = new ArrayList<>();
    members.add(rd.own);
    for (Map.Entry<Integer, Signed> e : rd.contributions.entrySet()) {
      if (members.size() < 2 * r.f + 1 && e.getKey() != r.id) {
        members.add(e.getValue());
      }
    }
    rd.set = r.sign(Kind.PP_UPDATE, PpUpdate.set(r.view, slot.seq, rd.d, members, List.of()).encode());
    r.journal.signed(slot.seq, rd.set);
    r.multicast(rd.set);
    fixed(rd, slot, members);
  }

  private void onSet(Round rd, Signed s, PpUpdate u, Slot slot) {
    if (s.sender() != r.cfg.primaryOf(r.view) || u.view() != r.view) {
      r.evidence(s.sender(), "a contribution set for seq " + u.seq() + " from a replica that is not its primary");
      return;
    }
    if (rd.set != null) {
      return;
    }
    try {
      if (!u.reveals().isEmpty()) {
        throw new IllegalArgumentException("reveals before the commitments were fixed");
      }
      BaRandomness.checkMembers(u.set(), hardened, u.seq(), rd.d, rd.randomized.length, r.n, r.f,
          m -> isHeld(rd.contributions, m) || m.verify(r.verifier));
    } catch (IllegalArgumentException e) {
      r.evidence(s.sender(), "contribution set for seq " + u.seq() + " with " + e.getMessage());
      return;
    }
    rd.set = s;
    fixed(rd, slot, u.set());
  }

  private static boolean isHeld(Map<Integer, Signed> held, Signed m) {
    Signed h = held.get(m.sender());
    return m.sameAs(h);
  }

  /** S_R is fixed: plain BA combines now; hardened reveals our value if our commitment is in the set. */
  private void fixed(Round rd, Slot slot, List<Signed> members) {
    if (!hardened) {
      Map<Integer, List<byte[]>> values = new HashMap<>();
      for (Signed m : members) {
        values.put(m.sender(), PpUpdate.decode(m.body()).values());
      }
      rd.certificate = rd.set;
      known(rd, slot.seq, BaRandomness.combine(values, rd.randomized.length), slot);
      return;
    }
    rd.members = new HashMap<>();
    for (Signed m : members) {
      rd.members.put(m.sender(), PpUpdate.decode(m.body()));
    }
    if (rd.secret != null && rd.members.containsKey(r.id) && isHeld(Map.of(r.id, rd.own), find(members, r.id))) {
      rd.ownReveal = r.sign(Kind.PP_UPDATE,
          PpUpdate.values(PpUpdate.Type.REVEAL, r.view, slot.seq, rd.d, rd.secret, rd.nonce).encode());
      rd.reveals.put(r.id, rd.ownReveal);
      r.multicast(rd.ownReveal);
    }
    // Reveals that arrived before the set: keep those that open a commitment of it.
    for (Integer sender : new ArrayList<>(rd.reveals.keySet())) {
      if (sender != r.id && !opensCommitment(rd, slot.seq, rd.reveals.get(sender))) {
        rd.reveals.remove(sender);
      }
    }
    tryReveals(rd, slot);
  }

  private static Signed find(List<Signed> members, int id) {
    for (Signed m : members) {
      if (m.sender() == id) {
        return m;
      }
    }
    return null;
  }

  private void onReveal(Round rd, Signed s, Slot slot) {
    if (!hardened) {
      r.evidence(s.sender(), "a reveal in a group running plain BA");
      return;
    }
    Signed held = rd.reveals.get(s.sender());
    if (held != null) {
      if (Arrays.equals(held.signature(), s.signature())) {
        answer(rd, s.sender());
      }
      return;
    }
    if (rd.members == null) {
      rd.reveals.put(s.sender(), s); // checked against its commitment once the set is fixed
      return;
    }
    if (!opensCommitment(rd, slot.seq, s)) {
      return;
    }
    rd.reveals.put(s.sender(), s);
    tryReveals(rd, slot);
  }

  private boolean opensCommitment(Round rd, long seq, Signed s) {
    PpUpdate c = rd.members.get(s.sender());
    if (c == null) {
      r.evidence(s.sender(), "a reveal for seq " + seq + " by a replica outside the commitment set");
      return false;
    }
    try {
      PpUpdate u = BaRandomness.checkMember(s, PpUpdate.Type.REVEAL, seq, rd.d, rd.randomized.length, r.n, m -> true);
      if (!BaRandomness.opens(s.sender(), seq, rd.d, c, u)) {
        r.evidence(s.sender(), "a reveal for seq " + seq + " that does not open its commitment");
        return false;
      }
    } catch (IllegalArgumentException e) {
      r.evidence(s.sender(), "reveal for seq " + seq + ": " + e.getMessage());
      return false;
    }
    return true;
  }

  /** Hardened: with the reveals of all 2f+1 committed contributors, combine. */
  private void tryReveals(Round rd, Slot slot) {
    if (rd.randoms != null || rd.reveals.size() < rd.members.size()) {
      return;
    }
    Map<Integer, List<byte[]>> values = new HashMap<>();
    List<Signed> reveals = new ArrayList<>(rd.reveals.values());
    for (Signed s : reveals) {
      values.put(s.sender(), PpUpdate.decode(s.body()).values());
    }
    PpUpdate set = PpUpdate.decode(rd.set.body());
    // The envelope's signature is not relied on (every member and reveal is signed by its contributor).
    rd.certificate = Signed.of(Kind.PP_UPDATE, rd.set.sender(),
        PpUpdate.set(set.view(), set.seq(), set.digest(), set.set(), reveals).encode(), new byte[0]);
    known(rd, slot.seq, BaRandomness.combine(values, rd.randomized.length), slot);
  }

  /** R is known: the prepares and commits are on d' = D(d || R) from now on. */
  private void known(Round rd, long seq, List<byte[]> randoms, Slot slot) {
    rd.randoms = randoms;
    rd.voteDigest = BaRandomness.voteDigest(rd.d, randoms);
    if (slot != null) {
      r.normalCase.randomnessKnown(slot);
    }
  }

  /** A stalled peer repeated a pp-update we hold: send it what it may lack, once per retransmission interval. */
  private void answer(Round rd, int peer) {
    Long last = rd.answered.get(peer);
    if (last != null && r.now - last < r.cfg.get(GroupConfig.RETRANSMIT_INTERVAL)) {
      return;
    }
    rd.answered.put(peer, r.now);
    if (rd.set != null && r.isPrimary()) {
      r.send(peer, rd.set);
    }
    for (Signed rv : rd.reveals.values()) {
      if (rv.sender() != peer) {
        r.send(peer, rv); // reveals are signed by their contributors: relayed as they are
      }
    }
  }

  // ---------------------------------------------------------------- the replica's questions

  /** The digest this slot's prepares and commits are on: d, or d' once R is known (null until then). */
  byte[] voteDigest(Slot slot) {
    if (!active) {
      return slot.prePrepare.digest();
    }
    Round rd = rounds.get(slot.seq);
    if (rd == null || rd.view != slot.view || !Arrays.equals(rd.d, slot.prePrepare.digest())) {
      return null;
    }
    return rd.voteDigest;
  }

  /** What a prepared certificate of this slot carries: the set it prepared with (null if none needed). */
  Signed certificate(Slot slot) {
    Round rd = active ? rounds.get(slot.seq) : null;
    return rd == null ? null : rd.certificate;
  }

  /**
   * For a view change: the digest a prepared certificate's prepares must be on — d' from its certified set,
   * or d when the batch needs no random number — and null when its randomness does not check out.
   */
  byte[] certifiedVoteDigest(PrePrepare pp, Signed randomness) {
    if (!active || r.operations.randomizedIndices(pp.requests()).length == 0) {
      return randomness == null ? pp.digest() : null;
    }
    if (randomness == null) {
      return null;
    }
    try {
      return BaRandomness.voteDigest(pp.digest(), certified(pp, randomness));
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /** The batch committed here: keep its random numbers for execution and report them to observers. */
  void committed(Slot slot) {
    if (!active || committed.containsKey(slot.seq)) {
      return;
    }
    Round rd = rounds.get(slot.seq);
    byte[][] out = new byte[slot.committedBatch.size()][];
    if (rd != null && rd.randomized.length > 0) {
      for (int j = 0; j < rd.randomized.length; j++) {
        out[rd.randomized[j]] = rd.randoms.get(j).clone();
      }
      r.out.events.add(new Event.RandomnessAgreed(slot.seq, rd.d, rd.certificate));
    }
    committed.put(slot.seq, out);
  }

  /** Whether execution has this committed batch's random numbers (always, once committed). */
  boolean ready(Slot slot) {
    return !active || committed.containsKey(slot.seq);
  }

  /** The random number of request {@code index} of the batch committed at seq (empty if not randomized). */
  byte[] random(Slot slot, int index) {
    byte[][] rs = committed.get(slot.seq);
    return rs == null || rs[index] == null ? new byte[0] : rs[index].clone();
  }

  // ---------------------------------------------------------------- retransmission and memory

  /** Stalled path of {@link Replica#tick}: resend our pp-updates of this view's unexecuted rounds. */
  void retransmit() {
    if (!active) {
      return;
    }
    for (Map.Entry<Long, Round> e : rounds.tailMap(r.lastExecuted, false).entrySet()) {
      Round rd = e.getValue();
      if (rd.view != r.view || rd.randomized.length == 0) {
        continue;
      }
      if (rd.own != null && !r.isPrimary()) {
        r.multicast(rd.own);
      }
      if (rd.set != null && r.isPrimary()) {
        r.multicast(rd.set);
      }
      if (rd.ownReveal != null) {
        r.multicast(rd.ownReveal);
      }
    }
  }

  /** The checkpoint at seq became stable: nothing at or below it needs randomness any more. */
  void discardUpTo(long seq) {
    rounds.headMap(seq, true).clear();
    early.headMap(seq, true).clear();
    committed.headMap(seq, true).clear();
    drawn.keySet().removeIf(s -> s <= seq);
    remembered.headMap(seq, true).clear();
  }

  /** For tests: sequence numbers with BA state (bounded by the log window). */
  int size() {
    return rounds.size() + early.size() + committed.size();
  }

  /** For tests: the combined random numbers of the current round at seq (null if not known). */
  List<byte[]> randoms(long seq) {
    Round rd = rounds.get(seq);
    return rd == null ? null : rd.randoms;
  }
}
