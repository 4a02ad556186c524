package org.bftws.sim;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.bftws.core.async.AsyncReplica;
import org.bftws.core.hybrid.HybridReplica;
import org.bftws.core.config.GroupConfig;
import org.bftws.core.crypto.Authentication;
import org.bftws.core.crypto.Authenticators;
import org.bftws.core.crypto.Ed25519;
import org.bftws.core.crypto.Signer;
import org.bftws.core.crypto.Verifier;
import org.bftws.core.crypto.threshold.ThresholdParams;
import org.bftws.core.message.Request;
import org.bftws.core.message.SequenceOwner;
import org.bftws.core.message.Signed;
import org.bftws.core.replication.CoinConfig;
import org.bftws.core.engine.Effect;
import org.bftws.core.engine.Engine;
import org.bftws.core.pbft.Entropy;
import org.bftws.core.engine.Event;
import org.bftws.core.engine.Journal;
import org.bftws.core.pbft.ExecutionNode;
import org.bftws.core.replication.RandomizedOperations;
import org.bftws.core.pbft.RandomnessConfig;
import org.bftws.core.engine.Ready;
import org.bftws.core.pbft.Replica;
import org.bftws.core.replication.ReplicatedClients;
import org.bftws.core.testkit.EffectPerformer;
import org.bftws.core.testkit.HashChainApp;
import org.bftws.core.testkit.TestKeys;
import org.bftws.core.voter.ClientCore;
import org.bftws.sim.ReplicaNode.Instance;
import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;
import org.bouncycastle.crypto.params.Ed25519PublicKeyParameters;

/**
 * A whole replica group and its clients in one thread, on virtual time, driven by one seed (the
 * FoundationDB/TigerBeetle approach of docs/design/testing.md). Events are ordered by (time, insertion order), so a
 * seed replays exactly. The fault mix comes from {@link Faults}, the nemesis from {@link Byzantine}; the
 * {@link Checker} judges what correct nodes report.
 */
public final class Simulation {
  /** Ticks after the heal within which every outstanding request of a correct client must complete (L1). */
  static final long LIVENESS_BOUND = 20_000;
  /**
   * Ticks after the clients are done (and the heal) within which every correct replica must have executed as
   * far as the furthest correct replica (L2): a replica that was cut off, crashed or alone in a view change
   * catches up too.
   */
  static final long CATCH_UP_BOUND = 5_000;
  /** {@code -Dsim.trace=true} prints every replica's events of a (replayed) run to stderr. */
  private static final boolean TRACE = Boolean.getBoolean("sim.trace");

  final SimOptions o;
  final GroupConfig cfg;
  final Random rng;
  /** Messages between nodes, through the nemesis. */
  private final Routing routing = new Routing(this);
  final Faults faults;
  final Checker checker;
  /** CT algorithm: each replica's coin material (index i: replica i), or null without randomness. */
  private final CoinConfig[] coinConfigs;
  /** Asynchronous ordering: each replica's share of the binary agreements' threshold coin (null for PBFT). */
  private final CoinConfig[] asyncCoins;
  /**
   * With {@code --confidential}: the group's TDH2 key and the clients' sealing (null otherwise; with {@code --keys
   * dkg} null until a correct replica's group.pub is certified, as a client fetches and checks it).
   */
  private SealedOperations sealed;
  /** With {@code --keys dkg}: the distributed key generation over the group's ordering (null otherwise). */
  final SimDkg dkg;
  final Network net;
  /** Asynchronous ordering: the scheduler's policy (null for PBFT). */
  private final AsyncAdversary adversary;
  final Map<Integer, Signer> signers = new HashMap<>();
  private final Verifier verifier;
  /** With {@code --authentication macs}: each replica's authenticators (index i: replica i); else null. */
  private final Authenticators[] macs;
  final ReplicaNode[] replicas;
  /** Configuration III: the execution nodes, in {@link GroupConfig#executionNodes} order (none otherwise). */
  final ReplicaNode[] executors;
  /** Configuration III: the execution nodes' crashes, drawn apart from the replicas' (node ids). */
  private final List<Faults.Crash> executorCrashes = new ArrayList<>();
  /** Replicas and execution nodes. */
  private final List<ReplicaNode> nodes = new ArrayList<>();
  final ClientNode[] clients;
  /** With randomness or FLAGGING: the identity that flags unrandomized operations (null otherwise). */
  private final FlaggingClient flagging;
  /** ISOLATE: the correct replica cut off from the other replicas until the heal (-1: none). */
  final int isolated;
  /** MEMBER: the replicated client of clients 0..3 (ids n..n+3), else none. */
  private final ReplicatedClients replicated;
  private final ByzantineClients byzantineClients = new ByzantineClients(this);
  long time;
  /** Twins only: when one copy restarts empty (-1: never in this seed). */
  private final long twinAmnesiaAt;
  /**
   * Whether replicas are given ticks: always under PBFT (its timers); under asynchronous ordering by a draw
   * from the seed alone (not {@link #rng}: a run without ticks keeps the schedule it had before ticks
   * existed), one run in three without — SINTRA's liveness needs no timer, and those runs show it.
   */
  private final boolean ticks;

