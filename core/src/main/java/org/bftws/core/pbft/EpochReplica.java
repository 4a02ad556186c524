package org.bftws.core.pbft;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;
import org.bftws.core.codec.DecodeException;
import org.bftws.core.config.GroupConfig;
import org.bftws.core.crypto.Signer;
import org.bftws.core.crypto.Verifier;
import org.bftws.core.engine.CoinProof;
import org.bftws.core.engine.Effect;
import org.bftws.core.engine.Engine;
import org.bftws.core.engine.Ready;
import org.bftws.core.message.FetchState;
import org.bftws.core.message.Kind;
import org.bftws.core.message.Request;
import org.bftws.core.message.Signed;
import org.bftws.core.message.StateTransfer;
import org.bftws.core.message.Status;
import org.bftws.core.reconfig.Administrators;
import org.bftws.core.reconfig.EpochChange;
import org.bftws.core.reconfig.EpochSigning;
import org.bftws.core.reconfig.Membership;
import org.bftws.core.reconfig.MembershipCertificate;
import org.bftws.core.reconfig.MembershipChain;
import org.bftws.core.reconfig.Reconfigure;
import org.bftws.core.replication.Checkpoints;

/**
 * A PBFT replica whose group's membership changes while it runs (docs/design/reconfiguration.md): one {@link
 * Replica} per membership epoch, each with the epoch's n, f, quorum and primary and with signatures bound to the
 * epoch ({@link EpochSigning}), so nothing of an old epoch counts in a new one.
 *
 * <ul>
 *   <li>RECONFIGURE requests ({@link Reconfigure#isReconfigure}) never reach the service: {@link EpochChange}
 *       judges each where it executes and its reply is the verdict; an accepted one makes c, the first
 *       checkpoint seq at or above it, the epoch's last seq, and no batch above c executes in this epoch.
 *   <li>The membership state travels in every checkpoint, before the application's state, so a replica that
 *       catches up by state transfer (Castro-Liskov §4.3) learns a pending change with the state.
 *   <li>When the checkpoint at c is stable (§4.3) and held whole, the replica of the next epoch starts from it
 *       ({@link Replica#beginEpoch}) in view 0 and takes over the requests still pending; a removed replica
 *       stops. A joining replica is built for its epoch and fetches the checkpoint at c by state transfer.
 *   <li>Messages go to stable ids: an inner replica's index i, and each of its multicasts, are mapped to the
 *       members of its epoch; other node ids (clients) are left as they are, so clients' node ids must lie
 *       apart from replicas' stable ids.
 * </ul>
 *
 * Configuration I only, without randomness, authenticators or a journal (not yet, docs/status.md).
 */
public final class EpochReplica implements Engine {
  /** What every epoch's replica is built with. */
  public record Setup(GroupConfig base, Administrators admins, byte[] groupId, Signer key, Verifier clients) {}

  /**
   * Where an epoch began: the previous membership and its last checkpoint (seq, digest, and the proof by a
   * quorum of the previous epoch). A joining replica starts from it ({@link #join}); the previous membership is
   * the one the certificate chain leads to before the joiner's epoch (docs/design/reconfiguration.md).
   */
  public record Start(Membership previous, long seq, byte[] digest, List<Signed> proof) {}

  private final Setup setup;
  private final int self;
  private EpochChange epochs;
  private Replica inner;
  private Membership innerMembership;
  /** Per seq handed out with reconfigurations: their positions in the batch and their replies. */
  private final TreeMap<Long, TreeMap<Integer, byte[]>> verdicts = new TreeMap<>();
  private String stopped;
  private Start start;
  /** A boundary this replica crossed as a member of the epoch before it: where the next began, and the state. */
  private record Kept(Start start, Checkpoints.Parts parts) {}

  /**
   * The last boundary this replica crossed as a member of both epochs (null: none), to bring a member one epoch
   * behind across it; one further behind is brought to the present by the membership chain ({@link #catchUp}).
   */
  private Kept kept;
  /** Ticks, and per member of the previous epoch when it was last served the checkpoint this epoch began at. */
  private long now;
  private final Map<Integer, Long> servedPrevious = new java.util.HashMap<>();
  /** The memberships this replica knows, from epoch 0 (or where an operator started it), with their certificates. */
  private MembershipChain chain;
  /** The newest epoch whose membership this replica signed as a member of the epoch before. */
  private long signedEpoch = -1;
  /** When this replica last offered its newest link to its peers, and per stable id when it last answered one. */
  private long lastOffered;
  private final Map<Integer, Long> chainAnswered = new java.util.HashMap<>();

