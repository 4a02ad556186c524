package org.bftws.core.hybrid;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.bftws.core.async.AsyncKind;
import org.bftws.core.async.Context;
import org.bftws.core.async.MultiSignature;
import org.bftws.core.async.MultiValuedAgreement;
import org.bftws.core.async.Pid;
import org.bftws.core.async.Protocol;
import org.bftws.core.async.QuorumSignatures;
import org.bftws.core.codec.DecodeException;
import org.bftws.core.message.hybrid.FallbackVector;
import org.bftws.core.message.hybrid.LaneBatch;
import org.bftws.core.message.hybrid.LaneProposal;
import org.bftws.core.message.hybrid.LaneSwitch;
import org.bftws.core.message.hybrid.LaneVote;

/**
 * One epoch of the hybrid engine (docs/design/hybrid.md): the fast lane of leader e mod n, PBFT's normal case
 * (Castro-Liskov §4.2) over a hash chain of batches (BDT's Bolt), and the way out of it, BDT's Transformer on
 * SINTRA's multi-valued agreement (§2.4, child {@code pid/mvba}).
 * <ul>
 *   <li>PROPOSE (leader): a {@link LaneBatch} at seq s naming its predecessor's digest, with the leader's
 *       prepare share on it ({@link LaneProposal}): the proposal is the leader's prepare, as PBFT's
 *       pre-prepare is the primary's (Castro-Liskov §4.2), and the leader sends no PREPARE;
 *   <li>PREPARE: a backup prepared at s−1 on the batch's {@code prev} signs (s, digest); q = ⌈(n+f+1)/2⌉
 *       prepares (the leader's among them) and the batch make it prepared at s, and the shares its prepare
 *       certificate;
 *   <li>COMMIT: sent once prepared; q commits for (s, d) are a decision ({@link Host#committed});
 *   <li>SWITCH: the sender leaves the lane reporting its highest prepared slot with its certificate; f+1
 *       of them make this replica switch too; n−f of them, its own included, are its proposal to the
 *       agreement, whose decision goes to {@link Host#decided}.
 * </ul>
 * A replica sends no PREPARE or COMMIT after its SWITCH: that is what makes the agreement's highest reported
 * slot cover every batch some correct replica delivered (the safety argument in the design page).
 */
final class Epoch extends Protocol {
  enum Type implements AsyncKind {
    PROPOSE, PREPARE, COMMIT, SWITCH
  }

  /**
   * The slot key of every message here: a correct replica sends one PROPOSE (the leader) or PREPARE (a backup),
   * one COMMIT per slot instance and one SWITCH per epoch (Castro-Liskov §4.2; BDT's Transformer), so each
   * commits it.
   */
  private static final byte[] ONE_PER_INSTANCE = new byte[0];

  /** What the epoch asks of its engine. */
  interface Host {
    /** Requests for the leader's next batch (none proposed in this epoch yet), at most {@code max}. */
    List<byte[]> nextBatch(int max);

    /** A request the group may order: authentic, well formed. Deterministic, the same at every replica. */
    boolean validPayload(byte[] payload);

    /** Requests for this replica's SWITCH: those it owns in the epoch first, then its oldest. */
    List<byte[]> switchBatch();

    /** The highest seq delivered here. */
    long delivered();

    /** The digest of the batch delivered at seq if that is the highest delivered here, else null. */
    byte[] deliveredDigest(long seq);

    /** A batch accepted from the leader (or fetched), to serve to peers that lack it. */
    void store(LaneBatch batch);

    /** The batch with this digest if held (proposed, fetched or delivered), else null. */
    LaneBatch held(byte[] digest);

    /** Asks the peers for the batch at seq with this digest. */
    void fetch(long seq, byte[] digest);

    /** q commits for (seq, digest): that batch is the one at seq. */
    void committed(long seq, byte[] digest);

