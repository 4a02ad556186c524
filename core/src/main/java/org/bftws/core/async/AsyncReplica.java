package org.bftws.core.async;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.bftws.core.codec.ByteWriter;
import org.bftws.core.codec.DecodeException;
import org.bftws.core.config.GroupConfig;
import org.bftws.core.crypto.Digests;
import org.bftws.core.crypto.Signer;
import org.bftws.core.crypto.Verifier;
import org.bftws.core.message.Checkpoint;
import org.bftws.core.message.Kind;
import org.bftws.core.message.Request;
import org.bftws.core.message.RequestId;
import org.bftws.core.message.Signed;
import org.bftws.core.pbft.ClientRequests;
import org.bftws.core.pbft.CoinConfig;
import org.bftws.core.pbft.Effect;
import org.bftws.core.pbft.Engine;
import org.bftws.core.pbft.Event;
import org.bftws.core.pbft.RandomizedOperations;
import org.bftws.core.pbft.Ready;

/**
 * An ordering engine on SINTRA's atomic broadcast channel (§2.5), in the contract of {@code pbft.Replica}
 * ({@link Engine}): client REQUEST envelopes are checked as PBFT checks them ({@link ClientRequests}) and
 * sent on the channel; each delivered round r becomes one {@link Effect.Execute} with seq = r and view 0,
 * its requests in the channel's order with duplicates removed by the client table (exactly-once, reply
 * cache); replies go out as PBFT's, one signed certificate per batch. There is no primary and no view
 * change: no timer decides anything, and {@link #tick} does nothing (no retransmission: links are assumed
 * reliable, as in SINTRA's model).
 *
 * <p>Checkpoints (Castro-Liskov §4.3, as PBFT's): after every round that is a multiple of {@code
 * bftws.checkpointInterval}, execution pauses for {@link Effect.CaptureState}; the checkpoint's digest
 * covers (round, client table, application state) and is multicast in a CHECKPOINT message; at 2f+1
 * matching ones it is stable, and votes at or below it are discarded. The channel itself keeps nothing
 * of delivered rounds (it closes them as they deliver). State transfer is not built yet: a replica that
 * falls behind the router's buffers cannot catch up.
 *
 * <p>Randomized requests get empty random numbers: the coin of the CT algorithm is not wired here yet.
 */