  public Simulation(SimOptions o) {
    this(o, 0);
  }

  /**
   * With {@code steadyDelay} above 0, no drawn fault mix: a steady network whose messages take
   * 1..steadyDelay ticks and clients that send their next request at once (a benchmark's closed loop; see
   * {@link org.bftws.sim.bench.SlowPrimaryBench}). 0: the seed's fault mix, as every test run has it.
   */
  private Simulation(SimOptions o, int steadyDelay) {
    this.o = o.check();
    this.rng = new Random(o.seed());
    this.cfg = o.groupConfig();
    int n = o.n();
    Checker.CoinOracle oracle = null;
    if (o.random() == SimOptions.Randomness.CT) {
      coinConfigs = new CoinConfig[n];
      oracle = o.dkg() ? null : SimDealer.dealCoins(o, coinConfigs); // generated keys: S8's oracle comes later
    } else {
      coinConfigs = null;
    }
    // CT under asynchronous ordering: one dealt key tosses binary agreement's coins and the requests' (the
    // engine signs the two in separate domains), so the checker's oracle checks the random numbers (S8).
    asyncCoins = !o.channel() ? null : coinConfigs != null ? coinConfigs : SimDealer.dealAsyncCoins(o);
    sealed = !o.confidential() || o.dkg() ? null : new SealedOperations(o.seed(), ThresholdParams.forF(o.f()),
        groupId());
    replicated = o.byzantine() != Byzantine.MEMBER ? ReplicatedClients.none()
        : ReplicatedClients.of(List.of(List.of(o.n(), o.n() + 1, o.n() + 2, o.n() + 3)));
    checker = new Checker(oracle);
    checker.replicatedClients(replicated);
    checker.operations(operations());
    TestKeys drawn = TestKeys.drawn(n + o.clients(), rng); // drawn with keygen's keys too: the schedule stays the seed's
    for (int i = 0; o.keys() != null && i < n; i++) {
      drawn = drawn.with(i, o.keys().replicas().get(i).signingKey());
    }
    Map<Integer, Ed25519PublicKeyParameters> keys = drawn.publicKeys();
    dkg = o.dkg() ? new SimDkg(this, drawn, groupId()) : null;
    if (dkg != null) {
      dkg.submitterKeys(keys);
      checker.keyGen(new KeyGenChecks(groupId(), o.coinPerBatch(), dkg::reserved, o.confidential(),
          checker::violation));
    }
    signers.putAll(drawn.signers());
    // Configuration III: the execution nodes' keys come from the seed alone (the schedule stays the seed's).
    for (int id : cfg.executionNodes()) {
      Ed25519PrivateKeyParameters k = TestKeys.key(new Random(o.seed() * 31 + id ^ EXECUTION_SALT));
      keys.put(id, k.generatePublicKey());
      signers.put(id, Ed25519.signer(k));
    }
    flagging = o.random() != SimOptions.Randomness.NONE || o.byzantine() == Byzantine.FLAGGING
        ? flaggingClient(n + o.clients(), keys) : null;
    verifier = Ed25519.verifier(keys);
    macs = o.authentication() == Authentication.MACS ? new Authenticators[n] : null;
    for (int i = 0; macs != null && i < n; i++) {
      macs[i] = drawn.authenticators(i, n);
    }
    if (o.random() == SimOptions.Randomness.BA || o.random() == SimOptions.Randomness.BA_HARDENED) {
      checker.agreement(new Checker.BaOracle(n, o.f(), o.random() == SimOptions.Randomness.BA_HARDENED, verifier));
    }
    Set<Integer> byz = chooseByzantine();
    if (dkg != null) {
      dkg.byzantine(byz, new Random(o.seed() ^ 0x4465616c6572L));
    }
    if (!o.channel() || o.journaled()) {
      Set<Integer> correct = new HashSet<>();
      for (int i = 0; i < n; i++) {
        if (!byz.contains(i)) {
          correct.add(i);
        }
      }
      checker.remembering(correct);
    }
    isolated = o.byzantine() == Byzantine.ISOLATE ? 1 + rng.nextInt(n - 1) : -1;
    // The hybrid engine switches on ticks: its runs always tick (without them a silent leader is never left).
    ticks = !o.async() || new Random(o.seed() ^ 0x7469636bL).nextInt(3) != 0;
    // Amnesia needs state transfer, which a stalled tick triggers: none in the asynchronous runs without ticks.
    // --keys dkg: a replica restarted without its disk has lost its share, which nothing recovers yet (docs/status.md)
    int amnesiaBudget = !ticks || o.byzantine() == Byzantine.OVER_THRESHOLD || o.byzantine() == Byzantine.COLLUDERS
        || o.dkg() ? 0
        : o.byzantine() == Byzantine.NONE || o.byzantine() == Byzantine.CLIENT || o.byzantine() == Byzantine.SLOW
        || o.byzantine() == Byzantine.ISOLATE ? o.f() : o.f() - 1;
    faults = steadyDelay > 0 ? Faults.steady(steadyDelay) : Faults.draw(rng, o, amnesiaBudget);
    adversary = o.channel() ? new AsyncAdversary(rng, n, byz, o.byzantine() != Byzantine.SLOW) : null;
    net = new Network(o, rng, faults, adversary, !ticks);
    replicas = new ReplicaNode[n];
    boolean twins = o.byzantine() == Byzantine.TWINS || o.byzantine() == Byzantine.OVER_THRESHOLD
        || o.byzantine() == Byzantine.EQUIVOCATE;
    for (int i = 0; i < n; i++) {
      boolean b = byz.contains(i);
      replicas[i] = new ReplicaNode(i, b, b && twins ? 2 : 1, this::newReplica);
      replicas[i].silent = b && o.byzantine() == Byzantine.SILENT;
      if (b && o.byzantine() == Byzantine.MUTATE) {
        replicas[i].mutator = new Mutator(new Random(rng.nextLong()), signers.get(i), 0.1 + rng.nextDouble() * 0.5,
            flagging == null ? null : this::flaggedRequest, macs == null ? null : macs[i]);
      }
      replicas[i].insists = b && o.byzantine() == Byzantine.FLAGGING;
    }
    nodes.addAll(List.of(replicas));
    for (ReplicaNode node : dkg == null ? new ReplicaNode[0] : replicas) {
      for (Instance in : node.instances) {
        dkg.begin(node, in);
      }
    }
    executors = separated() ? executionNodes(twins) : new ReplicaNode[0];
    nodes.addAll(List.of(executors));
    twinAmnesiaAt = o.byzantine() == Byzantine.TWINS && rng.nextBoolean() ? rng.nextInt((int) faults.healAt) : -1;
    clients = new ClientNode[o.clients()];
    for (int c = 0; c < o.clients(); c++) {
      int id = n + c;
      // Odd clients' sequence ids name them (SequenceOwner), even ones' go to whoever is ordered first.
      String unique = "sim-" + o.seed() + "-" + c;
      String sequence = c % 2 == 1 ? SequenceOwner.bind(id, unique) : "urn:uuid:" + unique;
      if (replicated.isMember(id)) {
        sequence = SequenceOwner.bind(replicated.principal(id), "sim-" + o.seed() + "-replicated");
      }
      clients[c] = new ClientNode(new ClientCore(cfg, id, sequence, signers.get(id), verifier),
          c == 0 && o.byzantine() == Byzantine.CLIENT || c == SimOptions.MEMBERS - 1 && replicated.isMember(id));
      clients[c].quota = o.requests() / o.clients() + (c < o.requests() % o.clients() ? 1 : 0);
      if (replicated.isMember(id)) {
        clients[c].quota = clients[0].quota; // the members make the same calls
      }
    }
  }