  /**
   * Member {@code self} (a stable id) of {@code membership}: epoch 0 at the group's start, or a later epoch for a
   * joining replica (which then gets the state by state transfer).
   */
  public EpochReplica(Setup setup, Membership membership, int self) {
    if (membership.indexOf(self) < 0) {
      throw new IllegalArgumentException("replica " + self + " is no member of " + membership);
    }
    this.setup = setup;
    this.self = self;
    this.epochs = epochChange(membership);
    this.chain = new MembershipChain(membership);
    start(membership);
  }

  private EpochChange epochChange(Membership m) {
    return new EpochChange(m, setup.admins(), setup.groupId(), setup.base().checkpointInterval());
  }

  private void start(Membership m) {
    inner = replicaOf(m);
    innerMembership = m;
  }

  private Replica replicaOf(Membership m) {
    return Replica.builder(m.config(setup.base()), m.indexOf(self), EpochSigning.signer(m.epoch(), setup.key()),
        EpochSigning.verifier(m, setup.clients())).epochBoundaries(Reconfigure::isReconfigure).build();
  }

  /**
   * The first step of a replica joining its epoch (built with that epoch's membership): the previous epoch's
   * last checkpoint is stable, and the replica fetches it by state transfer (Castro-Liskov §4.3). {@code given}
   * is the chain of membership certificates an operator hands it with the start (a member's {@link #chain}),
   * leading to the previous membership; the link into this epoch may still lack signatures, which the replica
   * collects from its peers.
   */
  public Ready join(Start from, MembershipChain given) {
    if (from.previous().epoch() + 1 != innerMembership.epoch()) {
      throw new IllegalArgumentException("epoch " + innerMembership.epoch() + " does not follow " + from.previous());
    }
    MembershipChain c = given.copy();
    if (!from.previous().equals(c.at(from.previous().epoch())) || !c.expect(innerMembership)) {
      throw new IllegalArgumentException("the " + c + " does not lead to " + innerMembership);
    }
    chain = c;
    start = from;
    return step(inner.joinEpoch(genesis(from), from.digest(), from.proof()));
  }

  private Checkpoints.Genesis genesis(Start s) {
    return new Checkpoints.Genesis(s.seq(), s.previous().config(setup.base()),
        EpochSigning.verifier(s.previous(), setup.clients()));
  }

  // ---------------------------------------------------------------- inputs

  @Override
  public Ready receive(byte[] bytes) {
    if (ChainMessage.is(bytes)) {
      return onChain(bytes);
    }
    if (inner == null) {
      return new Ready();
    }
    Ready answer = answerPreviousEpoch(bytes);
    return answer != null ? answer : step(inner.receive(bytes));
  }

  @Override
  public Ready tick() {
    now++;
    if (inner == null) {
      return new Ready();
    }
    Ready out = step(inner.tick());
    if (now - lastOffered >= setup.base().get(GroupConfig.RETRANSMIT_INTERVAL)) {
      offerNewestLink(out);
    }
    return out;
  }

  /**
   * A member of an earlier epoch that missed its end (its peers moved on and no longer answer in that epoch) is
   * brought across it by any member of a later epoch that was a member of that one: to its STATUS (sent every few
   * rounds, TOCS 2002 §5.2) it gets the quorum of checkpoint votes that ended its epoch, so that checkpoint becomes
   * stable there; to its FETCH-STATE, the checkpoint's state with that proof, signed as this replica's index in
   * that epoch (Castro-Liskov §4.3's state transfer, across the boundary). At most once per retransmission
   * interval per member; only across the last boundary crossed, so only a member one epoch behind (the requests
   * it holds carried into the next epoch). Null for any other message.
   */
  private Ready answerPreviousEpoch(byte[] bytes) {
    if (kept == null) {
      return null;
    }
    Signed s;
    long seq;
    try {
      s = Signed.decode(bytes);
      if (s.kind() == Kind.FETCH_STATE) {
        seq = FetchState.decode(s.body()).seq();
      } else if (s.kind() == Kind.STATUS) {
        seq = Status.decode(s.body()).lastExecuted();
      } else {
        return null;
      }
    } catch (DecodeException e) {
      return null;
    }
    Membership prev = kept.start().previous();
    if (seq > kept.start().seq() || s.sender() < 0 || s.sender() >= prev.n()
        || !s.verify(EpochSigning.verifier(prev, setup.clients()))) {
      return null;
    }
    return answerFrom(kept, prev.member(s.sender()).id(), s.kind());
  }