    /** The fallback's agreement decided this vector: {@code value} is the agreement's value, its encoding. */
    void decided(Epoch epoch, FallbackVector vector, byte[] value);
  }

  final long number;
  final int leader;
  final long base;
  final byte[] baseDigest;
  private final Host host;
  private final int quorum;
  private final int maxBatch;
  private final int outstanding;
  private final int window;
  private final QuorumSignatures certificates;
  private final MultiValuedAgreement agreement;
  /** The leader's batch per seq (the first one; a second one is equivocation). */
  private final Map<Long, LaneBatch> proposals = new HashMap<>();
  /** Per seq, per digest: the prepare shares by sender. */
  private final Map<Long, Map<ByteBuffer, Map<Integer, byte[]>>> prepares = new HashMap<>();
  /** Per seq: the senders whose prepare share was verified (this replica's own needs none). */
  private final Map<Long, Set<Integer>> verifiedShares = new HashMap<>();
  /** Per seq: the digest each sender prepared (to record equivocation once). */
  private final Map<Long, Map<Integer, ByteBuffer>> prepareOf = new HashMap<>();
  private final Map<Long, Map<ByteBuffer, Set<Integer>>> commits = new HashMap<>();
  private final Map<Long, Set<Integer>> commitOf = new HashMap<>();
  /** The prepared chain: base+1..highest, each seq's digest and certificate. */
  private final TreeMap<Long, byte[]> prepared = new TreeMap<>();
  private final Map<Long, byte[]> certificateOf = new HashMap<>();
  private final Set<Long> votedPrepare = new HashSet<>();
  private final Set<Long> reported = new HashSet<>();
  private final TreeMap<Integer, LaneSwitch> switches = new TreeMap<>();
  private boolean switched;
  private boolean proposedFallback;
  /** Per-seq state is dropped at and below here: {@link #inWindow} refuses those seqs for good. */
  private long prunedUpTo;
  /** Slot instances {@code pid/s} are registered up to here (the lane's window moves with deliveries). */
  private long openedUpTo;
  /** The leader's next seq and its predecessor's digest. */
  private long nextSeq;
  private byte[] lastProposed;

  Epoch(Context ctx, Pid pid, long number, long base, byte[] baseDigest, int maxBatch, int outstanding, int window,
      Host host) {
    super(ctx, pid);
    this.number = number;
    this.leader = (int) (number % ctx.n());
    this.base = base;
    this.baseDigest = baseDigest.clone();
    this.host = host;
    this.quorum = QuorumSignatures.echoQuorum(ctx.n(), ctx.f());
    this.maxBatch = maxBatch;
    this.outstanding = outstanding;
    this.window = window;
    this.certificates = new MultiSignature(ctx, quorum);
    this.nextSeq = base + 1;
    this.lastProposed = this.baseDigest;
    this.openedUpTo = base;
    this.prunedUpTo = base;
    this.agreement = ctx.router().register(new MultiValuedAgreement(ctx, pid.child("mvba"), this::validVector,
        value -> host.decided(this, FallbackVector.decode(value, ctx.n(), maxBatch), value)));
  }

  boolean switched() {
    return switched;
  }

  /** A peer left the lane while this replica did not: it may lack this replica's votes (a lossy link). */
  boolean peerSwitched() {
    return !switched && !switches.isEmpty();
  }

  boolean isLeader() {
    return leader == ctx.id();
  }

  /** The highest prepared seq (base if none). */
  long highestPrepared() {
    return prepared.isEmpty() ? base : prepared.lastKey();
  }

  // ---------------------------------------------------------------- the leader