  boolean separated() {
    return o.configuration() == SimOptions.Configuration.III;
  }

  /** Configuration III: seeds the execution nodes' draws, apart from {@link #rng}. */
  private static final long EXECUTION_SALT = 0x45786563L;

  /**
   * Configuration III's execution nodes, with draws from the seed alone: under twins, mutate or silent one of
   * them is Byzantine as well as one replica (the two budgets, f and g = f, are separate); up to two crash,
   * one of them with amnesia when none is Byzantine.
   */
  private ReplicaNode[] executionNodes(boolean twins) {
    Random draws = new Random(o.seed() ^ EXECUTION_SALT);
    List<Integer> ids = cfg.executionNodes();
    boolean nemesis = o.byzantine() == Byzantine.TWINS || o.byzantine() == Byzantine.MUTATE
        || o.byzantine() == Byzantine.SILENT;
    int byzantine = nemesis ? draws.nextInt(ids.size()) : -1;
    ReplicaNode[] out = new ReplicaNode[ids.size()];
    for (int k = 0; k < out.length; k++) {
      int id = ids.get(k);
      boolean b = k == byzantine;
      out[k] = new ReplicaNode(id, b, b && twins ? 2 : 1, this::newReplica);
      out[k].silent = b && o.byzantine() == Byzantine.SILENT;
      if (b && o.byzantine() == Byzantine.MUTATE) {
        out[k].mutator = new Mutator(new Random(draws.nextLong()), signers.get(id), 0.1 + draws.nextDouble() * 0.5,
            null, null);
      }
    }
    int crashes = draws.nextDouble() < 0.6 ? 1 + draws.nextInt(2) : 0;
    boolean amnesia = byzantine < 0;
    for (int i = 0; i < crashes; i++) {
      long at = draws.nextInt((int) faults.healAt);
      long restart = Math.min(faults.healAt, at + 50 + draws.nextInt(1500));
      boolean forgets = amnesia && draws.nextBoolean();
      amnesia &= !forgets;
      executorCrashes.add(new Faults.Crash(ids.get(draws.nextInt(ids.size())), at, restart, forgets));
    }
    return out;
  }