  private Ready answerFrom(Kept b, int to, Kind asked) {
    Ready out = new Ready();
    Long last = servedPrevious.get(to);
    if (last != null && now - last < setup.base().get(GroupConfig.RETRANSMIT_INTERVAL)) {
      return out;
    }
    servedPrevious.put(to, now);
    Start start = b.start();
    if (asked == Kind.STATUS) {
      for (Signed vote : start.proof()) {
        out.messages.add(new Ready.Outbound(to, vote.encode()));
      }
      return out;
    }
    Membership prev = start.previous();
    byte[] body = new StateTransfer(start.seq(), b.parts().ordering(), b.parts().execution(), start.proof()).encode();
    Signed state = Signed.sign(Kind.STATE, prev.indexOf(self), body, EpochSigning.signer(prev.epoch(), setup.key()));
    out.messages.add(new Ready.Outbound(to, state.encode()));
    return out;
  }

  /** The service's results for the requests it was given, with the reconfigurations' verdicts put back. */
  @Override
  public Ready executed(long seq, List<byte[]> results) {
    if (inner == null) {
      return new Ready();
    }
    TreeMap<Integer, byte[]> mine = verdicts.remove(seq);
    List<byte[]> all = new ArrayList<>(results);
    if (mine != null) {
      for (Map.Entry<Integer, byte[]> v : mine.entrySet()) {
        all.add(v.getKey(), v.getValue());
      }
    }
    return step(inner.executed(seq, all));
  }

  /** The application's state, after the membership state (what the checkpoint at seq holds). */
  @Override
  public Ready stateCaptured(long seq, byte[] appState) {
    if (inner == null) {
      return new Ready();
    }
    return step(inner.stateCaptured(seq, withMembership(appState)));
  }

  private byte[] withMembership(byte[] appState) {
    return new ByteWriter(appState.length + 512).bytes(epochs.encode()).bytes(appState).toBytes();
  }

  /** The application's part of an installed state, whose membership part replaces this replica's. */
  private byte[] restoreMembership(byte[] innerState) {
    ByteReader r = new ByteReader(innerState);
    byte[] membership = r.bytes();
    byte[] app = r.bytes();
    r.end();
    epochs.restore(membership);
    return app;
  }

  // ---------------------------------------------------------------- the inner replica's output

  private Ready step(Ready in) {
    long endsBefore = epochs.lastSeq();
    Ready out = translate(in, innerMembership);
    if (epochs.lastSeq() != endsBefore && epochs.pending() != null) {
      append(out, translate(inner.endEpochAt(epochs.lastSeq()), innerMembership));
    }
    signPending(out);
    maybeBeginNextEpoch(out);
    return out;
  }

  private Ready translate(Ready in, Membership m) {
    Ready out = new Ready();
    int own = m.indexOf(self);
    for (Ready.Outbound o : in.messages) {
      if (o.to() == Ready.ALL_REPLICAS) {
        for (int i = 0; i < m.n(); i++) {
          if (i != own) {
            out.messages.add(new Ready.Outbound(m.member(i).id(), o.bytes()));
          }
        }
      } else {
        out.messages.add(new Ready.Outbound(o.to() >= 0 && o.to() < m.n() ? m.member(o.to()).id() : o.to(), o.bytes()));
      }
    }
    out.events.addAll(in.events);
    out.persist.addAll(in.persist);
    for (Effect e : in.effects) {
      if (e instanceof Effect.Execute ex) {
        if (epochs.executes(ex.seq())) {
          out.effects.add(withoutReconfigurations(ex));
        }
      } else if (e instanceof Effect.InstallState is) {
        out.effects.add(new Effect.InstallState(is.seq(), restoreMembership(is.appState())));
        if (epochs.pending() != null && epochs.pending().epoch() == m.epoch()) {
          epochs.onStable(epochs.lastSeq()); // a joiner installed the checkpoint its epoch begins at
        }
      } else {
        out.effects.add(e);
      }
    }
    return out;
  }