  /**
   * Moves the lane's window: slots up to the delivered seq are closed (their late messages dropped; what this
   * replica sent for them stays resendable until the engine forgets it), slots up to the window's top opened.
   * Then the leader proposes while it has requests and fewer than the outstanding limit undelivered.
   */
  void propose() {
    ctx.router().closeBelow(pid, host.delivered() + 1);
    prune(host.delivered() - window);
    for (long s = Math.max(openedUpTo, host.delivered()) + 1; s <= host.delivered() + window; s++) {
      ctx.router().register(new Slot(this, s));
    }
    openedUpTo = Math.max(openedUpTo, host.delivered() + window);
    if (!isLeader() || switched) {
      return;
    }
    if (nextSeq <= host.delivered()) { // a state transfer moved this replica past the epoch's base
      byte[] top = host.deliveredDigest(host.delivered());
      if (top == null) {
        return; // the chain's digest is not known here: the lane stalls and the fallback moves on
      }
      nextSeq = host.delivered() + 1;
      lastProposed = top;
    }
    while (nextSeq <= host.delivered() + outstanding && nextSeq <= host.delivered() + window) {
      LaneProposal p = promisedProposal(nextSeq);
      if (p == null) {
        List<byte[]> batch = host.nextBatch(maxBatch);
        if (batch.isEmpty()) {
          return;
        }
        LaneBatch b = new LaneBatch(nextSeq, lastProposed, batch);
        p = new LaneProposal(b, prepareShare(nextSeq, b.digest()));
      }
      slotcast(nextSeq, Type.PROPOSE, p.encode());
      lastProposed = p.batch().digest();
      nextSeq++;
    }
  }

  /**
   * What this leader proposed at seq before a restart from its journal, or null: it goes on from that batch, and
   * signs no other prepare share for the slot, since a PROPOSE there leaves as the promised one whatever it
   * builds ({@link Context#recover}) and it sends no PREPARE ({@link #vote}).
   */
  private LaneProposal promisedProposal(long seq) {
    byte[] promised = ctx.promisedPayload(pid.child(seq), Type.PROPOSE.code(), ONE_PER_INSTANCE);
    return promised == null ? null : LaneProposal.decode(promised, maxBatch);
  }

  /** This replica's prepare share on (seq, d): what a PREPARE, or the leader's PROPOSE, carries. */
  private byte[] prepareShare(long seq, byte[] d) {
    return ctx.sign(pid.bind("prepare", LaneVote.prepared(seq, d)));
  }

  /**
   * Restarted from its journal into an epoch it had left the lane in: it leaves again at once (its SWITCH
   * goes out as the promised one), since it must send no PREPARE or COMMIT after its SWITCH.
   */
  void switchIfPromised() {
    if (ctx.promisedPayload(pid, Type.SWITCH.code(), ONE_PER_INSTANCE) != null) {
      switchNow();
    }
  }

  /**
   * Forgets the per-seq votes, batches and marks at and below {@code upTo} (Castro-Liskov §4.3's garbage
   * collection, here by the lane's window: {@link #inWindow} refuses those seqs once the delivered seq is a
   * window above them, whatever a peer sends). The highest prepared slot and its certificate stay: a SWITCH
   * reports them.
   */
  private void prune(long upTo) {
    if (upTo <= prunedUpTo) {
      return;
    }
    prunedUpTo = upTo;
    long keep = highestPrepared();
    for (Map<Long, ?> perSeq : List.<Map<Long, ?>>of(proposals, prepares, verifiedShares, prepareOf, commits, commitOf)) {
      perSeq.keySet().removeIf(s -> s <= upTo);
    }
    prepared.keySet().removeIf(s -> s <= upTo && s != keep);
    certificateOf.keySet().removeIf(s -> s <= upTo && s != keep);
    votedPrepare.removeIf(s -> s <= upTo);
    reported.removeIf(s -> s <= upTo);
  }

  // ---------------------------------------------------------------- messages

  @Override
  protected byte[] slot(AsyncKind type, byte[] payload) {
    return type == Type.SWITCH ? ONE_PER_INSTANCE : null;
  }