  /** Configuration III: which execution node is Byzantine and which crash; empty otherwise. */
  private String describeExecutors() {
    if (!separated()) {
      return "";
    }
    StringBuilder sb = new StringBuilder(" executors=").append(cfg.executionNodes());
    for (ReplicaNode node : executors) {
      sb.append(node.byzantine ? " byzantine(e" + node.id + ")" : "");
    }
    for (Faults.Crash c : executorCrashes) {
      sb.append(" crash(e").append(c.replica()).append('@').append(c.at()).append("..").append(c.restartAt())
          .append(c.amnesia() ? ",amnesia" : "").append(')');
    }
    return sb.toString();
  }

  ReplicaNode executor(int id) {
    return executors[cfg.executionNodes().indexOf(id)];
  }

  private Set<Integer> chooseByzantine() {
    Set<Integer> byz = new HashSet<>();
    switch (o.byzantine()) {
      case TWINS, MUTATE, SILENT, EQUIVOCATE -> byz.add(rng.nextInt(o.n()));
      case FLAGGING -> byz.add(0); // the first primary, colluding with the flagging client
      case DEALER -> byz.add(rng.nextInt(o.n()));
      case OVER_THRESHOLD, COLLUDERS -> {
        for (int i = 0; i <= o.f(); i++) {
          byz.add(i); // f+1 replicas, the first primary among them
        }
      }
      default -> { }
    }
    return byz;
  }

  private Engine newReplica(int id) {
    if (cfg.isExecutionNode(id)) {
      return new ExecutionNode(cfg, id, signers.get(id), verifier).replicatedClients(replicated);
    }
    if (o.async()) {
      AsyncReplica r = AsyncReplica.builder(cfg, id, signers.get(id), verifier).coin(asyncCoins[id])
          .operations(operations()).build();
      if (o.journaled()) {
        r.journaled();
      }
      return sealed == null ? r : r.confidentialOperations(sealed.replica(id));
    }
    if (o.ordering() == SimOptions.Ordering.HYBRID) {
      HybridReplica r = HybridReplica.builder(cfg, id, signers.get(id), verifier).coin(asyncCoins[id])
          .operations(operations()).macs(macs == null ? null : macs[id]).build();
      if (o.journaled()) {
        r.journaled();
      }
      return sealed == null ? r : r.confidentialOperations(sealed.replica(id));
    }
    Replica.Builder b = Replica.builder(cfg, id, signers.get(id), verifier)
        .randomness(randomness(id).withOperations(operations())).macs(macs == null ? null : macs[id]);
    if (dkg != null) {
      b.changingKeys(); // the generated keys come by Engine.installKeys, at the seq that completed them
    }
    Replica r = b.build().replicatedClients(replicated);
    if (o.journaled()) {
      r.journaled();
    }
    if (dkg != null) {
      return o.confidential() ? r.confidentialOperationsAwaitingKeys(SealedOperations.OPERATIONS) : r;
    }
    return sealed == null ? r : r.confidentialOperations(sealed.replica(id));
  }