  /** The batch without its reconfigurations, each judged here (in order) with its verdict kept for its reply. */
  private Effect.Execute withoutReconfigurations(Effect.Execute ex) {
    List<Request> requests = new ArrayList<>();
    List<byte[]> randoms = new ArrayList<>();
    List<CoinProof> coins = new ArrayList<>();
    TreeMap<Integer, byte[]> mine = new TreeMap<>();
    for (int i = 0; i < ex.requests().size(); i++) {
      Request q = ex.requests().get(i);
      if (Reconfigure.isReconfigure(q.operation())) {
        mine.put(i, epochs.execute(ex.seq(), q.operation()).reply());
      } else {
        requests.add(q);
        randoms.add(ex.randoms().get(i));
        coins.add(ex.coins().get(i));
      }
    }
    if (mine.isEmpty()) {
      return ex;
    }
    verdicts.put(ex.seq(), mine);
    return new Effect.Execute(ex.seq(), ex.view(), ex.batchDigest(), requests, randoms, coins);
  }

  /**
   * The checkpoint at the epoch's last seq is stable and held whole: the next epoch's replica begins from it, with
   * the requests still pending here; a replica the next epoch does not list stops.
   */
  private void maybeBeginNextEpoch(Ready out) {
    long c = epochs.lastSeq();
    if (inner == null || epochs.pending() == null || inner.stableCheckpoint() != c || inner.stableParts() == null) {
      return;
    }
    Checkpoints.Parts parts = inner.stableParts();
    Start from = new Start(innerMembership, c, inner.stableDigest(), inner.stableProof());
    List<Signed> pending = inner.carriedRequests();
    Membership next = epochs.onStable(c);
    chain.expect(next);
    if (next.indexOf(self) < 0) {
      inner = null;
      stopped = "removed from the group by " + next;
      return;
    }
    start(next);
    start = from;
    kept = new Kept(from, parts);
    append(out, translate(inner.beginEpoch(genesis(from), parts, from.proof()), next));
    for (Signed q : pending) {
      append(out, translate(inner.receive(q.encode()), next));
    }
  }

  // ---------------------------------------------------------------- the membership chain

  /**
   * A member of the current epoch that knows the next membership (it executed the reconfiguration, or learned it
   * with a checkpoint's state) signs it once and offers the link to the members of both epochs, so that a quorum
   * of the current epoch's signatures makes its membership certificate.
   */
  private void signPending(Ready out) {
    Membership next = epochs.pending();
    int index = epochs.current().indexOf(self);
    if (next == null || index < 0 || next.epoch() <= signedEpoch || !chain.expect(next)) {
      return;
    }
    chain.sign(next.epoch(), index, setup.key());
    signedEpoch = next.epoch();
    offerNewestLink(out);
  }

  /**
   * Every retransmission interval (and once signed), the newest link this replica holds, with the signatures it
   * collected, to the members of the newest epoch it knows and of the one before: peers merge the signatures,
   * and one that knows more answers ({@link #answerChain}). This is also how a replica many epochs behind finds
   * out: it offers its newest link to the members it knows, and they answer with the links it lacks.
   */
  private void offerNewestLink(Ready out) {
    lastOffered = now;
    Membership newest = chain.newest();
    byte[] bytes = ChainMessage.of(self, innerMembership.epoch(), chain.linksFrom(newest.epoch()), null)
        .encode(setup.key());
    java.util.Set<Integer> to = new java.util.TreeSet<>();
    newest.members().forEach(m -> to.add(m.id()));
    Membership before = chain.at(newest.epoch() - 1);
    if (before != null) {
      before.members().forEach(m -> to.add(m.id()));
    }
    to.remove(self);
    for (int id : to) {
      out.messages.add(new Ready.Outbound(id, bytes));
    }
  }

  /** A peer's links (each verified on its own), and, when this replica is far behind, perhaps a jump. */
  private Ready onChain(byte[] bytes) {
    Signed envelope;
    ChainMessage m;
    try {
      envelope = Signed.decode(bytes);
      m = ChainMessage.decode(envelope);
    } catch (DecodeException e) {
      return new Ready();
    }
    for (MembershipCertificate c : m.links()) {
      chain.offer(c);
    }
    Ready out = new Ready();
    if (inner != null) {
      catchUp(m, out);
    }
    if (m.authentic(envelope, chain)) {
      answerChain(m, out);
    }
    return out;
  }