  /** SWITCH travels on the epoch's own instance; the lane's messages on their slot's ({@link Slot}). */
  @Override
  protected void onMessage(int sender, int type, byte[] payload) {
    if (AsyncKind.of(Type.class, type, "hybrid lane") != Type.SWITCH) {
      throw new DecodeException("hybrid lane message type " + type + " outside a slot");
    }
    onSwitch(sender, LaneSwitch.decode(payload, ctx.n(), maxBatch));
  }

  /** A PROPOSE, PREPARE or COMMIT of slot seq: its seq must be the slot's. */
  private void onSlot(int sender, long seq, int type, byte[] payload) {
    switch (AsyncKind.of(Type.class, type, "hybrid lane")) {
      case PROPOSE -> {
        LaneProposal p = LaneProposal.decode(payload, maxBatch);
        checkSlot(seq, p.batch().seq());
        onPropose(sender, p);
      }
      case PREPARE -> {
        LaneVote v = LaneVote.decode(payload);
        checkSlot(seq, v.seq());
        onPrepare(sender, v);
      }
      case COMMIT -> {
        LaneVote v = LaneVote.decode(payload);
        checkSlot(seq, v.seq());
        onCommit(sender, v);
      }
      default -> throw new DecodeException("SWITCH on slot " + seq);
    }
  }

  private static void checkSlot(long slot, long seq) {
    if (slot != seq) {
      throw new DecodeException("seq " + seq + " on slot " + slot);
    }
  }

  private void slotcast(long seq, Type type, byte[] payload) {
    ctx.multicast(pid.child(seq), type.code(), payload, ONE_PER_INSTANCE);
  }

  /**
   * One slot of the lane, {@code pid/s}: its own instance so that the router drops late messages once the
   * slot is delivered and the context forgets what was sent and received for it (bounded memory in an epoch
   * that lasts, as the asynchronous channel's rounds are).
   */
  private static final class Slot extends Protocol {
    private final Epoch epoch;
    private final long seq;

    Slot(Epoch epoch, long seq) {
      super(epoch.ctx, epoch.pid.child(seq));
      this.epoch = epoch;
      this.seq = seq;
    }

    @Override
    protected void onMessage(int sender, int type, byte[] payload) {
      epoch.onSlot(sender, seq, type, payload);
    }
  }

  /** A slot of some epoch's lane, {@code hyb/e/s}: not an epoch itself (where SWITCH travels) nor its agreement. */
  static boolean isSlot(Pid pid) {
    Pid epoch = pid.parent();
    String last = pid.segments().get(pid.segments().size() - 1);
    return epoch != null && HybridReplica.ROOT.equals(epoch.parent()) && last.chars().allMatch(Character::isDigit);
  }

  private boolean inWindow(long seq) {
    return seq > base && seq > host.delivered() - window && seq <= host.delivered() + window;
  }

  private void onPropose(int sender, LaneProposal proposal) {
    LaneBatch b = proposal.batch();
    if (sender != leader) {
      evidence(sender, "PROPOSE from a replica that does not lead epoch " + number);
      return;
    }
    if (!inWindow(b.seq())) {
      return; // out of the window: the leader resends it on a stalled tick if it still matters
    }
    LaneBatch before = proposals.get(b.seq());
    if (before != null) {
      if (!Arrays.equals(before.digest(), b.digest())) {
        evidence(sender, "two batches proposed for seq " + b.seq() + " in epoch " + number);
      } else if (record(sender, b.seq(), b.digest(), proposal.share()) != null) {
        checkPrepared(b.seq()); // the batch was fetched by others' prepares before the leader's PROPOSE came
      }
      return;
    }
    for (byte[] p : b.payloads()) {
      if (!host.validPayload(p)) {
        evidence(sender, "invalid request in the batch proposed for seq " + b.seq());
        return;
      }
    }
    record(sender, b.seq(), b.digest(), proposal.share()); // the leader's prepare, verified as others' are
    accept(b);
  }