  /** With randomness, an operation says itself whether it is randomized ({@link MarkedOperations}). */
  private RandomizedOperations operations() {
    return o.random() == SimOptions.Randomness.NONE ? RandomizedOperations.AS_FLAGGED : MarkedOperations.PREDICATE;
  }

  /** The flagging client's key comes from the seed alone (not {@link #rng}: other runs keep their schedules). */
  private FlaggingClient flaggingClient(int id, Map<Integer, Ed25519PublicKeyParameters> keys) {
    Ed25519PrivateKeyParameters k = TestKeys.key(new Random(o.seed() ^ 0x466c6167L));
    keys.put(id, k.generatePublicKey());
    return new FlaggingClient(id, Ed25519.signer(k), o.seed());
  }

  /** A new request of the flagging client, known to the checker as issued (S3), signed. */
  Signed flaggedRequest() {
    Request q = flagging.next();
    checker.issued(q);
    return flagging.sign(q);
  }

  /**
   * BA: each replica's entropy source, seeded from the seed and the replica id alone (not from {@link
   * #rng}, so other runs keep their schedules); a restarted replica draws afresh.
   */
  private RandomnessConfig randomness(int id) {
    return switch (o.random()) {
      case NONE -> RandomnessConfig.none();
      case CT -> dkg != null ? RandomnessConfig.ctAwaitingKeys() : RandomnessConfig.ct(coinConfigs[id]);
      case BA -> RandomnessConfig.ba(entropy(id));
      case BA_HARDENED -> RandomnessConfig.baHardened(entropy(id));
    };
  }

  private Entropy entropy(int id) {
    Random source = new Random(o.seed() * 0x9E3779B97F4A7C15L + id * 1_000_003L + (++incarnations));
    return source::nextBytes;
  }

  private long incarnations;
  private long journalRestarts;
  private long latencySum;
  private long latencyCount;
  private long healedSum;
  private long healedCount;

  /** The group id bound into its coins and ciphertexts (CT's coin message, TDH2's label). */
  private byte[] groupId() {
    return ("urn:bftws:sim-group-" + o.seed()).getBytes(StandardCharsets.US_ASCII);
  }

  /** Whether the run is over: the clients are done and, with {@code --keys dkg}, the key generation too. */
  private boolean finished() {
    return allDone() && (dkg == null || dkg.doneAtCorrectReplicas());
  }

  public static SimResult run(SimOptions o) {
    return new Simulation(o).run();
  }

  /** One run on a steady network with closed-loop clients (a benchmark; see {@link #Simulation(SimOptions, int)}). */
  public static SimResult runSteady(SimOptions o, int maxDelayTicks) {
    if (maxDelayTicks < 1) {
      throw new IllegalArgumentException("a steady network's delay is at least 1 tick");
    }
    return new Simulation(o, maxDelayTicks).run();
  }

  public SimResult run() {
    long end = faults.healAt + LIVENESS_BOUND;
    while (time < end && !finished()) {
      step();
      issueRequests();
      if (livenessViolated()) {
        break;
      }
    }
    if (!allDone() && checker.violations().stream().noneMatch(v -> v.startsWith("L1"))) {
      checker.violation("L1 liveness: requests still outstanding at the end of the run");
    }
    if (allDone() && checksCatchUp()) {
      catchUp();
    }
    if (dkg != null) {
      dkg.finish();
    }
    checker.finish();
    if (TRACE) {
      for (ReplicaNode node : nodes) {
        for (Instance in : node.instances) {
          System.err.println("end r" + node.id + (node.byzantine ? " (byzantine)" : "") + " " + in.replica.describe());
        }
      }
    }
    long delivered = 0;
    for (ClientNode c : clients) {
      delivered += c.issued - (c.terminated ? 0 : c.core.outstanding()); // requests, not the terminate
    }
    String restarts = journalRestarts == 0 ? "" : " journal-restarts=" + journalRestarts
        + (o.restarts() == SimOptions.Restarts.FORGETFUL ? "(forgetful)" : "");
    String described = adversary == null ? faults.describe() + describeExecutors() + (dkg == null ? "" : dkg.describeRun())
        + restarts
        : faults.describe() + " adversary=" + adversary.describe() + " held=" + net.heldTotal()
        + (ticks ? " ticks" : " no-ticks") + restarts;
    return new SimResult(o, described, checker.violations(), checker.committedRequests, delivered,
        checker.viewChanges, checker.stateTransfers, checker.evidence, checker.refused, checker.randomsChecked, time,
        new SimResult.Traffic(routing.messagesSent(), routing.ppUpdatesSent(), latencyCount == 0 ? 0 : (double) latencySum / latencyCount,
            healedCount == 0 ? 0 : (double) healedSum / healedCount, net.heldTotal()));
  }