public final class AsyncReplica implements Engine {
  /** The channel's protocol id. */
  public static final Pid CHANNEL = Pid.root("abc");
  private static final byte[] TAG = "BFT-WS/1 async checkpoint".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] NO_RANDOM = new byte[0];

  private final GroupConfig cfg;
  private final int id;
  private final int n;
  private final Signer signer;
  private final Verifier verifier;
  private final Context ctx;
  private final ClientRequests requests;
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
  private final ArrayDeque<Effect.Execute> awaitingResults = new ArrayDeque<>();
  private long pendingCapture = -1;
  private long lastExecuted;
  private long stableSeq;
  /** Checkpoint votes above the stable one: seq → sender → digest. */
  private final TreeMap<Long, Map<Integer, byte[]>> votes = new TreeMap<>();
  private Ready out = Ready.forClient();

  public AsyncReplica(GroupConfig cfg, int id, Signer signer, Verifier verifier, CoinConfig coin) {
    this(cfg, id, signer, verifier, coin, RandomizedOperations.AS_FLAGGED);
  }

  /** {@code coin}: the group's threshold coin with this replica's share (binary agreement needs it). */
  public AsyncReplica(GroupConfig cfg, int id, Signer signer, Verifier verifier, CoinConfig coin,
      RandomizedOperations operations) {
    this.cfg = cfg;
    this.id = id;
    this.n = cfg.n();
    this.signer = signer;
    this.verifier = verifier;
    this.ctx = new Context(n, cfg.f(), id, signer, verifier, coin);
    this.requests = new ClientRequests(cfg, id, signer, verifier, operations);
    AtomicBroadcast[] made = new AtomicBroadcast[1];
    merge(ctx.input(() -> made[0] = new AtomicBroadcast(ctx, CHANNEL, cfg.get(GroupConfig.MAX_BATCH_SIZE),
        this::validPayload, this::wanted, this::onDelivered)));
    this.channel = made[0];
  }

  // ---------------------------------------------------------------- inputs

  @Override
  public Ready receive(byte[] bytes) {
    Signed s;
    try {
      s = Signed.decode(bytes);
    } catch (DecodeException e) {
      evidence(-1, "malformed envelope: " + e.getMessage());
      return flush();
    }
    if (s.kind() == Kind.ASYNC) {
      merge(ctx.receive(bytes));
    } else if (s.kind() == Kind.REQUEST && s.sender() >= n) {
      onRequest(s);
    } else if (s.kind() == Kind.CHECKPOINT && s.sender() >= 0 && s.sender() < n && s.sender() != id) {
      onCheckpoint(s);
    } else {
      evidence(s.sender(), "sender not allowed to send " + s.kind() + " to an asynchronous replica");
    }
    return flush();
  }

  /** Nothing: no timer decides anything here, and links are reliable (no retransmission yet). */
  @Override
  public Ready tick() {
    return flush();
  }

  @Override
  public Ready executed(long seq, List<byte[]> results) {
    Effect.Execute head = awaitingResults.peek();
    ClientRequests.checkResults(head, seq, results);
    awaitingResults.poll();
    requests.executed(head, results, out);
    return flush();
  }

  @Override
  public Ready stateCaptured(long seq, byte[] appState) {
    if (seq != pendingCapture) {
      throw new IllegalStateException("stateCaptured(" + seq + ") but awaiting " + pendingCapture);
    }
    if (!awaitingResults.isEmpty()) {
      throw new IllegalStateException("stateCaptured(" + seq + ") before the results of " + awaitingResults.peek().seq());
    }
    pendingCapture = -1;
    ByteWriter w = new ByteWriter(appState.length + 256).raw(TAG).i64(seq);
    requests.writeTable(w);
    byte[] digest = Digests.sha256(w.bytes(appState).toBytes());
    out.events.add(new Event.CheckpointTaken(seq, digest));
    Signed msg = Signed.sign(Kind.CHECKPOINT, id, new Checkpoint(seq, digest).encode(), signer);
    out.messages.add(new Ready.Outbound(Ready.ALL_REPLICAS, msg.encode()));
    vote(id, seq, digest);
    executeDelivered();
    return flush();
  }

  // ---------------------------------------------------------------- requests and the channel

  private void onRequest(Signed s) {
    Request q;
    try {
      q = Request.decode(s.body());
    } catch (DecodeException e) {
      evidence(s.sender(), "malformed REQUEST: " + e.getMessage());
      return;
    }
    if (pending.containsKey(q.id()) && Arrays.equals(pending.get(q.id()).signature(), s.signature())) {
      return; // a retransmission of a request on the channel already
    }
    if (!s.verify(verifier)) {
      evidence(s.sender(), "bad signature on REQUEST");
      return;
    }
    String refusal = requests.refusal(s, q);
    if (refusal != null) {
      evidence(s.sender(), refusal);
      return;
    }
    if (requests.answeredFromCache(q, 0, out) || !requests.admissible(q, pending.size())) {
      return;
    }
    pending.putIfAbsent(q.id(), s);
    merge(ctx.input(() -> channel.send(s.encode())));
  }

  /** The channel's external validity for one payload: an authentic, well-formed client request. */
  private boolean validPayload(byte[] payload) {
    Signed q;
    try {
      q = Signed.decode(payload);
    } catch (DecodeException e) {
      return false;
    }
    if (q.kind() != Kind.REQUEST) {
      return false;
    }
    Signed known = null;
    try {
      known = pending.get(Request.decode(q.body()).id());
    } catch (DecodeException e) {
      return false;
    }
    return requests.invalidInBatch(q, known != null && Arrays.equals(known.signature(), q.signature())) == null;
  }

  /** Worth a round: a request the client table would still execute (evaluated on the delivered prefix). */
  private boolean wanted(byte[] payload) {
    Request r;
    try {
      r = Request.decode(Signed.decode(payload).body());
    } catch (DecodeException e) {
      return false;
    }
    Long ahead = deliveredAhead.get(r.sequenceId());
    return requests.wouldRun(r) && (ahead == null || r.messageNumber() > ahead);
  }

  /**
   * A round the channel delivered: reported as committed (view 0, seq = round, the decided vector's
   * digest and payloads, as PBFT reports a committed batch) and executed at once unless a state capture
   * is awaited.
   */
  private void onDelivered(AtomicBroadcast.Delivery d) {
    List<Signed> batch = new ArrayList<>(d.payloads().size());
    for (byte[] payload : d.payloads()) {
      batch.add(Signed.decode(payload)); // valid: external validity held
    }
    out.events.add(new Event.Committed(0, d.round(), d.digest(), List.copyOf(batch)));
    delivered.add(d);
    if (pendingCapture >= 0) {
      for (byte[] payload : d.payloads()) {
        Request r = Request.decode(Signed.decode(payload).body());
        deliveredAhead.merge(r.sequenceId(), r.messageNumber(), Math::max);
      }
    }
    executeDelivered();
  }

  /** Delivered rounds to execution, in order, pausing after a checkpoint round until its state is captured. */
  private void executeDelivered() {
    while (pendingCapture < 0 && !delivered.isEmpty()) {
      AtomicBroadcast.Delivery d = delivered.poll();
      lastExecuted = d.round();
      List<Request> run = new ArrayList<>();
      List<Request> terminates = new ArrayList<>();
      for (byte[] payload : d.payloads()) {
        Request r = Request.decode(Signed.decode(payload).body()); // valid: external validity held
        pending.remove(r.id());
        switch (requests.order(r)) {
          case RUN -> run.add(r);
          case TERMINATE -> terminates.add(r);
          case SKIP -> { } // a duplicate, a replay, or a sequence of another client
        }
      }
      // requests the client table would no longer run (a copy with other bytes was ordered, or another
      // client took the sequence first) will never be delivered under their id: they leave pending too
      pending.values().removeIf(q -> !requests.wouldRun(Request.decode(q.body())));
      requests.answerTerminates(0, terminates, out);
      if (!run.isEmpty()) {
        Effect.Execute ex = new Effect.Execute(d.round(), 0, d.digest(), List.copyOf(run),
            Collections.nCopies(run.size(), NO_RANDOM));
        awaitingResults.add(ex);
        out.effects.add(ex);
      }
      if (d.round() % cfg.checkpointInterval() == 0) {
        pendingCapture = d.round();
        out.effects.add(new Effect.CaptureState(d.round()));
      }
    }
    if (delivered.isEmpty()) {
      deliveredAhead.clear();
    }
  }

  // ---------------------------------------------------------------- checkpoints (Castro-Liskov §4.3)

  private void onCheckpoint(Signed s) {
    if (!s.verify(verifier)) {
      evidence(s.sender(), "bad signature on CHECKPOINT");
      return;
    }
    Checkpoint cp;
    try {
      cp = Checkpoint.decode(s.body());
    } catch (DecodeException e) {
      evidence(s.sender(), "malformed CHECKPOINT: " + e.getMessage());
      return;
    }
    if (cp.seq() <= stableSeq) {
      return;
    }
    if (cp.seq() % cfg.checkpointInterval() != 0 || cp.seq() > stableSeq + cfg.logWindow()) {
      evidence(s.sender(), "checkpoint at " + cp.seq() + ": not a multiple of the interval within the window");
      return;
    }
    vote(s.sender(), cp.seq(), cp.stateDigest());
  }

  private void vote(int sender, long seq, byte[] digest) {
    Map<Integer, byte[]> ofSeq = votes.computeIfAbsent(seq, k -> new HashMap<>());
    byte[] before = ofSeq.putIfAbsent(sender, digest);
    if (before != null) {
      if (!Arrays.equals(before, digest)) {
        evidence(sender, "two checkpoint digests for " + seq);
      }
      return;
    }
    long matching = ofSeq.values().stream().filter(d -> Arrays.equals(d, digest)).count();
    if (matching >= cfg.quorum() && seq > stableSeq) {
      stableSeq = seq;
      votes.headMap(seq, true).clear();
      out.events.add(new Event.CheckpointStable(seq, digest));
    }
  }

  // ---------------------------------------------------------------- helpers

  private void merge(Ready r) {
    out.messages.addAll(r.messages);
    out.events.addAll(r.events);
    out.effects.addAll(r.effects);
  }

  private void evidence(int node, String what) {
    out.events.add(new Event.Evidence(node, what));
  }

  private Ready flush() {
    executeDelivered();
    Ready r = out;
    out = Ready.forClient();
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
    return stableSeq;
  }

  @Override
  public int pendingRequests() {
    return pending.size();
  }

  /** Rounds delivered by the channel (executed or waiting for a state capture). */
  public long deliveredRound() {
    return channel.deliveredRound();
  }

  /** Messages waiting for instances not created yet (rounds this replica has not reached). */
  public int buffered() {
    return ctx.router().buffered();
  }

  /** Messages dropped because a sender's share of that buffer was full. */
  public long dropped() {
    return ctx.router().dropped();
  }

  @Override
  public String describe() {
    return "async round=" + channel.deliveredRound() + " executed=" + lastExecuted + " stable=" + stableSeq
        + " pending=" + pending.size() + " queued=" + channel.queued() + " capture=" + pendingCapture
        + " instances=" + ctx.router().instances() + " buffered=" + ctx.router().buffered()
        + " dropped=" + ctx.router().dropped();
  }
}