  /** A batch of this epoch (from the leader, or fetched by a certified digest). */
  private void accept(LaneBatch b) {
    proposals.put(b.seq(), b);
    host.store(b);
    vote(b.seq());
    checkPrepared(b.seq());
  }

  /** A fetched batch: used if its digest is the one prepares or the chain name at its seq. */
  void supply(LaneBatch b) {
    if (proposals.containsKey(b.seq()) || !inWindow(b.seq())) {
      return;
    }
    var byDigest = prepares.getOrDefault(b.seq(), Map.of());
    Map<Integer, byte[]> shares = byDigest.get(ByteBuffer.wrap(b.digest()));
    if (shares != null && shares.size() >= quorum) {
      accept(b);
    }
  }

  /**
   * A backup's PREPARE, once per seq, only on the prepared chain (the lock BDT's Transformer reads), never
   * after SWITCH. The leader sends none: its PROPOSE carries its share. That share needs no chain check of its
   * own: a correct leader proposes one batch per seq, each on its own proposal before it, and correct replicas
   * prepare only its proposals, so every certificate at s−1 names the {@code prev} its share at s chains on.
   */
  private void vote(long seq) {
    LaneBatch b = proposals.get(seq);
    if (switched || isLeader() || b == null || votedPrepare.contains(seq) || !chainsOn(b)) {
      return;
    }
    votedPrepare.add(seq);
    byte[] d = b.digest();
    slotcast(seq, Type.PREPARE, new LaneVote(seq, d, prepareShare(seq, d)).encode());
  }

  /** On the prepared chain, or on the batch delivered at seq−1 (committed is stronger than prepared). */
  private boolean chainsOn(LaneBatch b) {
    byte[] before = b.seq() - 1 == base ? baseDigest : prepared.get(b.seq() - 1);
    if (before == null) {
      before = host.deliveredDigest(b.seq() - 1);
    }
    return before != null && Arrays.equals(before, b.prev());
  }

  private void onPrepare(int sender, LaneVote v) {
    if (!inWindow(v.seq()) || v.share().length == 0) {
      return;
    }
    Map<Integer, byte[]> shares = record(sender, v.seq(), v.digest(), v.share());
    if (shares == null) {
      return;
    }
    if (shares.size() >= quorum && !proposals.containsKey(v.seq())) {
      LaneBatch held = host.held(v.digest());
      if (held != null && held.seq() == v.seq()) {
        accept(held);
      } else {
        host.fetch(v.seq(), v.digest());
      }
    }
    checkPrepared(v.seq());
  }

  /**
   * The sender's prepare share on (seq, digest), a PREPARE's or the leader's in its PROPOSE: the shares now held
   * on that digest, or null if the sender had one at seq already (on another digest: evidence). Its share is
   * verified once it is needed: {@link #certificateShares}.
   */
  private Map<Integer, byte[]> record(int sender, long seq, byte[] digest, byte[] share) {
    ByteBuffer d = ByteBuffer.wrap(digest);
    ByteBuffer before = prepareOf.computeIfAbsent(seq, k -> new HashMap<>()).get(sender);
    if (before != null) {
      if (!before.equals(d)) {
        evidence(sender, "two PREPAREs for seq " + seq + " in epoch " + number);
      }
      return null;
    }
    prepareOf.get(seq).put(sender, d);
    Map<Integer, byte[]> shares = prepares.computeIfAbsent(seq, k -> new HashMap<>())
        .computeIfAbsent(d, k -> new HashMap<>());
    shares.put(sender, share);
    return shares;
  }

  /** Prepared at seq: the batch, q prepares on its digest, and prepared at seq−1 on its predecessor. */
  private void checkPrepared(long seq) {
    for (long s = seq; !prepared.containsKey(s); s++) {
      LaneBatch b = proposals.get(s);
      if (b == null || !chainsOn(b)) {
        return;
      }
      byte[] d = b.digest();
      Map<Integer, byte[]> shares = certificateShares(s, d);
      if (shares == null) {
        return;
      }
      prepared.put(s, d);
      certificateOf.put(s, certificates.combine(pid.bind("prepare", LaneVote.prepared(s, d)), shares));
      if (!switched) {
        slotcast(s, Type.COMMIT, new LaneVote(s, d, new byte[0]).encode());
      }
      vote(s + 1);
    }
  }

