package org.bftws.core.pbft;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.IntFunction;
import java.util.function.Predicate;
import org.bftws.core.codec.DecodeException;
import org.bftws.core.config.GroupConfig;
import org.bftws.core.crypto.Authentication;
import org.bftws.core.crypto.Signer;
import org.bftws.core.crypto.Verifier;
import org.bftws.core.crypto.threshold.Dealt;
import org.bftws.core.crypto.threshold.ThresholdParams;
import org.bftws.core.crypto.threshold.ThresholdScheme;
import org.bftws.core.engine.Effect;
import org.bftws.core.engine.Event;
import org.bftws.core.engine.Journal;
import org.bftws.core.engine.KeySet;
import org.bftws.core.engine.Ready;
import org.bftws.core.message.Kind;
import org.bftws.core.message.Request;
import org.bftws.core.message.SequenceOwner;
import org.bftws.core.message.Signed;
import org.bftws.core.pbft.RandomnessConfig.Algorithm;
import org.bftws.core.replication.CoinConfig;
import org.bftws.core.replication.ConfidentialConfig;
import org.bftws.core.replication.ConfidentialOperations;
import org.bftws.core.replication.RandomizedOperations;
import org.bftws.core.replication.ReplicatedClients;
import org.bftws.core.testkit.EffectPerformer;
import org.bftws.core.testkit.EngineHarness;
import org.bftws.core.testkit.EngineHarness.Msg;
import org.bftws.core.testkit.HashChainApp;
import org.bftws.core.testkit.Scheduler;
import org.bftws.core.testkit.TestKeys;
import org.bftws.core.testkit.TestRandom;
import org.bftws.core.voter.ClientCore;

/**
 * The in-memory replica group of the core's unit tests, in the manner of etcd raft's test network: FIFO
 * delivery, explicit ticks, no threads; {@link #isolate}, {@link #drop} (lost) and {@link #hold} (set aside
 * until {@link #release}) choose what arrives. Each replica runs a {@link HashChainApp}; the replicas get
 * random numbers as {@link Randomness} says (integrity paper §4 BA, §5 CT). Clients are {@link ClientCore}s
 * (nodes n..n+clients−1), and one more node, {@link #rawClient}, signs requests a test builds and sends itself.
 */
final class Cluster {
  /** The coins' group id (integrity paper §5: the coin name starts with it). */
  static final byte[] GROUP_ID = "urn:bftws:test-group".getBytes(StandardCharsets.US_ASCII);

  /** The raw client's sequence id. */
  static final String RAW_SEQUENCE = "urn:uuid:raw-client";

  /**
   * How the replicas get random numbers: none, CT with a scheme and (n, k, f), BA plain or hardened; and which
   * operations are randomized (default: the client's flag).
   */
  record Randomness(Algorithm algorithm, ThresholdScheme scheme, ThresholdParams params,
      RandomizedOperations operations) {
    static final Randomness NONE = new Randomness(Algorithm.NONE, null, null, RandomizedOperations.AS_FLAGGED);

    static Randomness ct(ThresholdScheme scheme, ThresholdParams params) {
      return new Randomness(Algorithm.CT, scheme, params, RandomizedOperations.AS_FLAGGED);
    }

    static Randomness ba(boolean hardened) {
      return new Randomness(hardened ? Algorithm.BA_HARDENED : Algorithm.BA, null, null,
          RandomizedOperations.AS_FLAGGED);
    }

    Randomness withOperations(RandomizedOperations ops) {
      return new Randomness(algorithm, scheme, params, ops);
    }
  }

