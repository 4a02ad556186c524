package org.bftws.core.hybrid;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.bftws.core.async.Context;
import org.bftws.core.async.Pid;
import org.bftws.core.codec.DecodeException;
import org.bftws.core.config.GroupConfig;
import org.bftws.core.crypto.Authenticators;
import org.bftws.core.crypto.Digests;
import org.bftws.core.crypto.Signer;
import org.bftws.core.crypto.Verifier;
import org.bftws.core.engine.Effect;
import org.bftws.core.engine.Engine;
import org.bftws.core.engine.ChannelInbox;
import org.bftws.core.engine.Event;
import org.bftws.core.engine.Journal;
import org.bftws.core.engine.Ready;
import org.bftws.core.message.Kind;
import org.bftws.core.message.Request;
import org.bftws.core.message.Signed;
import org.bftws.core.message.hybrid.FallbackVector;
import org.bftws.core.message.hybrid.LaneBatch;
import org.bftws.core.message.hybrid.LaneSwitch;
import org.bftws.core.replication.Checkpoints;
import org.bftws.core.replication.ClientRequests;
import org.bftws.core.replication.CoinConfig;
import org.bftws.core.replication.CoinHooks;
import org.bftws.core.replication.Coins;
import org.bftws.core.replication.ExecutionPipeline;
import org.bftws.core.replication.RandomizedOperations;
import org.bftws.core.replication.RequestIntake;
import org.bftws.core.replication.ConfidentialConfig;
import org.bftws.core.replication.Decryptions;

/**
 * Hybrid ordering (docs/design/hybrid.md): epochs of a leader-based fast lane (PBFT's normal case over a hash
 * chain, {@link Epoch}) and, when a lane stalls or is slower than the fallback, BDT's Transformer on SINTRA's
 * multi-valued agreement, which agrees on the highest prepared slot reported by n−f replicas, delivers the
 * chain up to it, delivers one batch of the reporters' own requests (one round of SINTRA §2.5), and starts
 * the next epoch under the next leader. Ticks decide only when a replica switches; nothing safety-relevant
 * reads them.
 *
 * <p>Each delivered batch is one seq: {@link Event.Committed} (view = its epoch), then one {@link
 * Effect.Execute} through the shared {@link ExecutionPipeline} (client table, replies, checkpoint captures
 * every {@code bftws.checkpointInterval}). Checkpoints become stable at q matching votes ({@link Checkpoints},
 * the asynchronous engine's kind, with its own tag) and garbage-collect batches and coins. Randomized
 * requests get the CT algorithm's coins once delivered ({@link Coins}, integrity paper §5), as in the
 * asynchronous engine.
 *
 * <p>Confidential requests (SINTRA §2.6, {@link Decryptions}, as the asynchronous engine's): a delivered batch's
 * TDH2 ciphertexts are checked and this replica releases its decryption shares only then, since a delivered
 * batch is final; the batch executes once each is opened or refused alike everywhere.
 *
 * <p>Journal ({@link #journaled}, {@link #recover}, {@link HybridJournal}): the stable checkpoint and every message
 * that commits it, in a lane slot or in an epoch (SWITCH, the fallback's agreement). Restarted, it reinstalls
 * the checkpoint, enters its epoch, sends in each journaled slot only what it sent there before, and leaves
 * the lane at once in an epoch it had switched in: the same correct replica, not one of the f faulty.
 *
 * <p>Not supported, refused: read-only requests (refused as evidence; the client falls back to an ordered
 * call), changing keys, agreement-only replicas and execution nodes ({@code bftws.executingReplicas}, {@code
 * bftws.executionNodes}; refused by {@link HybridReplicaBuilder#build}).
 */
public final class HybridReplica implements Engine {
  static final Pid ROOT = Pid.root("hyb");
  private static final byte[] TAG = "BFT-WS/1 hybrid checkpoint".getBytes(StandardCharsets.US_ASCII);
  private static final Set<Kind> PEER_KINDS = Set.of(Kind.CHECKPOINT, Kind.FETCH_STATE, Kind.STATE, Kind.COIN_SHARE,
      Kind.DECRYPTION_SHARE);
  /**
   * Stalled intervals in which an idle replica resends its epoch's messages because a peer switched alone: that
   * peer may have lost the commits the others delivered on, and its own resent copies are dropped unseen.
   */
  private static final int RESENDS_FOR_PEERS = 3;

