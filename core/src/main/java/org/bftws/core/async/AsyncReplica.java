package org.bftws.core.async;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.bftws.core.config.GroupConfig;
import org.bftws.core.crypto.Signer;
import org.bftws.core.crypto.Verifier;
import org.bftws.core.message.Kind;
import org.bftws.core.message.Request;
import org.bftws.core.message.RequestId;
import org.bftws.core.message.Signed;
import org.bftws.core.replication.Checkpoints;
import org.bftws.core.replication.ClientRequests;
import org.bftws.core.replication.CoinConfig;
import org.bftws.core.replication.CoinHooks;
import org.bftws.core.replication.Coins;
import org.bftws.core.replication.ConfidentialConfig;
import org.bftws.core.replication.Decryptions;
import org.bftws.core.replication.ExecutionPipeline;
import org.bftws.core.engine.Effect;
import org.bftws.core.engine.Engine;
import org.bftws.core.engine.ChannelInbox;
import org.bftws.core.engine.Event;
import org.bftws.core.engine.Journal;
import org.bftws.core.engine.KeySet;
import org.bftws.core.replication.RandomizedOperations;
import org.bftws.core.replication.RequestIntake;
import org.bftws.core.replication.ShareRelease;
import org.bftws.core.engine.Ready;

/**
 * An ordering engine on SINTRA's atomic broadcast channel (§2.5), in the contract every engine implements
 * ({@link Engine}): client REQUEST envelopes are checked as PBFT checks them ({@link ClientRequests}) and
 * sent on the channel; each delivered round r becomes one {@link Effect.Execute} with seq = r and view 0,
 * its requests in the channel's order with duplicates removed by the client table (exactly-once, reply
 * cache); replies go out as PBFT's, one signed certificate per batch. There is no primary and no view
 * change: no timer decides anything.
 *
 * <p>Checkpoints and state transfer (Castro-Liskov §4.3, {@link Checkpoints}, as PBFT's): after every round
 * that is a multiple of {@code bftws.checkpointInterval}, execution pauses for {@link
 * Effect.CaptureState}; the checkpoint's digest covers (round, client table, application state) and is
 * multicast in a CHECKPOINT message; at 2f+1 matching ones it is stable. A replica that knows a stable
 * checkpoint above the rounds it delivered, and delivered nothing during a retransmission interval (it
 * restarted empty, or missed messages of rounds its peers closed), fetches the checkpoint from a signer
 * of its proof, checks it against the certified digest, installs the client table and the application
 * state ({@link Effect.InstallState}), and the channel skips to the round after it ({@link
 * AtomicBroadcast#skipTo}), closing the older rounds; messages of later rounds it buffered meanwhile then
 * deliver. A replica that is merely slow catches up by ordering, unless it must fetch the decided vector of
 * a round that a stable checkpoint settled: its peers forgot that round, so it fetches the state at once,
 * ticks or not ({@link #fetchIfSettled}).
 *
 * <p>Retransmission ({@link #tick}), for links that lose messages (a POST to a replica that is down): on a
 * tick that ends a retransmission interval without a delivered round, a replica that takes part in a
 * round it has not delivered resends what it sent in the rounds above its stable checkpoint ({@link
 * Context#retransmit}); any stalled replica resends its coin shares for rounds not executed and its
 * checkpoint votes. Receivers drop copies they took already, and those of rounds they closed, unseen.
 * Closed rounds are resent too because a peer may still be in one: with f replicas silent, two correct
 * ones can deliver a round with a third one's help and need it again in the next round, while it lost the
 * end of the first. Retransmission decides nothing: the resent bytes are the same signed messages, so
 * neither safety nor the order depends on ticks. Memory: the resend log holds the rounds above the stable
 * checkpoint, at most {@code bftws.logWindow} of them; an idle group resends no round (its status asks,
 * below, stop after {@link #STATUS_ASKS}, or back off while it buffers later rounds' messages).
 *
 * <p>Randomized requests (CT algorithm, integrity paper §5, {@link Coins}, as PBFT's): a delivered round is
 * final, so on delivery this replica releases its threshold-coin shares, one per randomized request on
 * (group, round, D(request)), or one per round on (group, round, digest of the decided vector) with {@code
 * bftws.coinPerBatch}; the round executes once f+1 valid shares combined to each coin; a bad share is
 * evidence against its sender. The coin key is the one binary agreement tosses its coins with ({@link
 * Context#coin}); the two sign in separate domains.
 *
 * <p>Confidential requests (SINTRA §2.6, secure causal atomic broadcast, {@link Decryptions}, as PBFT's): a
 * delivered round's TDH2 ciphertexts are checked and this replica releases its decryption shares; the round
 * executes once each valid one opened from k verified shares, and invalid ones are skipped alike everywhere.
 *
 * <p>Idle catch-up ({@link RoundStatus}): a replica stalled outside any open round tells its peers, a few
 * times after its last progress and, backing off, for as long as it buffers messages of later rounds, the last
 * round it delivered; a peer ahead answers with what it sent in
 * the next round (the stalled ticks' checkpoint votes bring it to the stable checkpoint), so a replica that returns to a quiet group reaches the
 * group's last delivered round without waiting for a new request.
 *
 * <p>Journal ({@link #journaled}, {@link #recover}; docs/journal.md): the stable checkpoint whose parts it
 * holds, and every message that commits it in a slot of a protocol instance ({@link Protocol#slot}: its
 * proposals, echoes and readies, signature shares, votes, coin shares and decisions) above that checkpoint.
 * Restarted, it reinstalls the checkpoint and sends in each journaled slot only what it sent there before,
 * so it is the same correct replica, not one of the f faulty; what the group delivered meanwhile it gets by
 * ordering, the status asks, or state transfer. Without a journal a restarted one starts empty and catches
 * up by state transfer, counted among the f faulty.
 */
