package org.bftws.core.async;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.Consumer;
import org.bftws.core.codec.DecodeException;
import org.bftws.core.config.GroupConfig;
import org.bftws.core.crypto.Signer;
import org.bftws.core.crypto.threshold.Dealt;
import org.bftws.core.crypto.threshold.SignatureShare;
import org.bftws.core.crypto.threshold.ThresholdParams;
import org.bftws.core.message.Kind;
import org.bftws.core.message.ReplyBundle;
import org.bftws.core.message.Request;
import org.bftws.core.message.RequestId;
import org.bftws.core.message.Signed;
import org.bftws.core.replication.CoinConfig;
import org.bftws.core.engine.Effect;
import org.bftws.core.engine.Event;
import org.bftws.core.engine.Journal;
import org.bftws.core.engine.Ready;
import org.bftws.core.testkit.EffectPerformer;
import org.bftws.core.testkit.EngineHarness;
import org.bftws.core.testkit.EngineHarness.Msg;
import org.bftws.core.testkit.HashChainApp;
import org.bftws.core.testkit.JournalDisks;
import org.bftws.core.testkit.Scheduler;
import org.bftws.core.testkit.TestKeys;
import org.bftws.core.testkit.TestRandom;

/**
 * n {@link AsyncReplica}s, each with a {@link HashChainApp}, and clients (ids n, n+1, …) on an in-memory
 * asynchronous network scheduled by a seeded adversary as {@link AsyncNet}'s: any pending message next,
 * a bias towards the newest per seed, and messages that {@link #holdBack} names only when nothing else is
 * pending. Effects are performed at once, in order. No ticks are given unless a test calls {@link #tick}.
 * Byzantine replicas have no engine: messages to them are dropped, and tests make them speak with {@link
 * #post}. Lossy links: a replica that is {@link #down} loses every message delivered to it meanwhile, and
 * messages that {@link #lose} names are lost (kept in {@link #lost}); {@link #restart} replaces a replica
 * by an empty one (amnesia). With {@link #journaled}, each replica keeps a journal (compacted at each
 * stable checkpoint, as the module's store does) and {@link #restartFromJournal} restarts it with state.
 */
final class AsyncCluster {
  private static final int MAX_STEPS = 2_000_000;
  /** {@code bftws.retransmitTicks} of the cluster's replicas. */
  static final int RETRANSMIT_TICKS = 4;

  final int n;
  final int f;
  final int clients;
  final long seed;
  final GroupConfig cfg;
  /** The first client node id ({@link GroupConfig#clientBase}): client c is node base + c. */
  final int base;
  private final Random rng;
  private final TestKeys keys;
  private final Dealt coins;
  /** The group on the test kit's harness, scheduled by {@link Scheduler#adversary}. */
  private final EngineHarness harness;
  private final HashChainApp[] apps;
  /** Per replica: the requests it executed, in order. */
  final List<List<Request>> executed = new ArrayList<>();
  /** Per replica: the random number each executed request got, in order. */
  final List<List<byte[]>> randoms = new ArrayList<>();
  /** Per replica: the checkpoints that became stable there. */
  final List<List<Long>> stable = new ArrayList<>();
  final List<List<Event.Evidence>> evidence = new ArrayList<>();
  /** Per client: reply bundles received. */
  final List<Integer> replies = new ArrayList<>();
  /** Per client, per request (sequence and message number): the result each replica's authentic reply carried. */
  private final List<Map<RequestId, Map<Integer, String>>> answers = new ArrayList<>();
  private Held heldBack;
  private Held lose;
  /** Sees every message a correct replica sends (sender, envelope), e.g. to forge a Byzantine answer. */
  private java.util.function.BiConsumer<Integer, Signed> watch;
  /** Messages lost to {@link #lose} (their envelopes, as sent). */
  final List<Signed> lost = new ArrayList<>();
  /** Per replica: the checkpoints it installed by state transfer. */
  final List<List<Long>> installed = new ArrayList<>();
  private final boolean[] down;
  private boolean journaled;
  /** Per replica: its journal as the embedding keeps it (appended, compacted at each STABLE record). */
  final JournalDisks journals;
  /** Per replica: every SIGNED record it ever emitted, across its restarts. */
  final List<List<Journal.Record>> everSigned = new ArrayList<>();
  /** Per replica, across its restarts: per slot ({@link WireSlots}), the payload it first sent there. */
  private final List<Map<String, String>> sentInSlot = new ArrayList<>();
  /** Per replica: the first slot in which it sent two different payloads, or null. */
  private final String[] contradictions;