  /** One tick of virtual time: crashes, partitions, deliveries, ticks. */
  private void step() {
    time++;
    crashesAndRestarts();
    if (time < faults.healAt) {
      net.drawPartitionsAndClogs(time);
    }
    for (Network.Delivery d = net.due(time); d != null; d = net.due(time)) {
      routing.deliver(d);
    }
    if (adversary != null) {
      net.releaseHeldIfIdle(time);
    }
    tickAll();
  }

  /**
   * L2 catch-up, PBFT only, not for the negative control, whose split brain has no one group to catch up
   * with, and not under BA randomness: there commits are on d' (integrity paper §4), which a replica alone
   * in a view change cannot check without the contributions, so it catches up only by state transfer, at
   * the next stable checkpoint, and none forms once the clients are done (docs/design/architecture.md).
   */
  private boolean checksCatchUp() {
    return !o.async() && o.byzantine() != Byzantine.OVER_THRESHOLD
        && o.random() != SimOptions.Randomness.BA && o.random() != SimOptions.Randomness.BA_HARDENED;
  }

  /**
   * L2: the clients are done; run on (no new requests) until every correct replica has executed as far as
   * the furthest correct one, at most {@link #CATCH_UP_BOUND} ticks after the later of now and the heal.
   */
  private void catchUp() {
    long deadline = Math.max(time, faults.healAt) + CATCH_UP_BOUND;
    while (time < deadline && laggard() != null) {
      step();
    }
    String behind = laggard();
    if (behind != null) {
      checker.violation("L2 catch-up: " + behind + " " + CATCH_UP_BOUND + " ticks after the clients were done"
          + " and the heal");
    }
  }

  /**
   * A correct replica that executed less than the furthest correct one, or (configuration III) a correct
   * execution node behind the furthest correct execution node, described; null if none.
   */
  private String laggard() {
    String behind = laggard(replicas);
    return behind != null ? behind : laggard(executors);
  }

  private static String laggard(ReplicaNode[] replicas) {
    long furthest = 0;
    for (ReplicaNode node : replicas) {
      if (node.judged()) {
        furthest = Math.max(furthest, node.instances.get(0).replica.lastExecuted());
      }
    }
    for (ReplicaNode node : replicas) {
      Engine e = node.instances.get(0).replica;
      if (node.judged() && e.lastExecuted() < furthest) {
        return "replica " + node.id + " executed to " + e.lastExecuted() + ", the group to " + furthest;
      }
    }
    return null;
  }

  private boolean allDone() {
    for (ClientNode c : clients) {
      if (!c.byzantine && (c.issued < c.quota || !c.terminated || c.core.outstanding() > 0)) {
        return false;
      }
    }
    return true;
  }

  private boolean livenessViolated() {
    if (time <= faults.healAt) {
      return false;
    }
    for (ClientNode c : clients) {
      if (!c.byzantine && c.core.outstanding() > 0 && time - Math.max(c.issuedAt, faults.healAt) > LIVENESS_BOUND) {
        checker.violation("L1 liveness: client " + c.core.id() + " request " + c.issued + " not done "
            + LIVENESS_BOUND + " ticks after the heal");
        return true;
      }
    }
    return false;
  }

  // ---------------------------------------------------------------- nodes

  private void crashesAndRestarts() {
    List<Faults.Crash> all = new ArrayList<>(faults.crashes);
    all.addAll(executorCrashes);
    for (Faults.Crash c : all) {
      ReplicaNode node = cfg.isExecutionNode(c.replica()) ? executor(c.replica()) : replicas[c.replica()];
      if (c.at() == time && !node.crashed) {
        node.crashed = true;
        node.restartAt = c.restartAt();
      } else if (c.restartAt() == time && node.crashed) {
        node.crashed = false;
        if (c.amnesia()) {
          for (Instance in : node.instances) {
            in.replica = newReplica(node.id);
            in.app = new HashChainApp();
            if (dkg != null && !cfg.isExecutionNode(node.id)) {
              dkg.begin(node, in); // everything lost: it replays the key generation's operations it is given
            }
          }
          checker.amnesia(node.id);
        } else if (restartsFromJournal(node)) {
          restartFromJournal(node, node.instances.get(0));
        }
      }
    }
    if (time == faults.healAt) {
      for (ReplicaNode node : nodes) {
        node.crashed = false;
      }
    }
    if (time == twinAmnesiaAt) {
      // Twins' amnesia: one copy of the Byzantine replica forgets everything it sent and starts again.
      for (ReplicaNode node : replicas) {
        if (node.instances.size() > 1) {
          Instance in = node.instances.get(1);
          in.replica = newReplica(node.id);
          in.app = new HashChainApp();
          if (dkg != null) {
            dkg.begin(node, in);
          }
        }
      }
    }
  }