  /**
   * q prepare shares on (seq, d) that verify, this replica's own first, or null. A PREPARE, or the leader's
   * PROPOSE, counts by its authenticated sender; its share is checked only here, where it goes into the
   * certificate a SWITCH shows to others, and only as many as the certificate holds (Castro-Liskov TOCS 2002
   * §3.2 check prepares' signatures where they form the prepared certificate, as {@code pbft.VoteAuthentication}
   * does). A bad share is its sender's fault (the envelope was authentic): dropped and named, and the slot waits
   * for another (a leader's PROPOSE with a bad share still gives the batch, but is not its prepare). A replica
   * is prepared, and commits, only on a certificate that verifies, so the safety argument's prepared
   * replicas each hold one (docs/design/hybrid.md).
   */
  private Map<Integer, byte[]> certificateShares(long seq, byte[] d) {
    Map<Integer, byte[]> shares = prepares.getOrDefault(seq, Map.of()).get(ByteBuffer.wrap(d));
    if (shares == null || shares.size() < quorum) {
      return null;
    }
    Set<Integer> verified = verifiedShares.computeIfAbsent(seq, k -> new HashSet<>());
    Map<Integer, byte[]> good = new TreeMap<>();
    List<Integer> senders = new ArrayList<>(new TreeMap<>(shares).keySet());
    senders.sort((a, b) -> Boolean.compare(b == ctx.id(), a == ctx.id())); // own first
    byte[] signed = pid.bind("prepare", LaneVote.prepared(seq, d));
    for (int j : senders) {
      if (good.size() >= quorum) {
        break;
      }
      if (j == ctx.id() || verified.contains(j)) {
        good.put(j, shares.get(j));
      } else if (ctx.verify(j, signed, shares.get(j))) {
        verified.add(j);
        good.put(j, shares.get(j));
      } else {
        shares.remove(j); // not a prepare; the sender (a leader, by its PROPOSE) counts no other at seq
        evidence(j, "bad " + (j == leader ? "PROPOSE" : "PREPARE") + " share for seq " + seq);
      }
    }
    return good.size() >= quorum ? good : null;
  }

  private void onCommit(int sender, LaneVote v) {
    if (!inWindow(v.seq()) || !commitOf.computeIfAbsent(v.seq(), k -> new HashSet<>()).add(sender)) {
      return;
    }
    Set<Integer> voters = commits.computeIfAbsent(v.seq(), k -> new HashMap<>())
        .computeIfAbsent(ByteBuffer.wrap(v.digest()), k -> new HashSet<>());
    voters.add(sender);
    if (voters.size() >= quorum && reported.add(v.seq())) {
      host.committed(v.seq(), v.digest());
    }
  }

  // ---------------------------------------------------------------- the switch (BDT's Transformer)

  /** Leaves the fast lane: SWITCH with the highest prepared slot and its certificate, and a few requests. */
  void switchNow() {
    if (switched) {
      return;
    }
    switched = true;
    long high = highestPrepared();
    byte[] d = high == base ? baseDigest : prepared.get(high);
    byte[] cert = high == base ? new byte[0] : certificateOf.get(high);
    List<byte[]> batch = host.switchBatch();
    byte[] sig = ctx.sign(pid.bind("switch", LaneSwitch.signed(high, d, batch)));
    multicast(Type.SWITCH, new LaneSwitch(ctx.id(), high, d, cert, batch, sig).encode());
  }