  private final GroupConfig cfg;
  private final int id;
  private final int n;
  private final ChannelInbox inbox;
  private final Context ctx;
  private final ClientRequests requests;
  private final RequestIntake intake;
  private final Blocks blocks;
  private final EpochEnds ends;
  private final ExecutionPipeline execution;
  private final Checkpoints checkpoints;
  private final Coins coins;
  /** Confidential requests, opened once their batch is delivered (SINTRA §2.6). */
  private final Decryptions decryptions;
  private final LaneHost laneHost = new LaneHost();
  private Epoch epoch;
  private final PendingRequests pending = new PendingRequests(this::wanted);
  /** Fast-lane decisions (q commits) above the delivered prefix: seq to digest. */
  private final TreeMap<Long, byte[]> decisions = new TreeMap<>();
  private Fallback fallback;
  /** Where the ordering stood at the checkpoint being captured: its seq's epoch, that epoch's base, its digest. */
  private CheckpointPosition capturing;
  /** A proven checkpoint's position, from {@link Host#installedPosition} to {@link Host#installed}. */
  private CheckpointPosition installing;
  private long lastDelivered;
  /** The digest of the batch at lastDelivered (after a state transfer, the checkpoint's; null if it had none). */
  private byte[] lastDigest = new byte[Digests.LENGTH];
  private final ArrayDeque<Delivery> delivered = new ArrayDeque<>();
  private final Map<String, Long> deliveredAhead = new HashMap<>();
  private long lastExecuted;
  private long now;
  private long lastRetransmit;
  private long deliveredAtLastRetransmit = -1;
  private long epochStart;
  private long lastProgress;
  /** The tick this replica switched in the current epoch, -1 if it did not; by its own rule or drawn in by f+1. */
  private long switchedAt = -1;
  private boolean switchedByRule;
  private int resendsForPeers;
  private final SlowLeaderRule slowLeader;
  private long fallbacks;
  private boolean dirty;
  private final HybridJournal journal = new HybridJournal();
  private Ready out = new Ready();

  /** A decided fallback: the agreement's value, the vector it encodes, and D = its digest. */
  private record Fallback(Epoch epoch, FallbackVector vector, byte[] value, byte[] digest) {}

  private record Delivery(long seq, CheckpointPosition position, List<Signed> batch) {}

  /** A hybrid replica's builder ({@link HybridReplicaBuilder}): the threshold coin is required. */
  public static HybridReplicaBuilder builder(GroupConfig cfg, int id, Signer signer, Verifier verifier) {
    return new HybridReplicaBuilder(cfg, id, signer, verifier);
  }

  /** {@code macs}: null to accept every envelope by its signature ({@link HybridReplicaBuilder#macs}). */
  HybridReplica(GroupConfig cfg, int id, Signer signer, Verifier verifier, CoinConfig coin,
      RandomizedOperations operations, Authenticators macs) {
    this.cfg = cfg;
    this.id = id;
    this.n = cfg.n();
    this.slowLeader = new SlowLeaderRule(cfg.get(GroupConfig.VIEW_CHANGE_TIMEOUT));
    this.ctx = new Context(n, cfg.f(), id, signer, verifier, coin);
    if (macs != null) {
      ctx.authenticateByMac(macs, Epoch::isSlot);
    }
    this.requests = new ClientRequests(cfg, id, signer, verifier, operations);
    this.intake = new RequestIntake(requests, verifier, pending.byId());
    this.execution = new ExecutionPipeline(requests, () -> out, new ExecutionHooks(), true);
    Host host = new Host();
    this.checkpoints = Checkpoints.forEngine(cfg, id, signer, verifier, requests, TAG, host);
    this.coins = new Coins(cfg, id, signer, operations, coin, false, host);
    this.decryptions = new Decryptions(cfg, id, signer, host);
    this.inbox = new ChannelInbox(n, cfg.clientBase(), id, "a hybrid replica", PEER_KINDS, verifier,
        b -> merge(ctx.receive(b)), this::onRequest, this::onPeer, this::evidence);
    Blocks[] made = new Blocks[1];
    EpochEnds[] madeEnds = new EpochEnds[1];
    merge(ctx.input(() -> {
      made[0] = ctx.router().register(new Blocks(ctx, cfg.get(GroupConfig.MAX_BATCH_SIZE), b -> {
        if (epoch != null) {
          epoch.supply(b);
        }
        dirty = true;
      }));
      madeEnds[0] = ctx.router().register(new EpochEnds(ctx, this::endedElsewhere));
      startEpoch(0, 0, new byte[Digests.LENGTH]);
    }));
    this.blocks = made[0];
    this.ends = madeEnds[0];
  }

