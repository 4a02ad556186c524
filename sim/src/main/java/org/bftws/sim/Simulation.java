package org.bftws.sim;

import java.nio.charset.StandardCharsets;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.bftws.core.async.AsyncMessage;
import org.bftws.core.async.AsyncReplica;
import org.bftws.core.codec.DecodeException;
import org.bftws.core.config.GroupConfig;
import org.bftws.core.crypto.Authentication;
import org.bftws.core.crypto.Authenticators;
import org.bftws.core.crypto.Ed25519;
import org.bftws.core.crypto.Signer;
import org.bftws.core.crypto.Verifier;
import org.bftws.core.crypto.threshold.Dealt;
import org.bftws.core.crypto.threshold.SchemeId;
import org.bftws.core.crypto.threshold.ShoupRsa;
import org.bftws.core.crypto.threshold.ThresholdParams;
import org.bftws.core.crypto.threshold.ThresholdScheme;
import org.bftws.core.crypto.threshold.Thresholds;
import org.bftws.core.message.Kind;
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
import org.bftws.core.pbft.Role;
import org.bftws.core.testkit.HashChainApp;
import org.bftws.core.testkit.TestKeys;
import org.bftws.core.voter.ClientCore;
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

  private static final class Instance {
    Engine replica;
    HashChainApp app = new HashChainApp();
    final int side;
    /** A journaled PBFT replica's journal ({@link Ready#persist}, compacted): its disk, which a crash keeps. */
    List<Journal.Record> journal = new ArrayList<>();

    Instance(int side) {
      this.side = side;
    }
  }

  private final class ReplicaNode {
    final int id;
    final List<Instance> instances = new ArrayList<>();
    final boolean byzantine;
    boolean crashed;
    /** While crashed: when it restarts (reliable links hold its messages until then). */
    long restartAt;
    boolean silent;
    Mutator mutator;
    /** FLAGGING: a primary that batches the flagging client's requests into every pre-prepare it sends. */
    boolean insists;

    ReplicaNode(int id, boolean byzantine, int copies) {
      this.id = id;
      this.byzantine = byzantine;
      for (int i = 0; i < copies; i++) {
        Instance in = new Instance(copies == 1 ? -1 : i);
        in.replica = newReplica(id);
        instances.add(in);
      }
    }
  }

  private static final class ClientNode {
    final ClientCore core;
    final boolean byzantine;
    int quota;
    int issued;
    long issuedAt;
    /** Think time: the next request is issued no earlier, so requests spread over the fault phase. */
    long nextAt;
    int delivered;
    /** A correct client ends its sequence after its last reply (BFT-WS §3.3.1.1). */
    boolean terminated;

    ClientNode(ClientCore core, boolean byzantine) {
      this.core = core;
      this.byzantine = byzantine;
    }
  }

  private final SimOptions o;
  private final GroupConfig cfg;
  private final Random rng;
  private final Faults faults;
  private final Checker checker;
  /** CT algorithm: each replica's coin material (index i: replica i), or null without randomness. */
  private final CoinConfig[] coinConfigs;
  /** Asynchronous ordering: each replica's share of the binary agreements' threshold coin (null for PBFT). */
  private final CoinConfig[] asyncCoins;
  /** With {@code --confidential}: the group's TDH2 key and the clients' sealing (null otherwise). */
  private final SealedOperations sealed;
  private final Network net;
  /** Asynchronous ordering: the scheduler's policy (null for PBFT). */
  private final AsyncAdversary adversary;
  private final Map<Integer, Signer> signers = new HashMap<>();
  private final Verifier verifier;
  /** With {@code --authentication macs}: each replica's authenticators (index i: replica i); else null. */
  private final Authenticators[] macs;
  private final ReplicaNode[] replicas;
  /** Configuration III: the execution nodes, in {@link GroupConfig#executionNodes} order (none otherwise). */
  private final ReplicaNode[] executors;
  /** Configuration III: the execution nodes' crashes, drawn apart from the replicas' (node ids). */
  private final List<Faults.Crash> executorCrashes = new ArrayList<>();
  /** Replicas and execution nodes. */
  private final List<ReplicaNode> nodes = new ArrayList<>();
  private final ClientNode[] clients;
  /** With randomness or FLAGGING: the identity that flags unrandomized operations (null otherwise). */
  private final FlaggingClient flagging;
  private final Map<Long, int[]> twinRoutes = new HashMap<>();
  /** ISOLATE: the correct replica cut off from the other replicas until the heal (-1: none). */
  private final int isolated;
  /** MEMBER: the replicated client of clients 0..3 (ids n..n+3), else none. */
  private final ReplicatedClients replicated;
  private long time;
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
    this.o = o;
    this.rng = new Random(o.seed());
    this.cfg = GroupConfig.builder().set(GroupConfig.F, o.f()).set(GroupConfig.CHECKPOINT_INTERVAL, 8)
        .set(GroupConfig.LOG_WINDOW, 16).set(GroupConfig.MAX_BATCH_SIZE, 16)
        .set(GroupConfig.COIN_PER_BATCH, o.coinPerBatch()).executing(executingReplicas(o))
        .executionNodes(executionNodeIds(o)).build();
    if (o.async() && o.configuration() != SimOptions.Configuration.I) {
      throw new IllegalArgumentException(ASYNC_CONFIGURATION);
    }
    if (separated() && (o.random() != SimOptions.Randomness.NONE || o.byzantine() == Byzantine.FLAGGING)) {
      throw new IllegalArgumentException(SEPARATED_RANDOMNESS);
    }
    int n = o.n();
    Checker.CoinOracle oracle = null;
    if (o.random() == SimOptions.Randomness.CT) {
      coinConfigs = new CoinConfig[n];
      oracle = dealCoins(coinConfigs);
    } else {
      coinConfigs = null;
    }
    if (o.async() && (o.random() == SimOptions.Randomness.BA || o.random() == SimOptions.Randomness.BA_HARDENED
        || o.byzantine() == Byzantine.FLAGGING)) {
      throw new IllegalArgumentException(ASYNC_RANDOMNESS);
    }
    if (!o.async() && o.byzantine() == Byzantine.EQUIVOCATE) {
      throw new IllegalArgumentException("--byzantine equivocate needs asynchronous ordering (PBFT's is twins)");
    }
    if (o.async() && o.byzantine() == Byzantine.ISOLATE) {
      throw new IllegalArgumentException("--byzantine isolate is PBFT's (a replica alone in a view change)");
    }
    // CT under asynchronous ordering: one dealt key tosses binary agreement's coins and the requests' (the
    // engine signs the two in separate domains), so the checker's oracle checks the random numbers (S8).
    asyncCoins = !o.async() ? null : coinConfigs != null ? coinConfigs : dealAsyncCoins();
    sealed = !o.confidential() ? null : new SealedOperations(o.seed(), ThresholdParams.forF(o.f()),
        ("urn:bftws:sim-group-" + o.seed()).getBytes(StandardCharsets.US_ASCII));
    if (o.byzantine() == Byzantine.MEMBER && (o.async() || o.clients() < MEMBERS)) {
      throw new IllegalArgumentException("--byzantine member needs PBFT and at least " + MEMBERS + " clients");
    }
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
    if (!o.async()) {
      Set<Integer> correct = new HashSet<>();
      for (int i = 0; i < n; i++) {
        if (!byz.contains(i)) {
          correct.add(i);
        }
      }
      checker.remembering(correct);
    }
    isolated = o.byzantine() == Byzantine.ISOLATE ? 1 + rng.nextInt(n - 1) : -1;
    ticks = !o.async() || new Random(o.seed() ^ 0x7469636bL).nextInt(3) != 0;
    // Amnesia needs state transfer, which a stalled tick triggers: none in the asynchronous runs without ticks.
    int amnesiaBudget = !ticks || o.byzantine() == Byzantine.OVER_THRESHOLD ? 0
        : o.byzantine() == Byzantine.NONE || o.byzantine() == Byzantine.CLIENT || o.byzantine() == Byzantine.SLOW
        || o.byzantine() == Byzantine.ISOLATE ? o.f() : o.f() - 1;
    faults = steadyDelay > 0 ? Faults.steady(steadyDelay) : Faults.draw(rng, o, amnesiaBudget);
    adversary = o.async() ? new AsyncAdversary(rng, n, byz, o.byzantine() != Byzantine.SLOW) : null;
    net = new Network(o, rng, faults, adversary, !ticks);
    replicas = new ReplicaNode[n];
    boolean twins = o.byzantine() == Byzantine.TWINS || o.byzantine() == Byzantine.OVER_THRESHOLD
        || o.byzantine() == Byzantine.EQUIVOCATE;
    for (int i = 0; i < n; i++) {
      boolean b = byz.contains(i);
      replicas[i] = new ReplicaNode(i, b, b && twins ? 2 : 1);
      replicas[i].silent = b && o.byzantine() == Byzantine.SILENT;
      if (b && o.byzantine() == Byzantine.MUTATE) {
        replicas[i].mutator = new Mutator(new Random(rng.nextLong()), signers.get(i), 0.1 + rng.nextDouble() * 0.5,
            flagging == null ? null : this::flaggedRequest, macs == null ? null : macs[i]);
      }
      replicas[i].insists = b && o.byzantine() == Byzantine.FLAGGING;
    }
    nodes.addAll(List.of(replicas));
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
          c == 0 && o.byzantine() == Byzantine.CLIENT || c == MEMBERS - 1 && replicated.isMember(id));
      clients[c].quota = o.requests() / o.clients() + (c < o.requests() % o.clients() ? 1 : 0);
      if (replicated.isMember(id)) {
        clients[c].quota = clients[0].quota; // the members make the same calls
      }
    }
  }

  /**
   * Configuration I: every replica executes. II (BFT-WS §3.3.2): all but f, drawn from the seed alone (not
   * {@link #rng}: the run's schedule stays the seed's), so the Byzantine replica is now one that executes,
   * now one that only orders, and now the first primary only orders. III: none.
   */
  private static List<Integer> executingReplicas(SimOptions o) {
    if (o.configuration() == SimOptions.Configuration.III) {
      return List.of(); // the execution nodes execute (executionNodeIds)
    }
    List<Integer> ids = new ArrayList<>();
    for (int i = 0; i < o.n(); i++) {
      ids.add(i);
    }
    if (o.configuration() == SimOptions.Configuration.II) {
      java.util.Collections.shuffle(ids, new Random(o.seed() ^ 0x436f6e66L));
      ids = new ArrayList<>(ids.subList(o.f(), o.n()));
      java.util.Collections.sort(ids);
    }
    return ids;
  }

  /** Configuration III: the execution nodes' ids, after the clients' and the flagging client's. */
  private static List<Integer> executionNodeIds(SimOptions o) {
    List<Integer> ids = new ArrayList<>();
    for (int k = 0; o.configuration() == SimOptions.Configuration.III && k < 2 * o.f() + 1; k++) {
      ids.add(o.n() + o.clients() + 1 + k);
    }
    return ids;
  }

  private boolean separated() {
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
      out[k] = new ReplicaNode(id, b, b && twins ? 2 : 1);
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

  private ReplicaNode executor(int id) {
    return executors[cfg.executionNodes().indexOf(id)];
  }

  private Set<Integer> chooseByzantine() {
    Set<Integer> byz = new HashSet<>();
    switch (o.byzantine()) {
      case TWINS, MUTATE, SILENT, EQUIVOCATE -> byz.add(rng.nextInt(o.n()));
      case FLAGGING -> byz.add(0); // the first primary, colluding with the flagging client
      case OVER_THRESHOLD -> {
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
      AsyncReplica r = new AsyncReplica(cfg, id, signers.get(id), verifier, asyncCoins[id], operations());
      return sealed == null ? r : r.confidentialOperations(sealed.replica(id));
    }
    Replica r = new Replica(cfg, id, signers.get(id), verifier, Role.of(cfg, id),
        randomness(id).withOperations(operations()), macs == null ? null : macs[id]).replicatedClients(replicated);
    if (o.journaled()) {
      r.journaled();
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
  private Signed flaggedRequest() {
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
      case CT -> RandomnessConfig.ct(coinConfigs[id]);
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
  private long messagesSent;
  private long ppUpdatesSent;
  private long latencySum;
  private long latencyCount;
  private long healedSum;
  private long healedCount;

  /**
   * The trusted dealer of the CT algorithm, deterministic per seed: a DRBG seeded from the seed alone (not
   * from {@link #rng}, so runs without randomness keep their schedules). RSA uses 512-bit moduli (two
   * 256-bit safe primes), insecure but fast enough to deal per seed; CKS and BLS use their real curves.
   */
  private Checker.CoinOracle dealCoins(CoinConfig[] out) {
    byte[] groupId = ("urn:bftws:sim-group-" + o.seed()).getBytes(StandardCharsets.US_ASCII);
    if (o.keys() != null) {
      return coins(o.keys().group().thresholdScheme(), o.keys().dealt(), groupId, out);
    }
    ThresholdScheme scheme = o.scheme() == SchemeId.RSA ? new ShoupRsa(SIM_RSA_BITS) : Thresholds.scheme(o.scheme());
    return coins(scheme, scheme.deal(ThresholdParams.forF(o.f()), dealerRandom()), groupId, out);
  }

  /**
   * Asynchronous ordering: the (n, f+1, f) CKS threshold coin of binary agreement (SINTRA §2.1), dealt
   * from the seed alone as the CT algorithm's keys are.
   */
  private CoinConfig[] dealAsyncCoins() {
    CoinConfig[] out = new CoinConfig[o.n()];
    ThresholdScheme cks = Thresholds.scheme(SchemeId.CKS);
    byte[] groupId = ("urn:bftws:sim-abc-" + o.seed()).getBytes(StandardCharsets.US_ASCII);
    coins(cks, cks.deal(ThresholdParams.forF(o.f()), dealerRandom()), groupId, out);
    return out;
  }

  /** The dealer's randomness: a DRBG seeded from the seed alone. */
  private SecureRandom dealerRandom() {
    SecureRandom dealerRandom;
    try {
      dealerRandom = SecureRandom.getInstance("SHA1PRNG");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
    dealerRandom.setSeed(("bftws-sim-dealer-" + o.seed()).getBytes(StandardCharsets.US_ASCII));
    return dealerRandom;
  }

  /** Each replica's coin material from the dealt keys (share i+1 to replica i), and the checker's oracle. */
  private Checker.CoinOracle coins(ThresholdScheme scheme, Dealt dealt, byte[] groupId, CoinConfig[] out) {
    for (int i = 0; i < out.length; i++) {
      out[i] = new CoinConfig(scheme, dealt.group(), dealt.share(i + 1), groupId);
    }
    return new Checker.CoinOracle(scheme, dealt, groupId, o.coinPerBatch());
  }

  /** Why asynchronous ordering refuses configuration II. */
  static final String ASYNC_CONFIGURATION = "asynchronous ordering runs configuration I only: its replicas all"
      + " execute";

  /** Why configuration III refuses randomness and the flagging nemesis. */
  static final String SEPARATED_RANDOMNESS = "configuration III hands out batches without random numbers: no"
      + " --random and no flagging nemesis";

  /** Why asynchronous ordering refuses BA randomness and the flagging nemesis (both are PBFT's primary's). */
  static final String ASYNC_RANDOMNESS = "asynchronous ordering takes --random ct only: the BA algorithms"
      + " (integrity paper §4) and the flagging nemesis work through PBFT's primary, which it does not have";

  /** RSA modulus size in the simulator: small for speed (dealing safe primes per seed), never for real keys. */
  static final int SIM_RSA_BITS = 512;

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
    while (time < end && !allDone()) {
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
    String described = adversary == null ? faults.describe() + describeExecutors()
        + (journalRestarts == 0 ? "" : " journal-restarts=" + journalRestarts + (o.restarts() == SimOptions.Restarts.FORGETFUL
        ? "(forgetful)" : ""))
        : faults.describe() + " adversary=" + adversary.describe() + " held=" + net.heldTotal()
        + (ticks ? " ticks" : " no-ticks");
    return new SimResult(o, described, checker.violations(), checker.committedRequests, delivered,
        checker.viewChanges, checker.stateTransfers, checker.evidence, checker.refused, checker.randomsChecked, time,
        new SimResult.Traffic(messagesSent, ppUpdatesSent, latencyCount == 0 ? 0 : (double) latencySum / latencyCount,
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
      deliver(d);
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
      if (!node.byzantine) {
        furthest = Math.max(furthest, node.instances.get(0).replica.lastExecuted());
      }
    }
    for (ReplicaNode node : replicas) {
      Engine e = node.instances.get(0).replica;
      if (!node.byzantine && e.lastExecuted() < furthest) {
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
        }
      }
    }
  }

  /** With {@code --restarts journal|forgetful}: a correct PBFT replica's crash is a kill and a restart from its journal. */
  private boolean restartsFromJournal(ReplicaNode node) {
    return o.journaled() && !node.byzantine && node.instances.size() == 1 && !cfg.isExecutionNode(node.id);
  }

  /**
   * Kill -9 and restart with state (TOCS 2002 §4.3): a fresh replica and an empty service, rebuilt from the
   * journal by {@code Replica.recover} (the stable checkpoint reinstalled by its InstallState effect). The
   * replica stays correct: the checker only learns that it executes again from its checkpoint. The forgetful
   * control loses its signed and prepared records first.
   */
  private void restartFromJournal(ReplicaNode node, Instance in) {
    if (o.restarts() == SimOptions.Restarts.FORGETFUL) {
      in.journal = new ArrayList<>(in.journal.stream()
          .filter(r -> r.type() == Journal.Type.STABLE || r.type() == Journal.Type.VIEW).toList());
    }
    Replica fresh = (Replica) newReplica(node.id);
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
    for (ClientNode c : clients) {
      if (replicated.isMember(c.core.id())) {
        issueAsMember(c);
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
        if (sealed != null) {
          // SINTRA §2.6: about half the unrandomized requests are sealed (drawn only then); the checker knows
          // the plaintext, which is what every correct replica must execute (S3)
          SealedOperations.plain(op);
          if (!randomized && rng.nextBoolean()) {
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

  /** MEMBER: the replicated client's members, clients 0..3. */
  private static final int MEMBERS = 4;

  /**
   * MEMBER: a member issues under number k the request every member issues under k (drawn from the seed
   * and k alone, so the members agree as a middle tier's replicas executing the same total order do), after
   * its reply to k−1 and its own think time; the Byzantine member (3) an altered one, as soon as any correct
   * member issued k−1, so that its copy of k goes out first. A correct member ends the shared sequence after
   * its last reply, as the others do: the terminate too is ordered once two members sent it.
   */
  private void issueAsMember(ClientNode c) {
    if (c.byzantine) {
      int ahead = 0;
      for (ClientNode m : clients) {
        ahead = replicated.isMember(m.core.id()) && !m.byzantine ? Math.max(ahead, m.issued) : ahead;
      }
      if (c.issued < c.quota && c.issued <= ahead) {
        c.issued++;
        byte[] altered = memberOperation(c.issued);
        altered[0] ^= 0x5a;
        handleClient(c, c.core.invokeNumbered(c.issued, altered, false)); // never issued: S3 flags its execution
      }
      return;
    }
    if (!c.terminated && c.issued == c.quota && c.core.outstanding() == 0 && time >= c.nextAt) {
      c.terminated = true;
      c.issuedAt = time;
      checker.issued(Request.terminate(c.core.id(), c.core.sequenceId()));
      handleClient(c, c.core.terminate());
    } else if (c.core.outstanding() == 0 && c.issued < c.quota && time >= c.nextAt) {
      c.issued++;
      c.issuedAt = time;
      byte[] op = memberOperation(c.issued);
      checker.issued(new Request(c.core.id(), c.core.sequenceId(), c.issued, false, op));
      handleClient(c, c.core.invokeNumbered(c.issued, op, false));
    }
  }

  /** MEMBER: the operation every correct member issues under message number k. */
  private byte[] memberOperation(long k) {
    Random r = new Random(o.seed() * 0x9E3779B97F4A7C15L + k);
    byte[] op = new byte[8 + r.nextInt(24)];
    r.nextBytes(op);
    if (o.random() != SimOptions.Randomness.NONE) {
      return MarkedOperations.mark(op, false);
    }
    return op;
  }

  private void handle(ReplicaNode node, Instance in, Ready r) {
    boolean correct = !node.byzantine;
    if (!r.persist.isEmpty()) { // on disk before the messages leave
      in.journal.addAll(r.persist);
      if (r.persist.stream().anyMatch(rec -> rec.type() == Journal.Type.STABLE)) {
        in.journal = new ArrayList<>(Journal.compact(in.journal));
      }
    }
    for (Ready.Outbound m : r.messages) {
      send(node, in, m);
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
    for (Effect e : r.effects) {
      if (e instanceof Effect.Execute ex) {
        if (correct && !cfg.replies(node.id)) {
          checker.violation("S10 roles: replica " + node.id + ", which does not execute, executed seq "
              + ex.seq());
        }
        if (correct) {
          checker.executed(node.id, ex);
        }
        List<byte[]> results = new ArrayList<>();
        for (int i = 0; i < ex.requests().size(); i++) {
          results.add(in.app.execute(ex.requests().get(i), ex.randoms().get(i)));
        }
        handle(node, in, in.replica.executed(ex.seq(), results));
      } else if (e instanceof Effect.CaptureState cs) {
        handle(node, in, in.replica.stateCaptured(cs.seq(), in.app.getState()));
      } else if (e instanceof Effect.InstallState is) {
        in.app.setState(is.appState());
      }
    }
  }

  private void handleClient(ClientNode c, Ready r) {
    for (Ready.Outbound m : r.messages) {
      if (c.byzantine && o.byzantine() == Byzantine.CLIENT) {
        equivocate(c, m.bytes());
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

  /**
   * A Byzantine client: the same (sequence, number) with a different operation for odd replicas; and, signed
   * with its own key, a request on the sequence of a correct client whose id names it, which must never run.
   */
  private void equivocate(ClientNode c, byte[] bytes) {
    Signed s = Signed.decode(bytes);
    Request q = Request.decode(s.body());
    hijack(c, q);
    byte[] other = q.operation().clone();
    other[0] ^= 0x5a;
    Request q2 = new Request(q.client(), q.sequenceId(), q.messageNumber(), q.randomized(), other);
    checker.issued(q);
    checker.issued(q2);
    byte[] alt = Signed.sign(Kind.REQUEST, q.client(), q2.encode(), signers.get(q.client())).encode();
    for (int to = 0; to < o.n(); to++) {
      link(c.core.id(), -1, to, to % 2 == 0 ? bytes : alt);
    }
  }

  /** Not {@link Checker#issued}: S3 flags it if any replica executes it. */
  private void hijack(ClientNode c, Request own) {
    ClientNode victim = clients[rng.nextInt(clients.length)];
    String sequence = victim.core.sequenceId();
    if (victim == c || SequenceOwner.of(sequence) == SequenceOwner.UNBOUND) {
      return;
    }
    Request q = new Request(c.core.id(), sequence, victim.delivered + 1L, false, own.operation());
    byte[] forged = Signed.sign(Kind.REQUEST, q.client(), q.encode(), signers.get(q.client())).encode();
    for (int to = 0; to < o.n(); to++) {
      link(c.core.id(), -1, to, forged);
    }
  }

  // ---------------------------------------------------------------- network

  private void send(ReplicaNode node, Instance in, Ready.Outbound m) {
    if (node.silent) {
      return;
    }
    if (!node.byzantine && m.to() >= o.n() && !cfg.isExecutionNode(m.to()) && !cfg.replies(node.id)) {
      checker.violation("S10 roles: replica " + node.id + ", which does not execute, answered client "
          + m.to());
    }
    byte[] bytes = m.bytes();
    if (node.insists && m.to() == Ready.ALL_REPLICAS && bytes.length > 0 && bytes[0] == Kind.PRE_PREPARE.code()) {
      bytes = Mutator.withFlagged(bytes, flaggedRequest(), signers.get(node.id));
    }
    List<byte[]> out = node.mutator == null ? List.of(bytes) : node.mutator.apply(bytes);
    long delayBy = slow(node, in) ? o.slowDelay() : 0;
    for (byte[] b : out) {
      long copies = m.to() == Ready.ALL_REPLICAS ? o.n() - 1 : m.to() < o.n() || cfg.isExecutionNode(m.to()) ? 1 : 0;
      messagesSent += copies;
      if (b.length > 0 && b[0] == Kind.PP_UPDATE.code()) {
        ppUpdatesSent += copies;
      }
      if (m.to() == Ready.ALL_REPLICAS) {
        for (int to = 0; to < o.n(); to++) {
          if (to != node.id && heardFrom(in, to, b) && !cutOff(node.id, to)) {
            net.link(time, node.id, in.side, to, b, delayBy);
          }
        }
      } else if (heardFrom(in, m.to(), b) && !cutOff(node.id, m.to())) {
        net.link(time, node.id, in.side, m.to(), b, delayBy);
      }
    }
  }

  /**
   * Equivocate: whether peer {@code to} hears this copy's message. Per protocol instance, each peer hears
   * one copy, by a hash of (seed, instance, peer): peers get different payloads for one broadcast. Other
   * messages (checkpoints, replies) go by the peer's parity. Any other nemesis: every message is heard.
   */
  private boolean heardFrom(Instance in, int to, byte[] bytes) {
    if (o.byzantine() != Byzantine.EQUIVOCATE || in.side < 0) {
      return true;
    }
    int side = to % 2;
    try {
      Signed s = Signed.decode(bytes);
      if (s.kind() == Kind.ASYNC) {
        String pid = AsyncMessage.decode(s.body()).pid().toString();
        side = (Long.hashCode(o.seed() * 1_000_003L + to) ^ pid.hashCode()) >>> 7 & 1;
      }
    } catch (DecodeException e) {
      // a reply bundle or hostile bytes: by the peer's parity
    }
    return side == in.side;
  }

  /** ISOLATE: before the heal, nothing goes between the isolated replica and another replica. */
  private boolean cutOff(int from, int to) {
    return time < faults.healAt && to < o.n() && (from == isolated || to == isolated);
  }

  private void link(int from, int fromSide, int to, byte[] bytes) {
    net.link(time, from, fromSide, to, bytes, 0);
  }

  /** SLOW: whether this replica's messages are delayed now (PBFT: it is the primary of its view; async: replica 0). */
  private boolean slow(ReplicaNode node, Instance in) {
    if (o.byzantine() != Byzantine.SLOW) {
      return false;
    }
    return in.replica instanceof Replica pbft ? cfg.primaryOf(pbft.view()) == node.id : node.id == 0;
  }

  private void deliver(Network.Delivery d) {
    int to = d.to();
    if (to >= o.n() + clients.length && !cfg.isExecutionNode(to)) {
      return; // to the flagging client, which ignores replies
    }
    if (to >= o.n() && !cfg.isExecutionNode(to)) {
      ClientNode c = clients[to - o.n()];
      if (d.fromSide() < 0 || o.byzantine() != Byzantine.OVER_THRESHOLD || sideOf(to) == d.fromSide()) {
        handleClient(c, c.core.receive(d.bytes()));
      }
      return;
    }
    ReplicaNode node = cfg.isExecutionNode(to) ? executor(to) : replicas[to];
    if (node.crashed) {
      if (net.reliable()) {
        net.retry(d, node.restartAt); // reliable links: it waits for the restart
      }
      return;
    }
    if (node.instances.size() == 1) {
      if (d.fromSide() < 0 || o.byzantine() != Byzantine.OVER_THRESHOLD || sideOf(to) == d.fromSide()) {
        receive(node, node.instances.get(0), d.bytes());
      }
      return;
    }
    int route = twinRoute(d.from(), d.fromSide());
    for (Instance in : node.instances) {
      if (route == 2 || route == in.side) {
        receive(node, in, d.bytes());
      }
    }
  }

  private void receive(ReplicaNode node, Instance in, byte[] bytes) {
    try {
      handle(node, in, in.replica.receive(bytes));
    } catch (RuntimeException e) {
      checker.violation("exception in replica " + node.id + ": " + e);
    }
  }

  /**
   * Over-threshold: a fixed split brain. Twins: each sender's messages reach copy 0, 1 or both, per epoch.
   * Equivocate: replicas' messages reach both copies, each client's requests one of them.
   */
  private int twinRoute(int from, int fromSide) {
    if (o.byzantine() == Byzantine.OVER_THRESHOLD) {
      return fromSide >= 0 ? fromSide : sideOf(from);
    }
    if (o.byzantine() == Byzantine.EQUIVOCATE) {
      return from < o.n() ? 2 : (from - o.n()) % 2;
    }
    int[] routes = twinRoutes.computeIfAbsent(time / 300, e -> {
      int[] r = new int[separated() ? o.n() + o.clients() + 1 + executors.length : o.n() + o.clients()];
      for (int i = 0; i < r.length; i++) {
        r[i] = rng.nextInt(3);
      }
      return r;
    });
    return routes[from];
  }

  /** Which half of the split brain a correct replica or client belongs to (over-threshold only). */
  private int sideOf(int node) {
    return node < o.n() ? (node - o.f() - 1) % 2 : (node - o.n()) % 2;
  }
}