  /**
   * A replica two or more epochs behind what its verified chain shows (it missed the ends of those epochs, and
   * their members moved on) leaves its epoch: when a later epoch no longer lists it, it stops and says so; else
   * it joins the epoch of a peer that sent where that epoch began, fetching the state by state transfer
   * (Castro-Liskov §4.3), as a joining replica does. One epoch behind, it is brought across that epoch's end
   * instead ({@link #answerPreviousEpoch}), keeping the requests it holds.
   */
  private void catchUp(ChainMessage m, Ready out) {
    long current = innerMembership.epoch();
    Membership newest = chain.newest();
    if (newest.epoch() < current + 2) {
      return;
    }
    for (long e = current + 1; e <= newest.epoch(); e++) {
      if (chain.at(e).indexOf(self) < 0) {
        inner = null;
        stopped = "removed from the group by " + chain.at(e) + " (learned in epoch " + current
            + " from the chain of membership certificates)";
        return;
      }
    }
    if (!m.hasStart() || m.epoch() < current + 2 || m.epoch() > newest.epoch()) {
      return;
    }
    Membership target = chain.at(m.epoch());
    Start from = m.start(chain.at(m.epoch() - 1));
    Replica fresh = replicaOf(target);
    Ready first;
    try {
      first = fresh.joinEpoch(genesis(from), from.digest(), from.proof());
    } catch (IllegalArgumentException e) {
      return; // a start whose proof is not a quorum of the epoch before: nothing changes
    }
    inner = fresh;
    innerMembership = target;
    epochs = epochChange(target);
    start = from;
    verdicts.clear();
    append(out, translate(first, target));
  }

  /**
   * Answers a peer that lacks what this replica holds: the links after its newest (or its newest, when this
   * replica has signatures of it that the peer lacks) and, to a replica two or more epochs behind this active
   * one, where this epoch began. Only to a sender whose signature checks as a member of the epoch it names
   * ({@code onChain}), once per retransmission interval per stable id, and only to ids the group ever handed out
   * (below the newest membership's next id), which bounds what is remembered.
   */
  private void answerChain(ChainMessage m, Ready out) {
    int to = m.sender();
    if (to == self || to < 0 || to >= chain.newest().nextId()) {
      return;
    }
    MembershipCertificate theirs = m.links().isEmpty() ? null : m.links().get(m.links().size() - 1);
    long newest = Math.max(m.epoch(), theirs == null ? -1 : theirs.next().epoch());
    MembershipCertificate mine = chain.link(newest);
    boolean moreSignatures = theirs != null && mine != null && mine.next().equals(theirs.next())
        && !theirs.signatures().keySet().containsAll(mine.signatures().keySet());
    boolean moreLinks = chain.newest().epoch() > newest && chain.complete(newest + 1);
    boolean jump = inner != null && start != null && m.epoch() + 2 <= innerMembership.epoch();
    if (!moreSignatures && !moreLinks && !jump) {
      return;
    }
    Long last = chainAnswered.get(to);
    if (last != null && now - last < setup.base().get(GroupConfig.RETRANSMIT_INTERVAL)) {
      return;
    }
    chainAnswered.put(to, now);
    List<MembershipCertificate> links = chain.linksFrom(moreSignatures ? newest : newest + 1);
    out.messages.add(new Ready.Outbound(to,
        ChainMessage.of(self, epochs.current().epoch(), links, jump ? start : null).encode(setup.key())));
  }

  private static void append(Ready to, Ready from) {
    to.messages.addAll(from.messages);
    to.effects.addAll(from.effects);
    to.events.addAll(from.events);
    to.persist.addAll(from.persist);
  }

  // ---------------------------------------------------------------- observers

  /** The current membership epoch. */
  public Membership membership() {
    return epochs.current();
  }

  /** Where the current epoch began (null in the group's first epoch, or before a joiner's {@link #join}). */
  public Start start() {
    return start;
  }

  /** A copy of the memberships this replica knows, with their certificates as collected so far. */
  public MembershipChain chain() {
    return chain.copy();
  }

  /** Why this replica stopped (removed from the group), or null while it is a member. */
  public String stopped() {
    return stopped;
  }

  @Override
  public int id() {
    return self;
  }

  @Override
  public long lastExecuted() {
    return inner == null ? -1 : inner.lastExecuted();
  }

  @Override
  public long stableCheckpoint() {
    return inner == null ? -1 : inner.stableCheckpoint();
  }

  @Override
  public int pendingRequests() {
    return inner == null ? 0 : inner.pendingRequests();
  }

  @Override
  public int clientTableEntries() {
    return inner == null ? 0 : inner.clientTableEntries();
  }

  @Override
  public long view() {
    return inner == null ? 0 : inner.view();
  }

  @Override
  public boolean hasPrimary() {
    return true;
  }

  @Override
  public boolean isActive() {
    return inner != null && inner.isActive();
  }

  @Override
  public String describe() {
    return "replica " + self + " " + epochs.current() + (inner == null ? " stopped: " + stopped : " " + inner.describe());
  }
}