  final GroupConfig cfg;
  final int n;
  final Randomness randomness;
  /** How replicas authenticate prepares and commits (with MACs each has {@link #authenticators}). */
  final Authentication authentication;
  /** CT only: the dealt threshold key (share i+1 to replica i). */
  final Dealt dealt;
  final Replica[] replicas;
  final HashChainApp[] apps;
  /** Each replica's executed batches, in order (cleared by {@link #restart}, as its service is). */
  final List<List<Effect.Execute>> executed = new ArrayList<>();
  final List<List<Event>> events = new ArrayList<>();
  final TestKeys keys;
  final Map<Integer, Signer> signers;
  final Verifier verifier;
  /** The group on the test kit's harness: FIFO network, explicit ticks. */
  final EngineHarness harness;
  final Scheduler<Msg> net;
  final Set<Integer> down;
  final Map<Integer, ClientCore> clients = new HashMap<>();
  final List<Event.Delivered> delivered = new ArrayList<>();
  final List<Event.ReadOnlyFallback> fallbacks = new ArrayList<>();
  /** Operations starting with "read" are read-only (Castro-Liskov §5.1.3); a read-only execution returns 8 bytes of the state. */
  static final ReadOnlyOperations READS = q -> new String(q.operation(), StandardCharsets.UTF_8).startsWith("read");
  /** Replica i's read-only executions since its last restart. */
  final Map<Integer, List<Request>> readOnlyExecuted = new HashMap<>();
  /** Byzantine replicas whose read-only results are wrong. */
  final Set<Integer> lyingReaders = new HashSet<>();
  /** Messages that are lost. */
  Predicate<Msg> drop = m -> false;
  /** Messages set aside in {@link #held} instead of delivered. */
  Predicate<Msg> hold = m -> false;
  final List<Msg> held;
  /** Every message delivered, in order. */
  final List<Msg> sent;
  private long rawNumber;
  /** Which clients form a replicated client (BFT-WS §3.4), as every replica is told at (re)start. */
  private ReplicatedClients replicated = ReplicatedClients.none();
  /** Replicas keep a journal ({@link #journaled}): each one's records as persisted, uncompacted. */
  private boolean journaling;
  final List<List<Journal.Record>> journals = new ArrayList<>();
  /** Per replica, its restarts from the journal: each draws other BA entropy, as a real restart would. */
  private final Map<Integer, Integer> journalRestarts = new HashMap<>();
  /** Per replica, its confidential-request material (SINTRA §2.6), given at (re)start; null entries: none. */
  ConfidentialConfig[] confidential = new ConfidentialConfig[0];
  /**
   * Replicas built with keys installed while they run ({@link Replica.Builder#changingKeys}): CT without coin
   * keys yet, these confidential operations without TDH2 keys yet ({@link #changingKeys}).
   */
  private ConfidentialOperations awaitingKeys;
  /** With changing keys: whether the replicas start with the dealt coin keys (else with none). */
  private boolean startWithDealt;
  /** With changing keys: the keys replica i installs after executing a batch (null: none), before its results. */
  BiFunction<Integer, Effect.Execute, KeySet> installs = (i, ex) -> null;
  /** Keys with the seq they serve after, as a checkpoint's state delivers them ({@link #stateDelivers}). */
  record KeysAt(long orderedAt, KeySet keys) {}
  /**
   * With changing keys: the keys the checkpoint state replica i installs delivered (null: none), installed with
   * that state, before the engine hears it is installed (as a replica that caught up past a key switch does).
   */
  IntFunction<KeysAt> stateDelivers = i -> null;
  /** Replicas whose effects wait in {@link #queuedEffects} until {@link #performQueued} (a slow service). */
  final Set<Integer> slow = new HashSet<>();
  private final Map<Integer, ArrayDeque<Effect>> queuedEffects = new HashMap<>();

  /** Each replica in the role {@code cfg}'s executing replicas give it ({@link Role#of}). */
  Cluster(GroupConfig cfg, int clientCount) {
    this(cfg, clientCount, Randomness.NONE);
  }

  Cluster(int f) {
    this(GroupConfig.builder().set(GroupConfig.F, f).set(GroupConfig.CHECKPOINT_INTERVAL, 4)
        .set(GroupConfig.LOG_WINDOW, 8).build(), 1);
  }

  /** Replicas with {@code randomness} and no client but the raw one (f = 1 unless {@code cfg} says). */
  Cluster(GroupConfig cfg, Randomness randomness) {
    this(cfg, 0, randomness);
  }

  Cluster(GroupConfig cfg, int clientCount, Randomness randomness) {
    this(cfg, clientCount, randomness, Authentication.SIGNATURES);
  }