  /**
   * With {@code --restarts journal|forgetful}: a correct replica's crash is a kill and a
   * restart from its journal.
   */
  private boolean restartsFromJournal(ReplicaNode node) {
    // Without ticks (the asynchronous engine's SINTRA runs) nothing resends what the restarted replica had
    // received, so its crashes stay pauses, as amnesia is not drawn there.
    return ticks && o.journaled() && !node.byzantine && node.instances.size() == 1 && !cfg.isExecutionNode(node.id);
  }

  /**
   * Kill -9 and restart with state (TOCS 2002 §4.3): a fresh replica and an empty service, rebuilt from the
   * journal by {@code Engine.recover} (the stable checkpoint reinstalled by its InstallState effect). The
   * replica stays correct: the checker only learns that it executes again from its checkpoint. The forgetful
   * control loses its signed and prepared records first.
   */
  private void restartFromJournal(ReplicaNode node, Instance in) {
    if (o.restarts() == SimOptions.Restarts.FORGETFUL) {
      in.journal = new ArrayList<>(in.journal.stream()
          .filter(r -> r.type() == Journal.Type.STABLE || r.type() == Journal.Type.VIEW).toList());
    }
    Engine fresh = newReplica(node.id);
    in.replica = fresh;
    in.app = new HashChainApp();
    journalRestarts++;
    try {
      Ready ready = fresh.recover(List.copyOf(in.journal));
      checker.restarted(node.id, fresh.lastExecuted());
      handle(node, in, ready);
    } catch (RuntimeException e) {
      checker.violation("exception in replica " + node.id + " recovering from its journal: " + e);
    }
  }

  /**
   * Ticks every replica that is up (PBFT's timers; the asynchronous engine's retransmission, which decides
   * nothing — except in its runs without ticks) and every client.
   */
  private void tickAll() {
    for (ReplicaNode node : nodes) {
      if (!node.crashed && ticks) {
        for (Instance in : node.instances) {
          try {
            if (in.keyGen != null) {
              dkg.tick(node, in);
            }
            handle(node, in, in.replica.tick());
          } catch (RuntimeException e) {
            checker.violation("exception in replica " + node.id + ": " + e);
          }
        }
      }
    }
    for (ClientNode c : clients) {
      handleClient(c, c.core.tick());
    }
  }

  private void issueRequests() {
    if (dkg != null && sealed == null && o.confidential() && dkg.certifiedGroup() != null) {
      // a client seals once it has fetched group.pub and checked its certificate (2f+1 replicas' signatures)
      sealed = new SealedOperations(o.seed(), dkg.certifiedGroup().encryption(), groupId());
    }
    for (ClientNode c : clients) {
      if (replicated.isMember(c.core.id())) {
        byzantineClients.issueAsMember(c, replicated);
        continue;
      }
      if (!c.byzantine && !c.terminated && c.issued == c.quota && c.core.outstanding() == 0 && time >= c.nextAt) {
        c.terminated = true;
        c.issuedAt = time;
        checker.issued(Request.terminate(c.core.id(), c.core.sequenceId()));
        handleClient(c, c.core.terminate());
        continue;
      }
      if (c.core.outstanding() == 0 && c.issued < c.quota && time >= c.nextAt) {
        byte[] op = new byte[8 + rng.nextInt(24)];
        rng.nextBytes(op);
        c.issued++;
        c.issuedAt = time;
        // With coins, about half the requests are randomized (drawn only then: other runs keep their schedule).
        boolean randomized = o.random() != SimOptions.Randomness.NONE && rng.nextBoolean();
        if (o.random() != SimOptions.Randomness.NONE) {
          MarkedOperations.mark(op, randomized);
        }
        byte[] sent = op;
        if (o.confidential()) {
          // SINTRA §2.6: about half the unrandomized requests are sealed (drawn only then); the checker knows
          // the plaintext, which is what every correct replica must execute (S3)
          SealedOperations.plain(op);
          if (sealed != null && !randomized && rng.nextBoolean()) {
            sent = sealed.seal(c.core.sequenceId(), c.issued, op);
            checker.sealed(new Request(c.core.id(), c.core.sequenceId(), c.issued, false, sent), op);
          }
        }
        checker.issued(new Request(c.core.id(), c.core.sequenceId(), c.issued, randomized, op));
        handleClient(c, c.core.invoke(sent, randomized));
        if (o.byzantine() == Byzantine.FLAGGING) {
          byte[] flagged = flaggedRequest().encode();
          for (int to = 0; to < o.n(); to++) {
            link(flagging.id, -1, to, flagged);
          }
        }
      }
    }
  }