  private void onSwitch(int sender, LaneSwitch sw) {
    LaneSwitch before = switches.get(sender);
    if (before != null && sw.signer() == sender && !Arrays.equals(before.encode(), sw.encode()) && validSwitch(sw)) {
      evidence(sender, "two SWITCHes in epoch " + number); // a correct replica leaves an epoch's lane once
    }
    if (sw.signer() != sender || before != null) {
      return;
    }
    if (!validSwitch(sw)) {
      evidence(sender, "invalid SWITCH in epoch " + number);
      return;
    }
    switches.put(sender, sw);
    if (switches.size() >= ctx.f() + 1) {
      switchNow(); // Castro-Liskov §4.5.2: f+1 include a correct replica
    }
    proposeFallback();
  }

  /** Signed by its signer, its slot certified in this epoch (or the base), its requests valid. */
  private boolean validSwitch(LaneSwitch sw) {
    if (sw.high() < base || sw.batch().size() > maxBatch
        || !ctx.verify(sw.signer(), pid.bind("switch", sw.signed()), sw.signature())) {
      return false;
    }
    boolean certified = sw.high() == base ? Arrays.equals(sw.highDigest(), baseDigest) && sw.certificate().length == 0
        : certificates.verify(pid.bind("prepare", LaneVote.prepared(sw.high(), sw.highDigest())), sw.certificate());
    return certified && sw.batch().stream().allMatch(host::validPayload);
  }

  /** n−f SWITCHes, this replica's among them, go to the agreement once. */
  private void proposeFallback() {
    int needed = ctx.n() - ctx.f();
    if (!switched || proposedFallback || switches.size() < needed || !switches.containsKey(ctx.id())) {
      return;
    }
    proposedFallback = true;
    List<LaneSwitch> chosen = new ArrayList<>();
    chosen.add(switches.get(ctx.id()));
    for (LaneSwitch sw : switches.values()) {
      if (chosen.size() < needed && sw.signer() != ctx.id()) {
        chosen.add(sw);
      }
    }
    chosen.sort((a, b) -> Integer.compare(a.signer(), b.signer()));
    agreement.propose(new FallbackVector(chosen).encode());
  }

  /** The agreement's external validity: n−f valid SWITCHes of this epoch, distinct signers ascending. */
  private boolean validVector(byte[] value) {
    FallbackVector v;
    try {
      v = FallbackVector.decode(value, ctx.n(), maxBatch);
    } catch (DecodeException e) {
      return false;
    }
    if (v.switches().size() != ctx.n() - ctx.f()) {
      return false;
    }
    int last = -1;
    for (LaneSwitch sw : v.switches()) {
      if (sw.signer() <= last || !validSwitch(sw)) {
        return false;
      }
      last = sw.signer();
    }
    return true;
  }

  /** Votes held (prepares and commits, per seq and sender): at most 2 n per slot of the window. */
  int votes() {
    int total = 0;
    for (Map<Integer, ByteBuffer> bySender : prepareOf.values()) {
      total += bySender.size();
    }
    for (Set<Integer> bySender : commitOf.values()) {
      total += bySender.size();
    }
    return total;
  }

  /** Per-seq entries held (batches, votes, prepared slots, certificates, marks): bounded by the window. */
  int entries() {
    int total = votes() + votedPrepare.size() + reported.size() + prepared.size() + certificateOf.size();
    for (Map<ByteBuffer, Map<Integer, byte[]>> byDigest : prepares.values()) {
      for (Map<Integer, byte[]> shares : byDigest.values()) {
        total += shares.size();
      }
    }
    for (Map<ByteBuffer, Set<Integer>> byDigest : commits.values()) {
      for (Set<Integer> voters : byDigest.values()) {
        total += voters.size();
      }
    }
    return total + proposals.size();
  }

  String describe() {
    return "epoch=" + number + " leader=" + leader + " base=" + base + " prepared=" + highestPrepared()
        + " switched=" + switched + " switches=" + switches.keySet() + " mvba=" + agreement.describe();
  }
}