  Cluster(GroupConfig cfg, int clientCount, Randomness randomness, Authentication authentication) {
    this.cfg = cfg;
    this.authentication = authentication;
    this.randomness = randomness;
    this.n = cfg.n();
    // clients from the client base (n unless bftws.maxReplicas is given), then the raw client
    keys = TestKeys.seeded(cfg.clientBase() + clientCount + 1, 42);
    signers = keys.signers();
    verifier = keys.verifier();
    dealt = randomness.algorithm() == Algorithm.CT ? randomness.scheme().deal(randomness.params(), TestRandom.seeded(11))
        : null;
    replicas = new Replica[n];
    apps = new HashChainApp[n];
    harness = new EngineHarness(cfg, keys, (id, config, k) -> newReplica(id), Scheduler.fifo()).services(this::service)
        .router(this::route).observer(this::observe).deferral(this::deferred).receiver(this::toClient)
        .ticked(() -> clients.values().forEach(c -> handleClient(c, c.tick()))).drop(m -> drop.test(m))
        .hold(m -> hold.test(m)).recordSent();
    net = harness.net;
    down = harness.down;
    held = harness.held;
    sent = harness.sent;
    for (int i = 0; i < n; i++) {
      executed.add(new ArrayList<>());
      events.add(new ArrayList<>());
      journals.add(new ArrayList<>());
      restart(i);
    }
    for (int c = 0; c < clientCount; c++) {
      int id = cfg.clientBase() + c;
      clients.put(id, new ClientCore(cfg, id, "urn:uuid:client-" + c, signers.get(id), verifier));
    }
  }

  /** Replace replica i by a fresh one with the same keys and an empty service (amnesia). */
  void restart(int i) {
    replicas[i] = (Replica) harness.start(i);
    apps[i] = new HashChainApp();
    executed.get(i).clear();
    readOnlyExecuted.put(i, new ArrayList<>());
  }

  private Replica newReplica(int i) {
    Replica.Builder b = Replica.builder(cfg, i, signers.get(i), verifier).randomness(randomnessOf(i))
        .macs(authentication == Authentication.MACS ? keys.authenticators(i, n) : null);
    if (awaitingKeys != null) {
      b.changingKeys();
    }
    Replica r = b.build().readOnlyOperations(READS).replicatedClients(replicated);
    if (i < confidential.length && confidential[i] != null) {
      r.confidentialOperations(confidential[i]);
    } else if (awaitingKeys != null) {
      r.confidentialOperationsAwaitingKeys(awaitingKeys);
    }
    if (journaling) {
      r.journaled();
    }
    return r;
  }

  /**
   * Every replica restarts with keys installed while it runs: CT with no coin keys yet (with a CT {@link
   * Randomness}), {@code operations} confidential with no TDH2 keys yet (call before any traffic).
   */
  Cluster changingKeys(ConfidentialOperations operations) {
    return changingKeys(operations, false);
  }

  /** As {@link #changingKeys(ConfidentialOperations)}, starting with the dealt coin keys if {@code dealtFirst}. */
  Cluster changingKeys(ConfidentialOperations operations, boolean dealtFirst) {
    awaitingKeys = operations;
    startWithDealt = dealtFirst;
    for (int i = 0; i < n; i++) {
      restart(i);
    }
    return this;
  }

  /** Replica i's effects held back so far, performed now in order (its slow service catches up). */
  void performQueued(int i) {
    ArrayDeque<Effect> q = queuedEffects.getOrDefault(i, new ArrayDeque<>());
    while (!q.isEmpty()) {
      harness.perform(i, List.of(q.poll()));
    }
  }

  /** Every replica keeps a journal from now on (call before any traffic). */
  Cluster journaled() {
    journaling = true;
    for (int i = 0; i < n; i++) {
      replicas[i].journaled();
    }
    return this;
  }

  /** Replace replica i by a fresh one with an empty service that recovers from its journal (kill -9, restart). */
  void restartFromJournal(int i) {
    List<Journal.Record> journal = List.copyOf(journals.get(i));
    journalRestarts.merge(i, 1, Integer::sum);
    restart(i);
    handle(i, replicas[i].recover(journal));
  }

  private RandomnessConfig randomnessOf(int i) {
    Random entropy = new Random(100 + i + 7919L * journalRestarts.getOrDefault(i, 0));
    RandomnessConfig rc = switch (randomness.algorithm()) {
      case NONE -> RandomnessConfig.none();
      case CT -> awaitingKeys != null && !startWithDealt ? RandomnessConfig.ctAwaitingKeys()
          : RandomnessConfig.ct(new CoinConfig(randomness.scheme(), dealt.group(), dealt.share(i + 1), GROUP_ID));
      case BA -> RandomnessConfig.ba(entropy::nextBytes);
      case BA_HARDENED -> RandomnessConfig.baHardened(entropy::nextBytes);
    };
    return rc.withOperations(randomness.operations());
  }