  /**
   * Declares the group's confidential requests and this replica's TDH2 key share (SINTRA §2.6, {@link
   * Decryptions}); before the first step, alike on every replica. Without it no request is confidential.
   */
  public HybridReplica confidentialOperations(ConfidentialConfig config) {
    decryptions.declare(config);
    return this;
  }

  /**
   * Makes this replica emit {@link Journal} records in {@link Ready#persist} ({@link HybridJournal}); before the
   * first step. Compacted as the other engines' ({@link Journal#compact}).
   */
  public HybridReplica journaled() {
    journal.start();
    checkpoints.journaled();
    ctx.journaled(HybridJournal::seqOf, HybridJournal::byView);
    return this;
  }

  /**
   * The first step of a journaled replica restarted with its journal: its committing messages are held as
   * promises ({@link Context#recover}), then the stable checkpoint is installed as a state transfer installs
   * one, taking it into the checkpoint's epoch, where it switches at once if it had switched there.
   *
   * @throws IllegalArgumentException if the journal is damaged (a record that does not decode or check out, of
   *     a type this engine never writes, at another seq than its slot's or epoch's, or two messages in a slot)
   */
  @Override
  public Ready recover(List<Journal.Record> records) {
    if (!journal.started() || now != 0 || lastDelivered != 0 || epoch.number != 0) {
      throw new IllegalStateException("recover() is the first step of a fresh, journaled replica");
    }
    Context.Recovered read = Context.read(records, "a hybrid replica", true);
    merge(ctx.input(() -> ctx.recover(read.signed())));
    if (read.stable() != null) {
      checkpoints.restore(read.stable().body());
    }
    merge(ctx.input(epoch::switchIfPromised));
    return flush();
  }

  // ---------------------------------------------------------------- inputs

  @Override
  public Ready receive(byte[] bytes) {
    inbox.receive(bytes);
    return flush();
  }

  /**
   * Retransmission as the asynchronous engine's (it decides nothing), then the switch rule: with a request
   * pending and nothing delivered for {@link #budget} ticks since the epoch began, the last delivery or the
   * oldest pending request's arrival, this replica leaves the fast lane.
   */
  @Override
  public Ready tick() {
    now++;
    if (now - lastRetransmit >= cfg.get(GroupConfig.RETRANSMIT_INTERVAL)) {
      lastRetransmit = now;
      ctx.newInterval();
      ends.newInterval();
      boolean stalled = lastDelivered == deliveredAtLastRetransmit;
      deliveredAtLastRetransmit = lastDelivered;
      boolean forPeer = epoch.peerSwitched() && resendsForPeers < RESENDS_FOR_PEERS;
      if (stalled && ((!pending.isEmpty() || epoch.switched() || fallback != null) && ctx.takingPart() || forPeer)) {
        resendsForPeers += forPeer ? 1 : 0;
        merge(ctx.retransmit());
      }
      if (stalled) {
        coins.retransmit();
        decryptions.retransmit();
        blocks.refetch();
        askHowTheEpochEnded();
      }
      checkpoints.retransmit(stalled || stuckBelowStable());
    }
    Long oldest = pending.oldestWanted();
    if (!epoch.switched() && oldest != null && waitedSince(oldest) >= slowLeader.budget()) {
      switchedByRule = true;
      merge(ctx.input(epoch::switchNow));
    }
    return flush();
  }

  /** The slow-leader rule: the switch budget, the fallback's measured cost. */
  SlowLeaderRule slowLeader() {
    return slowLeader;
  }

  /** Ticks the lane has kept a request waiting: since the epoch began, its last delivery or the request came. */
  private long waitedSince(long arrived) {
    return now - Math.max(Math.max(epochStart, lastProgress), arrived);
  }