  /** Which messages the adversary holds back: by sender, destination and envelope. */
  interface Held {
    boolean test(int from, int to, Signed s);
  }
  /** With {@link #slowCaptures}: state captures asked for and not yet done (replica, seq). */
  private final List<long[]> captures = new ArrayList<>();
  private boolean slowCaptures;
  private final long[] nextNumber;
  private final int[] maxBuffered;

  AsyncCluster(int n, int f, int clients, long seed, Set<Integer> byzantine, int checkpointInterval) {
    this(n, f, clients, seed, byzantine, checkpointInterval, false);
  }

  /** With {@code coinPerBatch}: {@code bftws.coinPerBatch} on (one threshold coin per round). */
  AsyncCluster(int n, int f, int clients, long seed, Set<Integer> byzantine, int checkpointInterval,
      boolean coinPerBatch) {
    this(n, f, clients, seed, byzantine, GroupConfig.builder().set(GroupConfig.CHECKPOINT_INTERVAL, checkpointInterval)
        .set(GroupConfig.COIN_PER_BATCH, coinPerBatch));
  }

  /** With the cluster's own settings (f, batch size, retransmission) set on {@code config}'s others. */
  AsyncCluster(int n, int f, int clients, long seed, Set<Integer> byzantine, GroupConfig.Builder config) {
    this.n = n;
    this.journals = new JournalDisks(n);
    this.f = f;
    this.clients = clients;
    this.seed = seed;
    this.rng = new Random(seed);
    this.cfg = config.set(GroupConfig.F, f).set(GroupConfig.MAX_BATCH_SIZE, 16)
        .set(GroupConfig.RETRANSMIT_INTERVAL, RETRANSMIT_TICKS).build();
    this.base = cfg.clientBase();
    this.keys = TestKeys.seeded(base + clients, seed);
    this.coins = AsyncNet.CKS.deal(new ThresholdParams(n, f + 1, f), TestRandom.seeded(seed));
    down = new boolean[n];
    contradictions = new String[n];
    double newestBias = rng.nextBoolean() ? 0 : rng.nextDouble();
    harness = new EngineHarness(cfg, keys, this::newReplica, Scheduler.adversary(rng, newestBias, this::held))
        .services(this::service).observer(this::observe).router(this::route).deferral(this::deferred)
        .receiver((to, bytes) -> {
          if (to >= n) {
            reply(to - base, ReplyBundle.decode(bytes));
          }
        }).received(this::checkBuffers).drop(m -> m.to() < n && (down[m.to()] || lost(m)))
        .interleave(this::capture).maxSteps(MAX_STEPS, "no quiescence after " + MAX_STEPS + " messages, seed " + seed);
    apps = new HashChainApp[n];
    for (int i = 0; i < n; i++) {
      executed.add(new ArrayList<>());
      randoms.add(new ArrayList<>());
      stable.add(new ArrayList<>());
      evidence.add(new ArrayList<>());
      installed.add(new ArrayList<>());
      everSigned.add(new ArrayList<>());
      sentInSlot.add(new HashMap<>());
      if (!byzantine.contains(i)) {
        restart(i);
      }
    }
    for (int c = 0; c < clients; c++) {
      replies.add(0);
      answers.add(new HashMap<>());
    }
    nextNumber = new long[clients];
    maxBuffered = new int[n];
  }

  boolean correct(int i) {
    return harness.engine(i) != null;
  }

  /** Replaces replica i by a fresh one with the same keys and an empty service (amnesia). */
  void restart(int i) {
    harness.start(i);
    apps[i] = new HashChainApp();
    executed.get(i).clear();
    randoms.get(i).clear();
  }

  private AsyncReplica newReplica(int i, GroupConfig config, TestKeys k) {
    CoinConfig coin = new CoinConfig(AsyncNet.CKS, coins.group(), coins.share(i + 1), new byte[0]);
    AsyncReplica r = AsyncReplica.builder(config, i, k.signer(i), k.verifier()).coin(coin).build();
    return journaled ? r.journaled() : r;
  }