  /**
   * Makes {@code members} (client ids) one replicated client whose members all use the sequence {@code
   * sequenceId}: every replica restarts knowing it (call before any traffic).
   */
  void replicatedClient(List<Integer> members, String sequenceId) {
    replicated = ReplicatedClients.of(List.of(members));
    for (int m : members) {
      clients.put(m, new ClientCore(cfg, m, sequenceId, signers.get(m), verifier));
    }
    for (int i = 0; i < n; i++) {
      restart(i);
    }
  }

  ClientCore client() {
    return clients.get(cfg.clientBase());
  }

  /** The node that signs the requests {@link #request} builds; it has no {@link ClientCore}, its replies are lost. */
  int rawClient() {
    return keys.count() - 1;
  }

  /** Gives the first client a fresh sequence whose id names it ({@link SequenceOwner}); returns the id. */
  String bindClientSequence() {
    String id = SequenceOwner.bind(n, "bound");
    clients.put(n, new ClientCore(cfg, n, id, signers.get(n), verifier));
    return id;
  }

  void invoke(String op) {
    handleClient(client(), client().invoke(op.getBytes(StandardCharsets.UTF_8), false));
  }

  void invokeReadOnly(String op) {
    handleClient(client(), client().invokeReadOnly(op.getBytes(StandardCharsets.UTF_8)));
  }

  /** The raw client's next request on {@link #RAW_SEQUENCE}, signed; not sent. */
  Signed request(String op, boolean randomized) {
    Request q = new Request(rawClient(), RAW_SEQUENCE, ++rawNumber, randomized, op.getBytes(StandardCharsets.US_ASCII));
    return Signed.sign(Kind.REQUEST, rawClient(), q.encode(), signers.get(rawClient()));
  }

  /** The raw client's next request, operation "op-<number>", sent to every replica and delivered; its body. */
  byte[] submit(boolean randomized) {
    Signed s = request("op-" + (rawNumber + 1), randomized);
    toReplicas(s, allReplicas());
    deliverAll();
    return s.body();
  }

  /** Queues {@code m} from the raw client to these replicas. */
  void toReplicas(Signed m, int... to) {
    for (int i : to) {
      net.post(new Msg(rawClient(), i, m.encode()));
    }
  }

  private int[] allReplicas() {
    int[] all = new int[n];
    for (int i = 0; i < n; i++) {
      all[i] = i;
    }
    return all;
  }

  void handle(int i, Ready r) {
    harness.handle(i, r);
  }

  private void observe(int i, Ready r) {
    journals.get(i).addAll(r.persist); // before the messages leave, as the embedding must
    events.get(i).addAll(r.events);
  }

  /** A {@link #slow} replica's effects, and all behind them, wait in its queue. */
  private List<Effect> deferred(int i, List<Effect> effects) {
    if (slow.contains(i) || !queuedEffects.getOrDefault(i, new ArrayDeque<>()).isEmpty()) {
      queuedEffects.computeIfAbsent(i, k -> new ArrayDeque<>()).addAll(effects);
      return List.of();
    }
    return effects;
  }

  /**
   * Replica i's service: its {@link HashChainApp} (a new one after {@link #restart}), with its executions
   * recorded; a read-only execution returns 8 bytes of the state, falsified at a {@link #lyingReaders} one.
   */
  private EffectPerformer.Service service(int i) {
    return new EffectPerformer.Service() {
      @Override
      public List<byte[]> execute(Effect.Execute ex) {
        executed.get(i).add(ex);
        List<byte[]> results = apps[i].execute(ex);
        KeySet next = installs.apply(i, ex);
        if (next != null) {
          handle(i, replicas[i].installKeys(ex.seq(), next)); // before the results, as the embedding must
        }
        return results;
      }

      @Override
      public byte[] executeReadOnly(Request request) {
        readOnlyExecuted.get(i).add(request);
        byte[] result = java.util.Arrays.copyOf(apps[i].getState(), 8);
        if (lyingReaders.contains(i)) {
          result[0] ^= 1;
        }
        return result;
      }

      @Override
      public byte[] state() {
        return apps[i].getState();
      }

      @Override
      public void install(byte[] state) {
        apps[i].setState(state);
        KeysAt k = stateDelivers.apply(i);
        if (k != null) {
          handle(i, replicas[i].installKeys(k.orderedAt(), k.keys()));
        }
      }
    };
  }