  @Override
  public Ready executed(long seq, List<byte[]> results) {
    execution.executed(seq, results);
    return flush();
  }

  @Override
  public Ready stateCaptured(long seq, byte[] appState) {
    if (execution.stateCaptured(seq)) {
      checkpoints.own(seq, appState);
      executeDelivered();
    }
    return flush();
  }

  private void onRequest(Signed s) {
    Request q = intake.admit(s, decryptions::refusal, this::evidence, out);
    if (q != null) {
      pending.add(q.id(), s, now);
    }
  }

  private boolean wanted(byte[] payload) {
    return intake.wanted(payload, deliveredAhead);
  }

  // ---------------------------------------------------------------- epochs, delivery

  private void startEpoch(long number, long base, byte[] baseDigest) {
    epoch = ctx.router().register(new Epoch(ctx, ROOT.child(number), number, base, baseDigest,
        cfg.get(GroupConfig.MAX_BATCH_SIZE), cfg.get(GroupConfig.MAX_OUTSTANDING_BATCHES), cfg.logWindow(), laneHost));
    ctx.router().closeBelow(ROOT, number);
    ctx.forgetSent(ROOT, number - 1); // the epoch before stays resendable: a peer may still be in it
    pending.newEpoch();
    epochStart = now;
    switchedAt = -1;
    switchedByRule = false;
    resendsForPeers = 0;
    epoch.switchIfPromised();
  }

  /** Leader proposals, fast-lane deliveries, the fallback, until nothing changes. */
  private void progress() {
    do {
      dirty = false;
      if (epoch.switched() && switchedAt < 0) {
        switchedAt = now;
      }
      deliverDecisions();
      if (fallback != null) {
        resolveFallback();
      }
      epoch.propose();
    } while (dirty);
  }

  private void deliverDecisions() {
    for (byte[] d = decisions.get(lastDelivered + 1); d != null; d = decisions.get(lastDelivered + 1)) {
      LaneBatch b = blocks.get(d);
      if (b == null || b.seq() != lastDelivered + 1) {
        blocks.fetch(lastDelivered + 1, d);
        return;
      }
      Long oldest = pending.oldestWanted();
      if (oldest != null) {
        slowLeader.laneDelivered(waitedSince(oldest));
      }
      deliver(b.seq(), epoch, d, b.payloads());
    }
  }

  /**
   * The fallback decided: the chain up to the highest reported slot h*, then the SWITCHes' requests as seq
   * h*+1, then the next epoch from (h*+1, D), as at every correct replica. Waits for batches of the chain it
   * lacks (fetched by digest). Seqs at or below {@code lastDelivered} are delivered already or covered by an
   * installed checkpoint (a state transfer may have moved it past h*+1 while this replica was still in this
   * epoch): only what lies above is delivered.
   */
  private void resolveFallback() {
    LaneSwitch top = fallback.vector().switches().get(0);
    for (LaneSwitch sw : fallback.vector().switches()) {
      top = sw.high() > top.high() ? sw : top;
    }
    List<LaneBatch> chain = new ArrayList<>();
    byte[] d = top.highDigest();
    for (long s = top.high(); s > lastDelivered; s--) {
      LaneBatch b = blocks.get(d);
      if (b == null || b.seq() != s) {
        blocks.fetch(s, d);
        return;
      }
      chain.add(0, b);
      d = b.prev();
    }
    if (top.high() >= lastDelivered && lastDigest != null && !Arrays.equals(d, lastDigest)) {
      throw new IllegalStateException("replica " + id + ": the fallback's chain does not extend the delivered "
          + "prefix at seq " + lastDelivered + ": more than f faulty replicas");
    }
    long number = fallback.epoch().number;
    byte[] digest = fallback.digest();
    for (LaneBatch b : chain) {
      deliver(b.seq(), fallback.epoch(), b.digest(), b.payloads());
    }
    long fallbackSeq = top.high() + 1;
    if (fallbackSeq > lastDelivered) {
      deliver(fallbackSeq, fallback.epoch(), digest, fallback.vector().requests());
    } else if (fallbackSeq == lastDelivered) {
      lastDigest = digest; // the checkpoint ends at this batch: its digest is the agreement's
    }
    if (switchedAt >= 0) {
      slowLeader.fallbackTook(now - switchedAt, switchedByRule);
    }
    fallbacks++;
    decisions.clear();
    ends.ended(number, fallback.value());
    fallback = null;
    startEpoch(number + 1, fallbackSeq, digest);
  }