  /** Every correct replica keeps a journal from now on (rebuilt journaled): call before the first request. */
  AsyncCluster journaled() {
    journaled = true;
    for (int i = 0; i < n; i++) {
      if (correct(i)) {
        restart(i);
      }
    }
    return this;
  }

  /**
   * Replaces replica i by a fresh journaled one with an empty service, recovered from its journal (a kill
   * and a restart with state).
   */
  void restartFromJournal(int i) {
    restart(i);
    journals.recover(harness, i);
  }

  /** Replaces replica i by a fresh one that has lost its journal (the forgetful control): it starts empty. */
  void restartForgetful(int i) {
    journals.get(i).clear();
    restart(i);
  }

  /**
   * The first slot ({@code pid#type#key}) in which replica i sent two different messages, over all its
   * incarnations, as seen on the wire (every envelope it sent, lost or not); null if none.
   */
  String contradiction(int i) {
    return contradictions[i];
  }

  /**
   * Records what replica i sent in each slot of the channel's instances ({@link WireSlots}),
   * and its first contradiction.
   */
  private void onWire(int i, Signed s) {
    if (s.kind() != Kind.ASYNC) {
      return;
    }
    AsyncMessage m = AsyncMessage.decode(s.body());
    String slot = WireSlots.of(m);
    if (slot == null) {
      return;
    }
    String payload = HexFormat.of().formatHex(m.payload());
    String before = sentInSlot.get(i).putIfAbsent(slot, payload);
    if (before != null && !before.equals(payload) && contradictions[i] == null) {
      contradictions[i] = slot;
    }
  }

  /** Node {@code node}'s share of the threshold coin on {@code message} (a Byzantine node's, to misuse). */
  SignatureShare coinShare(int node, byte[] message) {
    return AsyncNet.CKS.share(coins.group(), coins.share(node + 1), message);
  }

  /** From now on {@code w} sees every message a correct replica sends. */
  void watch(java.util.function.BiConsumer<Integer, Signed> w) {
    this.watch = w;
  }

  /** While down, replica i loses every message delivered to it (a crash without amnesia). */
  void down(int i, boolean isDown) {
    down[i] = isDown;
  }

  /** From now on, messages that {@code which} names are lost (and kept in {@link #lost}). */
  void lose(Held which) {
    this.lose = which;
  }

  /** One tick at every correct replica. */
  void tick() {
    harness.tick();
  }

  /** {@code ticks} ticks, the network running to quiescence after each. */
  void tickAndRun(int ticks) {
    for (int t = 0; t < ticks; t++) {
      tick();
      run();
    }
  }

  /** Replica i's application state. */
  byte[] appState(int i) {
    return apps[i].getState();
  }

  /** Hands bytes to replica i at once (outside the network's order) and performs what it asks. */
  void deliverNow(int i, byte[] bytes) {
    harness.handle(i, replica(i).receive(bytes));
  }

  AsyncReplica replica(int i) {
    return (AsyncReplica) harness.engine(i);
  }

  Signer signer(int node) {
    return keys.signer(node);
  }

  /** Client c's next request, signed, sent to the replicas {@code to}; returns it. */
  Signed request(int c, List<Integer> to) {
    return request(c, to, false);
  }

  /** Client c's next request, randomized or not. */
  Signed request(int c, List<Integer> to, boolean randomized) {
    int client = base + c;
    Request q = new Request(client, "seq-" + client, ++nextNumber[c], randomized,
        ("op " + c + "/" + nextNumber[c]).getBytes(StandardCharsets.US_ASCII));
    Signed s = Signed.sign(Kind.REQUEST, client, q.encode(), keys.signer(client));
    for (int i : to) {
      post(client, i, s.encode());
    }
    return s;
  }

  /** {@code q} (of client base + c), signed by its client and sent to every replica; returns it signed. */
  Signed send(int c, Request q) {
    Signed s = Signed.sign(Kind.REQUEST, base + c, q.encode(), keys.signer(base + c));
    for (int i = 0; i < n; i++) {
      post(base + c, i, s.encode());
    }
    return s;
  }

  void post(int from, int to, byte[] bytes) {
    harness.post(new Msg(from, to, bytes));
  }

  /** Messages that {@code held} names (sender, envelope) wait until nothing else is pending. */
  void holdBack(Held held) {
    this.heldBack = held;
  }