  void handleClient(ClientCore c, Ready r) {
    for (Ready.Outbound m : r.messages) {
      harness.route(c.id(), m);
    }
    for (Event e : r.events) {
      if (e instanceof Event.Delivered d) {
        delivered.add(d);
      } else if (e instanceof Event.ReadOnlyFallback fb) {
        fallbacks.add(fb);
      }
    }
  }

  /** To every other replica, or to one node; what goes to a client without a {@link ClientCore} is lost. */
  private void route(int from, Ready.Outbound m, Consumer<Msg> post) {
    if (m.to() == Ready.ALL_REPLICAS || m.to() < n || clients.containsKey(m.to())) {
      EngineHarness.Router.replicas(n).route(from, m, post);
    }
  }

  private void toClient(int to, byte[] bytes) {
    ClientCore c = clients.get(to);
    handleClient(c, c.receive(bytes));
  }

  /** The kind of a protocol message; null for what goes to clients (reply bundles, not envelopes). */
  static Kind kind(Msg m) {
    try {
      return Signed.decode(m.bytes()).kind();
    } catch (DecodeException e) {
      return null;
    }
  }

  /** Inject raw bytes as if from a node (for Byzantine messages built by a test). */
  void inject(int from, int to, byte[] bytes) {
    net.post(new Msg(from, to, bytes));
  }

  /** Hands {@code bytes} to replica {@code to} now, past the network (its answers are queued). */
  void deliver(int to, byte[] bytes) {
    harness.deliver(to, bytes);
  }

  /** Delivers the held messages that match, in order, then everything queued. */
  void release(Predicate<Msg> which) {
    List<Msg> now = new ArrayList<>();
    held.removeIf(m -> which.test(m) && now.add(m));
    for (Msg m : now) {
      deliver(m.to(), m.bytes());
    }
    deliverAll();
  }

  void deliverAll() {
    harness.run();
  }

  void tick(int times) {
    for (int t = 0; t < times; t++) {
      harness.tick();
      deliverAll();
    }
  }

  /** Ticks until {@code done} holds; fails after {@code maxTicks}. */
  void tickUntil(Predicate<Cluster> done, int maxTicks) {
    for (int t = 0; t < maxTicks && !done.test(this); t++) {
      tick(1);
    }
    if (!done.test(this)) {
      throw new AssertionError("condition not reached within " + maxTicks + " ticks");
    }
  }

  void isolate(int i) {
    down.add(i);
  }

  void heal(int i) {
    down.remove(i);
  }

  <T extends Event> List<T> eventsOf(int i, Class<T> type) {
    List<T> out = new ArrayList<>();
    for (Event e : events.get(i)) {
      if (type.isInstance(e)) {
        out.add(type.cast(e));
      }
    }
    return out;
  }

  /** Replica i's evidence whose text contains {@code text}, against {@code node} (−1: anyone). */
  boolean evidenceAt(int i, int node, String text) {
    return eventsOf(i, Event.Evidence.class).stream()
        .anyMatch(e -> (node < 0 || e.node() == node) && e.what().contains(text));
  }

  /** The operations replica i executed since its last restart, in order. */
  List<String> operations(int i) {
    return operations(executed.get(i));
  }

  /** The operations of {@code executed}, in order (also {@link SeparatedGroup}'s). */
  static List<String> operations(List<Effect.Execute> executed) {
    List<String> out = new ArrayList<>();
    for (Effect.Execute ex : executed) {
      for (Request q : ex.requests()) {
        out.add(new String(q.operation(), StandardCharsets.UTF_8));
      }
    }
    return out;
  }

  /** The random number replica i executed operation {@code op} with (null: not executed). */
  byte[] randomOf(int i, String op) {
    for (Effect.Execute ex : executed.get(i)) {
      for (int j = 0; j < ex.requests().size(); j++) {
        if (new String(ex.requests().get(j).operation(), StandardCharsets.UTF_8).equals(op)) {
          return ex.randoms().get(j);
        }
      }
    }
    return null;
  }

  /** Messages delivered so far of this kind. */
  long sentOfKind(Kind kind) {
    return sent.stream().filter(m -> kind(m) == kind).count();
  }
}