  /**
   * A proven checkpoint of a later epoch: this replica enters that epoch at its base, as every correct replica
   * did, with the chain's digest at the checkpoint known, instead of resolving the fallbacks in between one by
   * one through {@link EpochEnds}, which peers answer for the last {@link EpochEnds#KEPT} epochs only.
   */
  private void enter(CheckpointPosition at) {
    fallback = null;
    decisions.clear();
    merge(ctx.input(() -> startEpoch(at.epoch(), at.base(), at.baseDigest())));
  }

  /**
   * Stalled in a fallback that has not decided here: the others may have decided it and moved on while this
   * replica was cut off or down, and they resend only their current epoch and the one before. It asks how
   * this epoch ended ({@link EpochEnds}); peers still in it answer nothing.
   */
  private void askHowTheEpochEnded() {
    if ((epoch.switched() || epoch.peerSwitched()) && fallback == null) {
      merge(ctx.input(() -> ends.ask(epoch.number)));
    }
  }

  /** f+1 replicas sent the vector epoch {@code number}'s agreement decided: as if this replica's had. */
  private void endedElsewhere(long number, byte[] value) {
    if (number != epoch.number || fallback != null) {
      return;
    }
    FallbackVector vector;
    try {
      vector = FallbackVector.decode(value, n, cfg.get(GroupConfig.MAX_BATCH_SIZE));
    } catch (DecodeException e) {
      throw new IllegalStateException("replica " + id + ": f+1 replicas sent an end of epoch " + number
          + " that is no vector: more than f faulty replicas", e);
    }
    fallback = new Fallback(epoch, vector, value, Digests.sha256(value));
    dirty = true;
  }

  /** A batch delivered at seq: final. Reported, its coins released, queued for execution. */
  private void deliver(long seq, Epoch in, byte[] digest, List<byte[]> payloads) {
    long epochNumber = in.number;
    List<Signed> batch = payloads.stream().map(Signed::decode).toList(); // valid: checked before voting
    out.events.add(new Event.Committed(epochNumber, seq, digest, batch));
    delivered.add(new Delivery(seq, new CheckpointPosition(epochNumber, in.base, in.baseDigest, digest), batch));
    lastDelivered = seq;
    lastDigest = digest;
    lastProgress = now;
    decisions.remove(seq);
    ahead(batch);
    coins.committed(seq, digest, batch);
    decryptions.committed(seq, digest, batch);
    forgetOldSlots();
    executeDelivered();
  }

  /** A delivered batch's requests, not executed yet: the client table would not run them again. */
  private void ahead(List<Signed> batch) {
    for (Signed q : batch) {
      Request r = Request.decode(q.body());
      deliveredAhead.merge(r.sequenceId(), r.messageNumber(), Math::max);
    }
  }

  /**
   * What this replica sent for the lane's delivered slots is kept while a peer may still be in them: above the
   * stable checkpoint (below it a peer catches up by state transfer), and at most the log window of seqs.
   */
  private void forgetOldSlots() {
    long keepAbove = Math.max(checkpoints.stableSeq(), lastDelivered - cfg.logWindow());
    ctx.forgetSent(ROOT.child(epoch.number), keepAbove + 1);
  }

  /**
   * Delivered batches to execution, in order, pausing for a checkpoint's capture, for coins and for the
   * decryption of confidential requests (a refused ciphertext is skipped, alike everywhere).
   */
  private void executeDelivered() {
    while (!execution.paused() && !delivered.isEmpty() && ready(delivered.peek())) {
      Delivery d = delivered.poll();
      lastExecuted = d.seq();
      execution.execute(d.seq(), 0, d.position().digest(), d.batch());
      pending.keepRunnable(requests);
      if (d.seq() % cfg.checkpointInterval() == 0) {
        capturing = d.position();
        journal.checkpoint(d.seq(), capturing.epoch());
        execution.capture(d.seq());
      }
    }
    if (delivered.isEmpty()) {
      deliveredAhead.clear();
    }
  }