public final class AsyncReplica implements Engine {
  /** The channel's protocol id. */
  public static final Pid CHANNEL = Pid.root("abc");
  private static final byte[] TAG = "BFT-WS/1 async checkpoint".getBytes(StandardCharsets.US_ASCII);
  /** Replica-to-replica kinds besides the channel's: checkpoints, state transfer and coin shares (PBFT's). */
  private static final Set<Kind> PEER_KINDS = Set.of(Kind.CHECKPOINT, Kind.FETCH_STATE, Kind.STATE, Kind.COIN_SHARE,
      Kind.DECRYPTION_SHARE);

  private final GroupConfig cfg;
  private final int id;
  private final int n;
  private final ChannelInbox inbox;
  private final Context ctx;
  private final ClientRequests requests;
  /** Client requests in and batch payloads judged ({@link RequestIntake}), over {@link #pending}. */
  private final RequestIntake intake;
  private final AtomicBroadcast channel;
  /** Authentic requests sent on the channel and not yet executed, in arrival order. */
  private final LinkedHashMap<RequestId, Signed> pending = new LinkedHashMap<>();
  /** Delivered rounds waiting for execution (it pauses while a state is captured). */
  private final ArrayDeque<AtomicBroadcast.Delivery> delivered = new ArrayDeque<>();
  /**
   * Per sequence, the highest message number in {@link #delivered}: what the client table will hold once
   * those rounds are ordered, so that what the channel finds {@link #wanted} depends on the delivered
   * prefix only, not on how long this replica's state capture takes.
   */
  private final Map<String, Long> deliveredAhead = new HashMap<>();
  /** Delivered rounds to the service, their results and the checkpoints' state captures. */
  private final ExecutionPipeline execution;
  private long lastExecuted;
  private final Checkpoints checkpoints;
  /** The CT algorithm's threshold coins for randomized requests (integrity paper §5), PBFT's. */
  private final Coins coins;
  /** Confidential requests (SINTRA §2.6, secure causal atomic broadcast), opened once their round is delivered. */
  private final Decryptions decryptions;
  /** When a round's coin and decryption shares may go out under keys that change ({@code KeyEpochs}). */
  private final ShareRelease shareRelease;
  /** Logical time: the ticks so far (for retransmission only; nothing is decided by it). */
  private long now;
  private long lastRetransmit;
  private long deliveredAtLastRetransmit = -1;
  /** The stable checkpoint this replica last fetched because a round it fetches is settled by it. */
  private long fetchedSettled;
  /** Stalled intervals outside any round since the last round delivered or state installed ({@link #asking}). */
  private long idleSinceProgress;
  private final RoundStatus status;
  private boolean journaled;
  private Ready out = new Ready();