  /** State captures are done at random later points of the run, not at once (as a slow embedding would). */
  void slowCaptures() {
    slowCaptures = true;
  }

  /** The most messages replica i ever held for rounds it had not reached. */
  int maxBuffered(int i) {
    return maxBuffered[i];
  }

  int delivered() {
    return (int) harness.taken();
  }

  int run() {
    int before = delivered();
    harness.run();
    return delivered() - before;
  }

  boolean step() {
    return harness.step();
  }

  /** A state capture held back by {@link #slowCaptures}, done now and then, or whenever the network is quiet. */
  private boolean capture(boolean networkEmpty) {
    if (captures.isEmpty() || !(networkEmpty || rng.nextInt(20) == 0)) {
      return false;
    }
    long[] cs = captures.remove(rng.nextInt(captures.size()));
    int i = (int) cs[0];
    harness.handle(i, replica(i).stateCaptured(cs[1], apps[i].getState()));
    return true;
  }

  private void checkBuffers(int to) {
    AsyncReplica r = replica(to);
    maxBuffered[to] = Math.max(maxBuffered[to], r.buffered());
    if (r.dropped() > 0) {
      throw new AssertionError("replica " + to + " dropped messages: " + r.describe() + ", seed " + seed);
    }
  }

  private void reply(int c, ReplyBundle b) {
    if (!b.verify(keys.verifier())) {
      throw new AssertionError("reply with a bad certificate from " + b.sender() + ", seed " + seed);
    }
    replies.set(c, replies.get(c) + 1);
    String result = HexFormat.of().formatHex(b.result());
    String before = answers.get(c).computeIfAbsent(new RequestId(b.sequenceId(), b.messageNumber()), k -> new HashMap<>())
        .putIfAbsent(b.sender(), result);
    if (before != null && !before.equals(result)) {
      throw new AssertionError("replica " + b.sender() + " gave two results, seed " + seed);
    }
  }

  /** The replicas whose authentic replies to client c's request {@code number} carry one same result. */
  int matchingReplies(int c, long number) {
    Map<Integer, String> byReplica = answers.get(c).getOrDefault(new RequestId("seq-" + (base + c), number), Map.of());
    return (int) byReplica.values().stream().distinct().count() <= 1 ? byReplica.size() : -1;
  }

  private void observe(int i, Ready r) {
    for (Journal.Record rec : r.persist) {
      journals.append(i, rec);
      if (rec.type() == Journal.Type.SIGNED) {
        everSigned.get(i).add(rec);
      }
    }
    for (Event e : r.events) {
      if (e instanceof Event.Evidence ev) {
        evidence.get(i).add(ev);
      } else if (e instanceof Event.CheckpointStable cs) {
        stable.get(i).add(cs.seq());
      } else if (e instanceof Event.StateInstalled si) {
        installed.get(i).add(si.seq());
      }
    }
  }

  private void route(int i, Ready.Outbound o, Consumer<Msg> post) {
    if (o.to() < n) {
      Signed s = Signed.decode(o.bytes());
      onWire(i, s);
      if (watch != null) {
        watch.accept(i, s);
      }
    }
    EngineHarness.Router.replicas(n).route(i, o, post);
  }

  private List<Effect> deferred(int i, List<Effect> effects) {
    List<Effect> now = new ArrayList<>();
    for (Effect e : effects) {
      if (e instanceof Effect.CaptureState cs && slowCaptures) {
        captures.add(new long[] {i, cs.seq()}); // done later, by the test
      } else {
        now.add(e);
      }
    }
    return now;
  }

  /** Replica i's {@link HashChainApp}, recording what it executes and the random numbers it gets. */
  private EffectPerformer.Service service(int i) {
    return EffectPerformer.of(apps[i], ex -> {
      executed.get(i).addAll(ex.requests());
      randoms.get(i).addAll(ex.randoms());
    });
  }

  private boolean lost(Msg p) {
    if (lose == null || p.from() >= n) {
      return false;
    }
    Signed s = Signed.decode(p.bytes());
    if (!lose.test(p.from(), p.to(), s)) {
      return false;
    }
    lost.add(s);
    return true;
  }

  private boolean held(Msg p) {
    if (heldBack == null) {
      return false;
    }
    try {
      return heldBack.test(p.from(), p.to(), Signed.decode(p.bytes()));
    } catch (DecodeException e) {
      return false;
    }
  }
}