  void handle(ReplicaNode node, Instance in, Ready r) {
    boolean correct = node.judged();
    if (!r.persist.isEmpty()) { // on disk before the messages leave
      in.journal.addAll(r.persist);
      if (r.persist.stream().anyMatch(rec -> rec.type() == Journal.Type.STABLE)) {
        in.journal = new ArrayList<>(Journal.compact(in.journal));
      }
    }
    for (Ready.Outbound m : r.messages) {
      routing.send(node, in, m);
    }
    if (correct) {
      for (Event e : r.events) {
        checker.event(node.id, e);
      }
    }
    if (TRACE) {
      for (Event e : r.events) {
        if (!(e instanceof Event.PrePrepared) && !(e instanceof Event.Committed)) {
          String view = in.replica instanceof Replica pbft ? " v" + pbft.view() + (pbft.isActive() ? "" : "*") : "";
          System.err.println("t=" + time + " r" + node.id + (in.side >= 0 ? "/" + in.side : "") + view
              + " exec=" + in.replica.lastExecuted() + " " + e);
        }
      }
    }
    EffectPerformer.perform(in.replica, r.effects, service(node, in), next -> handle(node, in, next));
  }

  /**
   * The replica's hash chain as the performer runs it: each batch a correct replica executes goes to the
   * checker first (S10: only replicas that reply execute).
   */
  private EffectPerformer.Service service(ReplicaNode node, Instance in) {
    return new EffectPerformer.Service() {
      @Override
      public List<byte[]> execute(Effect.Execute ex) {
        if (!node.byzantine && !cfg.replies(node.id)) {
          checker.violation("S10 roles: replica " + node.id + ", which does not execute, executed seq "
              + ex.seq());
        }
        if (in.keyGen != null && node.judged() && dkg.executedWithoutKeys(in, ex)) {
          checker.violation("D6 key switch: replica " + node.id + " executed seq " + ex.seq() + ", above the key"
              + " switch at seq " + in.keyGen.keysAt + " it caught up past by state transfer, without the keys");
        }
        if (node.judged()) {
          checker.executed(node.id, ex);
        }
        return in.keyGen != null ? dkg.execute(node, in, ex) : in.app.execute(ex);
      }

      @Override
      public byte[] state() {
        return in.keyGen != null ? dkg.state(in) : in.app.getState();
      }

      @Override
      public void install(byte[] state) {
        if (in.keyGen != null) {
          dkg.install(node, in, state);
        } else {
          in.app.setState(state);
        }
      }
    };
  }

  void handleClient(ClientNode c, Ready r) {
    for (Ready.Outbound m : r.messages) {
      if (c.byzantine && o.byzantine() == Byzantine.CLIENT) {
        byzantineClients.equivocate(c, m.bytes());
      } else {
        for (int to = 0; to < o.n(); to++) {
          link(c.core.id(), -1, to, m.bytes());
        }
        for (int to : cfg.executionNodes()) {
          link(c.core.id(), -1, to, m.bytes()); // configuration III: a retransmission is answered from their cache
        }
      }
    }
    for (Event e : r.events) {
      if (e instanceof Event.Delivered d) {
        c.delivered++;
        latencySum += time - c.issuedAt;
        latencyCount++;
        if (c.issuedAt >= faults.healAt) {
          healedSum += time - c.issuedAt;
          healedCount++;
        }
        c.nextAt = time + rng.nextInt((int) (2 * faults.healAt / Math.max(1, c.quota)) + 1);
        if (!c.byzantine) {
          checker.delivered(d.request(), d.result(), d.random());
        }
      }
    }
  }

  void link(int from, int fromSide, int to, byte[] bytes) {
    net.link(time, from, fromSide, to, bytes, 0);
  }
}
