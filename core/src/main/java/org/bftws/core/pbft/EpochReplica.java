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
  private final EpochChange epochs;
  private Replica inner;
  private Membership innerMembership;
  /** Per seq handed out with reconfigurations: their positions in the batch and their replies. */
  private final TreeMap<Long, TreeMap<Integer, byte[]>> verdicts = new TreeMap<>();
  private String stopped;
  private Start start;
  /** How many epoch boundaries a replica keeps to bring members of earlier epochs across (each with its state). */
  static final int KEPT_STARTS = 4;

  /** A boundary this replica crossed as a member of the epoch before it: where the next began, and the state. */
  private record Kept(Start start, Checkpoints.Parts parts) {}

  /** The last {@link #KEPT_STARTS} boundaries this replica crossed as a member of both epochs, oldest first. */
  private final List<Kept> kept = new ArrayList<>();
  /** Ticks, and per member of the previous epoch when it was last served the checkpoint this epoch began at. */
  private long now;
  private final Map<Integer, Long> servedPrevious = new java.util.HashMap<>();

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
    this.epochs = new EpochChange(membership, setup.admins(), setup.groupId(), setup.base().checkpointInterval());
    start(membership);
  }

  private void start(Membership m) {
    inner = Replica.builder(m.config(setup.base()), m.indexOf(self), EpochSigning.signer(m.epoch(), setup.key()),
        EpochSigning.verifier(m, setup.clients())).epochBoundaries(Reconfigure::isReconfigure).build();
    innerMembership = m;
  }

  /**
   * The first step of a replica joining its epoch (built with that epoch's membership): the previous epoch's
   * last checkpoint is stable, and the replica fetches it by state transfer (Castro-Liskov §4.3).
   */
  public Ready join(Start from) {
    if (from.previous().epoch() + 1 != innerMembership.epoch()) {
      throw new IllegalArgumentException("epoch " + innerMembership.epoch() + " does not follow " + from.previous());
    }
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
    if (inner == null) {
      return new Ready();
    }
    Ready answer = answerPreviousEpoch(bytes);
    return answer != null ? answer : step(inner.receive(bytes));
  }

  @Override
  public Ready tick() {
    now++;
    return inner == null ? new Ready() : step(inner.tick());
  }

  /**
   * A member of an earlier epoch that missed its end (its peers moved on and no longer answer in that epoch) is
   * brought across it by any member of a later epoch that was a member of that one: to its STATUS (sent every few
   * rounds, TOCS 2002 §5.2) it gets the quorum of checkpoint votes that ended its epoch, so that checkpoint becomes
   * stable there; to its FETCH-STATE, the checkpoint's state with that proof, signed as this replica's index in
   * that epoch (Castro-Liskov §4.3's state transfer, across the boundary). At most once per retransmission
   * interval per member; the last {@link #KEPT_STARTS} boundaries are kept, so a member several epochs behind
   * crosses them one by one. Null for any other message.
   */
  private Ready answerPreviousEpoch(byte[] bytes) {
    if (kept.isEmpty()) {
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
    for (int k = kept.size() - 1; k >= 0; k--) {
      Kept b = kept.get(k);
      Membership prev = b.start().previous();
      long begun = k == 0 ? -1 : kept.get(k - 1).start().seq();
      if (seq > b.start().seq() || seq < begun || s.sender() < 0 || s.sender() >= prev.n()
          || !s.verify(EpochSigning.verifier(prev, setup.clients()))) {
        continue;
      }
      return answerFrom(b, prev.member(s.sender()).id(), s.kind());
    }
    return null;
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
    if (next.indexOf(self) < 0) {
      inner = null;
      stopped = "removed from the group by " + next;
      return;
    }
    start(next);
    start = from;
    kept.add(new Kept(from, parts));
    if (kept.size() > KEPT_STARTS) {
      kept.remove(0);
    }
    append(out, translate(inner.beginEpoch(genesis(from), parts, from.proof()), next));
    for (Signed q : pending) {
      append(out, translate(inner.receive(q.encode()), next));
    }
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