  /**
   * The next delivered batch waits for coin or decryption shares although a stable checkpoint covers it: its
   * peers discarded those shares with everything below the checkpoint (a replica cut off while they executed
   * it), so it never executes by ordering and fetches the checkpoint instead.
   */
  private boolean stuckBelowStable() {
    // Coins.ready and Decryptions.ready are false for a discarded seq only while keys never change, as here
    // (changing keys are refused by the builder): with them, a discarded key epoch would read as ready.
    Delivery next = delivered.peek();
    return next != null && !execution.paused() && next.seq() <= checkpoints.stableSeq() && !ready(next);
  }

  private boolean ready(Delivery d) {
    return coins.ready(d.seq(), d.batch()) && decryptions.ready(d.seq(), d.batch());
  }

  private void onPeer(Signed s) {
    switch (s.kind()) {
      case CHECKPOINT -> checkpoints.onCheckpoint(s);
      case FETCH_STATE -> checkpoints.onFetchState(s);
      case STATE -> checkpoints.onStateTransfer(s);
      case DECRYPTION_SHARE -> decryptions.onShare(s);
      default -> coins.onShare(s);
    }
  }

  /** What an epoch asks of this engine. */
  private final class LaneHost implements Epoch.Host {
    @Override
    public List<byte[]> nextBatch(int max) {
      return pending.nextBatch(max);
    }

    @Override
    public boolean validPayload(byte[] payload) {
      return intake.valid(payload);
    }

    @Override
    public List<byte[]> switchBatch() {
      return pending.switchBatch(cfg.get(GroupConfig.MAX_BATCH_SIZE), id, n, epoch.number);
    }

    @Override
    public long delivered() {
      return lastDelivered;
    }

    @Override
    public byte[] deliveredDigest(long seq) {
      return seq == lastDelivered ? lastDigest : null;
    }

    @Override
    public void store(LaneBatch batch) {
      blocks.store(batch);
    }

    @Override
    public LaneBatch held(byte[] digest) {
      return blocks.get(digest);
    }

    @Override
    public void fetch(long seq, byte[] digest) {
      blocks.fetch(seq, digest);
    }

    @Override
    public void committed(long seq, byte[] digest) {
      if (seq > lastDelivered) {
        decisions.put(seq, digest.clone());
        dirty = true;
      }
    }

    @Override
    public void decided(Epoch e, FallbackVector vector, byte[] value) {
      if (e == epoch && fallback == null) {
        fallback = new Fallback(e, vector, value, Digests.sha256(value));
        dirty = true;
      }
    }
  }

  /** What {@link Checkpoints}, {@link Coins} and {@link Decryptions} need of this engine. */
  private final class Host implements Checkpoints.Host, Coins.Host, Decryptions.Host {
    @Override
    public Ready out() {
      return out;
    }

    /** What this replica executes without a state transfer: what it delivered, unless stuck below it. */
    @Override
    public long reached() {
      return stuckBelowStable() ? lastExecuted : lastDelivered;
    }

    @Override
    public long now() {
      return now;
    }

    @Override
    public void discardUpTo(long seq) {
      coins.discardUpTo(seq);
      decryptions.discardUpTo(seq);
      blocks.discardUpTo(seq);
      forgetOldSlots();
    }

    /** Where the ordering stood at the checkpoint being captured ({@link CheckpointPosition}). */
    @Override
    public byte[] position(long seq) {
      return capturing == null ? new byte[0] : capturing.encode();
    }

    @Override
    public void installedPosition(long seq, byte[] position) {
      try {
        installing = CheckpointPosition.decode(position);
      } catch (DecodeException e) {
        throw new IllegalStateException("replica " + id + ": a proven checkpoint at " + seq + " whose position does "
            + "not decode: more than f faulty replicas", e);
      }
    }