  /**
   * Status asks a stalled replica sends after its last progress, one per retransmission interval (more, backing
   * off, while it buffers messages of rounds it has not reached: {@link #asking}).
   */
  static final int STATUS_ASKS = 3;

  /** An asynchronous replica's builder: {@link Builder#coin} is required, the rest has defaults. */
  public static Builder builder(GroupConfig cfg, int id, Signer signer, Verifier verifier) {
    return new Builder(cfg, id, signer, verifier);
  }

  /**
   * What an asynchronous replica is built with besides its group, id and keys: the group's threshold coin with
   * its share (binary agreement tosses it, SINTRA §2.3) and which requests are randomized (as flagged unless
   * set).
   */
  public static final class Builder {
    private final GroupConfig cfg;
    private final int id;
    private final Signer signer;
    private final Verifier verifier;
    private CoinConfig coin;
    private RandomizedOperations operations = RandomizedOperations.AS_FLAGGED;
    private boolean changingKeys;

    private Builder(GroupConfig cfg, int id, Signer signer, Verifier verifier) {
      this.cfg = cfg;
      this.id = id;
      this.signer = signer;
      this.verifier = verifier;
    }

    /** The group's (n, f+1, f) threshold coin with this replica's key share (index id + 1). */
    public Builder coin(CoinConfig c) {
      this.coin = c;
      return this;
    }

    /** Which requests are randomized, alike on every replica. */
    public Builder operations(RandomizedOperations o) {
      this.operations = o;
      return this;
    }

    /**
     * The randomized requests' coins and the confidential requests' TDH2 keys may be {@link #installKeys
     * installed} while the group runs ({@code replication.KeyEpochs}). The binary agreements keep tossing
     * {@link #coin}: the channel's own coin is fixed when the replica is built.
     */
    public Builder changingKeys() {
      this.changingKeys = true;
      return this;
    }

    public AsyncReplica build() {
      if (coin == null) {
        throw new IllegalArgumentException("an asynchronous replica needs the group's threshold coin: binary "
            + "agreement tosses it");
      }
      return new AsyncReplica(cfg, id, signer, verifier, coin, operations, changingKeys);
    }
  }

  private AsyncReplica(GroupConfig cfg, int id, Signer signer, Verifier verifier, CoinConfig coin,
      RandomizedOperations operations, boolean changingKeys) {
    this.cfg = cfg;
    this.id = id;
    this.n = cfg.n();
    this.ctx = new Context(n, cfg.f(), id, signer, verifier, coin);
    this.requests = new ClientRequests(cfg, id, signer, verifier, operations);
    this.intake = new RequestIntake(requests, verifier, pending);
    this.execution = new ExecutionPipeline(requests, () -> out, new ExecutionHooks(), true);
    Host host = new Host();
    this.checkpoints = Checkpoints.forEngine(cfg, id, signer, verifier, requests, TAG, host);
    this.coins = new Coins(cfg, id, signer, operations, coin, changingKeys, host);
    this.decryptions = new Decryptions(cfg, id, signer, host);
    this.shareRelease = new ShareRelease(coins, decryptions);
    this.inbox = new ChannelInbox(n, cfg.clientBase(), id, "an asynchronous replica", PEER_KINDS, verifier,
        b -> merge(ctx.receive(b)), this::onRequest, this::onPeer, this::evidence);
    AtomicBroadcast[] made = new AtomicBroadcast[1];
    merge(ctx.input(() -> made[0] = new AtomicBroadcast(ctx, CHANNEL, cfg.get(GroupConfig.MAX_BATCH_SIZE),
        this::validPayload, this::wanted, this::onDelivered, peer -> checkpoints.relayProof(peer))));
    this.channel = made[0];
    RoundStatus[] st = new RoundStatus[1];
    merge(ctx.input(() -> st[0] = ctx.router().register(new RoundStatus(ctx, this::behind))));
    this.status = st[0];
  }