    /**
     * A state transfer: the batches delivered but not executed at or below the checkpoint are moot, those above
     * it execute next; past the delivered prefix, the chain digest is the checkpoint's, and a checkpoint of a
     * later epoch takes this replica into that epoch ({@link #enter}).
     */
    @Override
    public void installed(long seq) {
      execution.installed(seq, lastExecuted);
      lastExecuted = seq;
      delivered.removeIf(d -> d.seq() <= seq);
      deliveredAhead.clear();
      delivered.forEach(d -> ahead(d.batch()));
      if (seq > lastDelivered) {
        lastDelivered = seq;
        lastDigest = installing == null ? null : installing.digest();
        decisions.headMap(seq, true).clear();
      }
      if (installing != null) {
        journal.checkpoint(seq, installing.epoch());
      }
      if (installing != null && installing.epoch() > epoch.number) {
        enter(installing);
      }
      installing = null;
      pending.keepRunnable(requests);
    }

    @Override
    public void resume() {
      dirty = true;
    }

    @Override
    public long stableSeq() {
      return checkpoints.stableSeq();
    }

    @Override
    public long windowTop() {
      return lastDelivered + cfg.logWindow();
    }

    @Override
    public long lastExecuted() {
      return lastExecuted;
    }

    @Override
    public void coinsKnown() {
      executeDelivered();
    }

    @Override
    public void decrypted() {
      executeDelivered();
    }
  }

  private final class ExecutionHooks extends CoinHooks {
    ExecutionHooks() {
      super(() -> coins);
    }

    @Override
    public void ordered(Request q) {
      pending.remove(q.id());
    }

    @Override
    public Request opened(long seq, int i, Request q) {
      return decryptions.opened(seq, i, q);
    }
  }

  // ---------------------------------------------------------------- helpers

  private void merge(Ready r) {
    out.persist.addAll(r.persist);
    out.messages.addAll(r.messages);
    out.events.addAll(r.events);
    out.effects.addAll(r.effects);
  }

  private void evidence(int node, String what) {
    out.events.add(new Event.Evidence(node, what));
  }

  private Ready flush() {
    merge(ctx.input(this::progress));
    executeDelivered();
    journal.afterStable(out.persist);
    Ready r = out;
    out = new Ready();
    return r;
  }

  // ---------------------------------------------------------------- observers

  @Override
  public int id() {
    return id;
  }

  @Override
  public long lastExecuted() {
    return lastExecuted;
  }

  @Override
  public long stableCheckpoint() {
    return checkpoints.stableSeq();
  }

  @Override
  public int pendingRequests() {
    return pending.size();
  }

  @Override
  public int clientTableEntries() {
    return requests.table().size();
  }

  /** The current epoch; its leader is epoch mod n. */
  @Override
  public long view() {
    return epoch.number;
  }

  @Override
  public boolean hasPrimary() {
    return true;
  }

  /** False while this replica has left the fast lane and the fallback has not finished. */
  @Override
  public boolean isActive() {
    return !epoch.switched();
  }

  @Override
  public int logSize() {
    return ctx.router().buffered();
  }

  /** Envelopes kept for retransmission (the lane's slots above the stable checkpoint, at most the log window). */
  public int resendLog() {
    return ctx.resendLog();
  }

  /** Protocol instances open here (the lane's window of slots, the fallback's agreement, the block store). */
  public int instances() {
    return ctx.router().instances();
  }

  /** The current epoch's votes held (bounded by the window, whatever peers send). */
  public int laneVotes() {
    return epoch.votes();
  }

  /** The current epoch's per-seq entries held: batches, votes, prepared slots, certificates (bounded by the window). */
  public int laneEntries() {
    return epoch.entries();
  }

  /** Batches held by digest to serve to peers (above the stable checkpoint). */
  public int blocksHeld() {
    return blocks.size();
  }

  /** Envelopes remembered to drop resent copies (open instances only; never the block store's). */
  public int remembered() {
    return ctx.remembered();
  }

  /** Fallbacks completed here. */
  public long fallbacks() {
    return fallbacks;
  }

  /** Seqs delivered (fast lane and fallback). */
  public long deliveredSeq() {
    return lastDelivered;
  }

  @Override
  public String describe() {
    return "hybrid " + epoch.describe() + " delivered=" + lastDelivered + " executed=" + lastExecuted + " stable="
        + checkpoints.stableSeq() + " pending=" + pending.size() + " budget=" + slowLeader.budget() + " fallbacks=" + fallbacks
        + " blocks=" + blocks.size() + " buffered=" + ctx.router().buffered();
  }
}