  /**
   * Makes this replica emit {@link Journal} records in {@link Ready#persist}: its stable checkpoint
   * ({@link Journal.Type#STABLE}, as PBFT's) and its committing messages ({@link Journal.Type#SIGNED}, seq:
   * the channel round they belong to); before the first step. Compacted as PBFT's ({@link Journal#compact}).
   */
  public AsyncReplica journaled() {
    journaled = true;
    checkpoints.journaled();
    ctx.journaled(AsyncReplica::roundOf);
    return this;
  }

  /** The channel round an instance belongs to ({@code abc/r/...}); 0 for one outside the rounds. */
  static long roundOf(Pid pid) {
    List<String> segments = pid.segments();
    if (segments.size() < 2 || !segments.get(0).equals(CHANNEL.segments().get(0))) {
      return 0;
    }
    try {
      return Long.parseLong(segments.get(1));
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  /**
   * The first step of a journaled replica restarted with its journal: the stable checkpoint is installed as a
   * state transfer installs one ({@link Effect.InstallState}), the channel goes on from the round after it,
   * and the committing messages above it are sent again and held as promises ({@link Context#recover}).
   *
   * @throws IllegalArgumentException if the journal is damaged (a record that does not decode or check out,
   *     of a type this engine never writes, at another seq than its round, or a second message for one slot)
   */
  @Override
  public Ready recover(List<Journal.Record> records) {
    if (!journaled || now != 0 || lastExecuted != 0 || channel.deliveredRound() != 0) {
      throw new IllegalStateException("recover() is the first step of a fresh, journaled replica");
    }
    Context.Recovered journal = Context.read(records, "an asynchronous replica", false);
    if (journal.stable() != null) {
      checkpoints.restore(journal.stable().body());
    }
    merge(ctx.input(() -> ctx.recover(journal.signed())));
    return flush();
  }

  /**
   * Declares the group's confidential requests and this replica's TDH2 key share (SINTRA §2.6, {@link
   * Decryptions}); before the first step, alike on every replica. Without it no request is confidential.
   */
  public AsyncReplica confidentialOperations(ConfidentialConfig config) {
    decryptions.declare(config, coins.changing());
    return this;
  }

  /** New keys for the rounds above {@code orderedAt}: see {@link Engine#installKeys}. */
  @Override
  public Ready installKeys(long orderedAt, KeySet keys) {
    keys.installInto(orderedAt, coins, decryptions);
    return flush();
  }

  /** The checkpoint's state at seq and the keys it delivered are installed: see {@link Engine#stateInstalled}. */
  @Override
  public Ready stateInstalled(long seq) {
    if (coins.changing()) {
      shareRelease.stateInstalled(seq);
      executeDelivered();
    }
    return flush();
  }

  // ---------------------------------------------------------------- inputs

  @Override
  public Ready receive(byte[] bytes) {
    inbox.receive(bytes);
    return flush();
  }

  /**
   * Retransmission, which decides nothing: every {@code bftws.retransmitTicks} ticks, if no round was
   * delivered since the last time (stalled), this replica resends what it sent in the rounds it keeps if
   * it takes part in one it has not delivered ({@link Context#retransmit}), its coin shares for rounds not
   * executed, and asks for the stable checkpoint if it is behind it; in any case it resends its latest
   * checkpoint vote until that is stable (as PBFT's replica does).
   */
  @Override
  public Ready tick() {
    now++;
    if (now - lastRetransmit >= cfg.get(GroupConfig.RETRANSMIT_INTERVAL)) {
      lastRetransmit = now;
      ctx.newInterval();
      boolean stalled = channel.deliveredRound() == deliveredAtLastRetransmit;
      deliveredAtLastRetransmit = channel.deliveredRound();
      status.newInterval();
      if (stalled && ctx.takingPart()) {
        merge(ctx.retransmit());
      } else if (stalled && asking(++idleSinceProgress)) {
        merge(ctx.input(() -> status.ask(channel.deliveredRound())));
      }
      if (stalled) {
        coins.retransmit();
        decryptions.retransmit();
      }
      checkpoints.retransmit(stalled);
    }
    return flush();
  }

  /**
   * Whether a replica stalled outside any round asks for status in its {@code k}-th such interval since its
   * last progress: in the first {@link #STATUS_ASKS}, then, while it holds messages of rounds it has not
   * reached (it is behind, and answers to its asks may have been lost), in intervals 4, 8, 16, … only. A
   * buffered message may be a faulty peer's, planted for a round nobody reaches while the group is idle
   * (SINTRA §2: up to f parties send what they like), so the asks back off: over T idle intervals at most
   * {@link #STATUS_ASKS} + log2 T of them, not one per interval.
   */
  private boolean asking(long k) {
    return k <= STATUS_ASKS || ctx.router().buffered() > 0 && Long.bitCount(k) == 1;
  }

  @Override
  public Ready executed(long seq, List<byte[]> results) {
    execution.executed(seq, results);
    if (coins.changing()) {
      settleKeys();
      executeDelivered(); // a round that waited for these results may have its shares now
    }
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

  // ---------------------------------------------------------------- requests and the channel

  private void onRequest(Signed s) {
    Request q = intake.admit(s, decryptions::refusal, this::evidence, out);
    if (q != null) {
      pending.putIfAbsent(q.id(), s);
      merge(ctx.input(() -> channel.send(s.encode())));
    }
  }

  /** The channel's external validity for one payload: an authentic, well-formed client request. */
  private boolean validPayload(byte[] payload) {
    return intake.valid(payload);
  }

  /** Worth a round: a request the client table would still execute (evaluated on the delivered prefix). */
  private boolean wanted(byte[] payload) {
    return intake.wanted(payload, deliveredAhead);
  }

  /**
   * A round the channel delivered: final, as a PBFT batch is once committed, so it is reported as committed
   * (view 0, seq = round, the decided vector's digest and payloads, as PBFT reports a committed batch) and this
   * replica releases its coin shares for the round's randomized requests now (CT algorithm, integrity paper
   * §5: a coin is never revealed for a request whose position might still change); executed once those coins
   * are known and no state capture is awaited.
   */
  private void onDelivered(AtomicBroadcast.Delivery d) {
    List<Signed> batch = batch(d); // valid: external validity held
    out.events.add(new Event.Committed(0, d.round(), d.digest(), batch));
    delivered.add(d);
    idleSinceProgress = 0;
    markAhead(batch);
    coins.committed(d.round(), d.digest(), batch);
    decryptions.committed(d.round(), d.digest(), batch);
    forgetOldRounds();
    executeDelivered();
  }

  /** The requests of a delivered round count as ordered for what is wanted next, before they execute. */
  private void markAhead(List<Signed> batch) {
    for (Signed q : batch) {
      Request r = Request.decode(q.body());
      deliveredAhead.merge(r.sequenceId(), r.messageNumber(), Math::max);
    }
  }

  /**
   * What this replica sent in a closed round, and the round's decided vector, is kept while a peer may still
   * be in it: above the stable checkpoint (below it, a peer catches up by state transfer), and at most the
   * log window of rounds.
   */
  private void forgetOldRounds() {
    long keepAbove = Math.max(checkpoints.stableSeq(), channel.deliveredRound() - cfg.logWindow());
    ctx.forgetSent(CHANNEL, keepAbove + 1);
    channel.forgetBelow(keepAbove + 1);
  }

  /** With changing keys: every round handed out has its results back, so the next round's keys are known. */
  private void settleKeys() {
    if (coins.changing() && execution.awaitingResults() == 0) {
      shareRelease.settled(lastExecuted);
    }
  }

  private static List<Signed> batch(AtomicBroadcast.Delivery d) {
    return d.payloads().stream().map(Signed::decode).toList();
  }

  /**
   * Delivered rounds to execution, in order, pausing after a checkpoint round until its state is captured,
   * and before a round until the coins of its randomized requests are known and its confidential requests
   * opened (a refused ciphertext is skipped, alike everywhere).
   */
  private void executeDelivered() {
    while (!execution.paused() && !delivered.isEmpty() && coins.ready(delivered.peek().round(), batch(delivered.peek()))
        && decryptions.ready(delivered.peek().round(), batch(delivered.peek()))) {
      AtomicBroadcast.Delivery d = delivered.poll();
      lastExecuted = d.round();
      execution.execute(d.round(), 0, d.digest(), batch(d)); // valid: external validity held
      settleKeys();
      // requests the client table would no longer run (a copy with other bytes was ordered, or another
      // client took the sequence first) will never be delivered under their id: they leave pending too
      pending.values().removeIf(q -> !requests.wouldRun(Request.decode(q.body())));
      if (d.round() % cfg.checkpointInterval() == 0) {
        execution.capture(d.round());
      }
    }
    if (delivered.isEmpty()) {
      deliveredAhead.clear();
    }
  }

  // ---------------------------------------------------------------- checkpoints and state transfer (§4.3)

  /**
   * State transfer without waiting for a stalled tick: the channel is fetching the decided vector of a round
   * that a stable checkpoint settled. Its peers forgot that round at the checkpoint, so no answer will come,
   * and in a run without ticks (SINTRA's model: reliable links, no clock) nothing else would start the
   * transfer; the replica would wait for ever although it gets every message (a slow replica more than a
   * checkpoint interval behind). The same when the next delivered round waits below the checkpoint for its
   * coins or decryptions ({@link #waitsBelowStable}). Once per stable checkpoint, from f+1 of its proof's
   * signers.
   */
  private void fetchIfSettled() {
    long round = channel.fetchingRound();
    long stable = checkpoints.stableSeq();
    if ((round > 0 && round <= stable || waitsBelowStable()) && fetchedSettled < stable) {
      fetchedSettled = stable;
      checkpoints.fetchNow();
    }
  }

  /**
   * The next delivered round is at or below the stable checkpoint and waits for the coin or decryption shares
   * of its requests. Every replica discards those at the stable checkpoint (integrity paper §5: shares are
   * released once, at the position's commit), so a replica that delivered the round after it saw the
   * checkpoint stable (a slow one, here and with a peer withholding its shares) gets them from nobody any
   * more: only a state transfer brings it through, so it has not reached the rounds it delivered.
   */
  private boolean waitsBelowStable() {
    AtomicBroadcast.Delivery d = delivered.peek();
    return d != null && d.round() <= checkpoints.stableSeq() && !execution.paused()
        && !(coins.ready(d.round(), batch(d)) && decryptions.ready(d.round(), batch(d)));
  }

  /**
   * A peer's status ask: it delivered only up to {@code round}. If this replica delivered the next round and
   * still keeps it (above its stable checkpoint), the peer gets what this replica sent in it, as a laggard's
   * resent copy would be answered ({@link Context#resendTo}). A round the stable checkpoint settled is not
   * answered: the stalled ticks' checkpoint votes and proof ({@link Checkpoints#retransmit}) bring the peer
   * to the checkpoint by state transfer.
   */
  private void behind(int peer, long round) {
    if (checkpoints.stableSeq() <= round && channel.deliveredRound() > round) {
      merge(ctx.resendTo(peer, CHANNEL.child(round + 1)));
    }
  }

  /** CHECKPOINT, FETCH-STATE, STATE or COIN-SHARE from a peer replica: PBFT's handling. */
  private void onPeer(Signed s) {
    switch (s.kind()) {
      case CHECKPOINT -> checkpoints.onCheckpoint(s);
      case FETCH_STATE -> checkpoints.onFetchState(s);
      case STATE -> checkpoints.onStateTransfer(s);
      case DECRYPTION_SHARE -> decryptions.onShare(s);
      default -> coins.onShare(s);
    }
  }

  /** What {@link Checkpoints} and {@link Coins} need of this engine (one object: both read out and now). */
  private final class Host implements Checkpoints.Host, Coins.Host, Decryptions.Host {
    @Override
    public Ready out() {
      return out;
    }

    /**
     * Rounds delivered, executed or waiting for execution: this replica reaches them without a transfer,
     * unless execution waits below the stable checkpoint for shares nobody keeps ({@link #waitsBelowStable}).
     */
    @Override
    public long reached() {
      return waitsBelowStable() ? lastExecuted : channel.deliveredRound();
    }

    @Override
    public long now() {
      return now;
    }

    /** Coins and sent messages at or below the checkpoint are not needed. */
    @Override
    public void discardUpTo(long seq) {
      coins.discardUpTo(seq);
      decryptions.discardUpTo(seq);
      forgetOldRounds();
    }

    /**
     * Execution state gives way to the checkpoint's: rounds delivered but not executed up to it are moot.
     * Rounds the channel delivered above it (a replica that waited below the checkpoint for shares, {@link
     * #waitsBelowStable}) stay to be executed next.
     */
    @Override
    public void installed(long seq) {
      execution.installed(seq, lastExecuted);
      lastExecuted = seq;
      shareRelease.checkpointInstalled(seq, cfg.executes(id));
      delivered.removeIf(d -> d.round() <= seq);
      deliveredAhead.clear();
      delivered.forEach(d -> markAhead(batch(d)));
      idleSinceProgress = 0;
      pending.values().removeIf(q -> !requests.wouldRun(Request.decode(q.body())));
    }

    /**
     * After the state's installation: the channel goes on from the round after the checkpoint, or from where
     * it is if it delivered that far already.
     */
    @Override
    public void resume() {
      if (lastExecuted > channel.deliveredRound()) {
        merge(ctx.input(() -> channel.skipTo(lastExecuted)));
      }
    }

    @Override
    public long stableSeq() {
      return checkpoints.stableSeq();
    }

    /** Rounds run ahead of checkpoints here (no watermarks): the window is counted from the delivered round. */
    @Override
    public long windowTop() {
      return channel.deliveredRound() + cfg.logWindow();
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


  /** What execution asks of this engine per request: the channel's pending requests, decryptions and coins. */
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
    out.messages.addAll(r.messages);
    out.events.addAll(r.events);
    out.effects.addAll(r.effects);
    out.persist.addAll(r.persist);
  }

  private void evidence(int node, String what) {
    out.events.add(new Event.Evidence(node, what));
  }

  private Ready flush() {
    executeDelivered();
    fetchIfSettled();
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

  /** Sequences with rounds delivered but not yet ordered into the client table. */
  int deliveredAhead() {
    return deliveredAhead.size();
  }

  /** Rounds delivered by the channel (executed or waiting for a state capture). */
  public long deliveredRound() {
    return channel.deliveredRound();
  }

  /** Messages waiting for instances not created yet (rounds this replica has not reached). */
  public int buffered() {
    return ctx.router().buffered();
  }

  /** The messages buffered for rounds this replica has not reached yet ({@link #buffered}). */
  @Override
  public int logSize() {
    return buffered();
  }

  /** Promised slots held since a restart from the journal ({@link Context#recover}). */
  public int promises() {
    return ctx.promises();
  }

  /** Envelopes kept for retransmission (those of the instances open here). */
  public int resendLog() {
    return ctx.resendLog();
  }

  /** Messages dropped because a sender's share of that buffer was full. */
  public long dropped() {
    return ctx.router().dropped();
  }

  @Override
  public String describe() {
    return "async round=" + channel.deliveredRound() + " executed=" + lastExecuted + " stable=" + checkpoints.stableSeq()
        + " pending=" + pending.size() + " queued=" + channel.queued() + " capture=" + execution.pendingCapture()
        + " instances=" + ctx.router().instances() + " buffered=" + ctx.router().buffered()
        + " dropped=" + ctx.router().dropped() + " resend=" + ctx.resendLog() + " channel=" + channel.describeRound();
  }
}
