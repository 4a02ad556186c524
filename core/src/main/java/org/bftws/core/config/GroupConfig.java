package org.bftws.core.config;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Everything a replica group agrees on, as typed keys with defaults and validation, declared here and
 * nowhere else; each key's {@link ConfigScope} says who reads it. Times are in ticks: the embedding
 * decides how long a tick is (the Axis2 module uses {@code bftws.tickMillis}); the simulator uses virtual
 * ticks.
 */
public final class GroupConfig {
  /** The largest f {@link #F} accepts (n = 97). */
  public static final int F_MAX = 32;

  /**
   * f: the number of Byzantine replicas tolerated; the group has n = 3f+1 (Castro-Liskov §2). 1: the
   * smallest group that tolerates a fault, four replicas.
   */
  public static final ConfigKey<Integer> F = ConfigKey.integer("bftws.f", ConfigScope.GROUP, 1, 1, F_MAX);
  /**
   * K: a checkpoint every K executed batches (§4.3). 16 keeps the log short in the simulator and the
   * checkpoint cost (a get_state call) amortised in the module.
   */
  public static final ConfigKey<Integer> CHECKPOINT_INTERVAL =
      ConfigKey.integer("bftws.checkpointInterval", ConfigScope.REPLICA, 16, 1, 1 << 20);
  /**
   * L: sequence numbers accepted above the stable checkpoint (high watermark H = h + L, §4.3). Twice K,
   * so that ordering goes on while the next checkpoint becomes stable.
   */
  public static final ConfigKey<Integer> LOG_WINDOW =
      ConfigKey.integer("bftws.logWindow", ConfigScope.REPLICA, 32, 2, 1 << 21);
  /** Requests per pre-prepare at most (§5.1 batching). */
  public static final ConfigKey<Integer> MAX_BATCH_SIZE =
      ConfigKey.integer("bftws.maxBatchSize", ConfigScope.REPLICA, 64, 1, 4096);
  /**
   * Batches proposed and not yet committed at the primary (BFT-WS §2.2: "often set to 1"). With 1 the next
   * batch fills while the previous one is in agreement (Castro-Liskov §5.1 batching), without a timer: under
   * load batches grow, so the per-batch work (pre-prepare, prepares, commits, reply certificates) is shared
   * by more requests, and a lone request is still proposed at once. 2 gave smaller batches and fewer
   * requests per second at 8 clients over HTTP (docs/performance.md, "Tuning").
   */
  public static final ConfigKey<Integer> MAX_OUTSTANDING_BATCHES =
      ConfigKey.integer("bftws.maxOutstandingBatches", ConfigScope.REPLICA, 1, 1, 1024);
  /** Ticks a backup waits for a pending request to execute before it starts a view change (§4.4). */
  public static final ConfigKey<Integer> VIEW_CHANGE_TIMEOUT =
      ConfigKey.integer("bftws.viewChangeTimeoutTicks", ConfigScope.REPLICA, 200, 2, Integer.MAX_VALUE / 4);
  /** Cap of the doubling view-change timeout, so a long outage does not leave minutes of waiting. */
  public static final ConfigKey<Integer> VIEW_CHANGE_TIMEOUT_MAX =
      ConfigKey.integer("bftws.viewChangeTimeoutMaxTicks", ConfigScope.REPLICA, 3200, 2, Integer.MAX_VALUE / 2);
  /**
   * Ticks between retransmissions of a replica's own protocol messages that may not have arrived
   * (pre-prepare, prepare, commit, checkpoint, view-change, state fetch). Half the view-change timeout,
   * so a lost message is resent before the group gives up on the primary.
   */
  public static final ConfigKey<Integer> RETRANSMIT_INTERVAL =
      ConfigKey.integer("bftws.retransmitTicks", ConfigScope.REPLICA, 50, 1, Integer.MAX_VALUE / 4);
  /** Ticks a client waits for f+1 matching replies before it sends the request again to all. */
  public static final ConfigKey<Integer> CLIENT_RETRANSMIT =
      ConfigKey.integer("bftws.clientRetransmitTicks", ConfigScope.CLIENT, 100, 1, Integer.MAX_VALUE / 4);
  /** Largest client operation accepted (bytes); bigger requests are refused before ordering. */
  public static final ConfigKey<Integer> MAX_REQUEST_BYTES =
      ConfigKey.integer("bftws.maxRequestBytes", ConfigScope.GROUP, 1 << 20, 16, 64 << 20);

  /**
   * How far ahead of its last executed message number a sequence may send: requests beyond it are
   * dropped unseen, so one client cannot fill a replica's memory with pending requests (WS-RM clients
   * pipeline a few messages, not thousands).
   */
  public static final ConfigKey<Integer> MAX_REQUESTS_AHEAD =
      ConfigKey.integer("bftws.maxRequestsAhead", ConfigScope.REPLICA, 64, 1, 1 << 20);
  /** Pending requests a replica holds at most, over all clients; beyond it new ones are dropped. */
  public static final ConfigKey<Integer> MAX_PENDING =
      ConfigKey.integer("bftws.maxPendingRequests", ConfigScope.REPLICA, 1 << 16, 1, 1 << 24);
  /**
   * Ordered requests after a sequence's terminate before its tombstone may leave the client table (Castro-Liskov
   * §4.1 timestamps keep exactly-once, docs/engine.md "Bounding the client table"): far beyond any
   * retransmission window by default. The table is part of every checkpoint, so every replica of a group must
   * use the same value.
   */
  public static final ConfigKey<Integer> CLIENT_TABLE_RETENTION =
      ConfigKey.integer("bftws.clientTableRetention", ConfigScope.REPLICA, 1 << 16, 64, 1 << 30);

  /**
   * CT algorithm (integrity paper §5): toss one threshold coin per batch, on (group, n, batch digest),
   * instead of one per randomized request on (group, n, request digest), and give each randomized request
   * SHA-256(tag, coin, request digest). It divides the threshold-crypto cost (one share per replica and one
   * combination per coin) by the number of randomized requests in a batch.
   *
   * <p>Security note. The paper's argument for C2 (§6: "C2 is guaranteed by the threshold signature
   * algorithm", one unique group signature on d||n per request) then holds for the batch's coin, and the
   * per-request numbers rest in addition on SHA-256 behaving as a random oracle (as {@code coinValue} already
   * does). In both modes every replica learns each random number once it is revealed. What changes: every
   * random number of a batch follows from one value, so whoever obtains that value (a leak, a client
   * colluding with a replica) learns the numbers of all requests of the batch at once, before they execute;
   * and the primary decides which requests share a batch. The coin still cannot be
   * predicted or re-drawn before k replicas release shares, which happens only after the batch committed.
   * Off by default, the paper's per-request coin; turn it on only for throughput-bound groups whose
   * randomized operations of different clients need no secrecy from each other.
   */
  public static final ConfigKey<Boolean> COIN_PER_BATCH =
      ConfigKey.bool("bftws.coinPerBatch", ConfigScope.REPLICA, false);

  /**
   * The ids of the replicas that execute requests and reply to clients (BFT-WS §3.3.2). Not given: every
   * replica does, configuration I. Configuration II lists 2f+1 of the 3f+1 ids: the other f only order
   * (the paper frees their machines for other work), hold no service state and never answer clients. More
   * than 2f+1 is allowed (configuration I lists all n); fewer is refused, since f of the executing replicas
   * may be faulty and clients need f+1 matching replies from the rest.
   */
  public static final ConfigKey<List<Integer>> EXECUTING_REPLICAS = ConfigKey.list("bftws.executingReplicas",
      ConfigScope.GROUP, Integer::valueOf, String::valueOf, "replica ids, at least 2f+1 distinct ones in 0..n-1");

  /**
   * The ids of the execution nodes of configuration III (BFT-WS §3.3.3; Yin et al., SOSP'03): nodes outside
   * the 3f+1 agreement replicas that execute the batches those order and answer clients. Given, no agreement
   * replica executes ({@link #EXECUTING_REPLICAS} must not be given too); at least 2f+1 ids, each at least
   * {@link #clientBase} and used by no client, since f of them may be faulty and clients need f+1 matching
   * replies from the rest.
   */
  public static final ConfigKey<List<Integer>> EXECUTION_NODES = ConfigKey.list("bftws.executionNodes",
      ConfigScope.GROUP, Integer::valueOf, String::valueOf,
      "node ids, at least 2f+1 distinct ones from n (bftws.maxReplicas when given) on");

  /**
   * The most replicas any membership epoch of the group may have, and so the first client node id: replicas
   * are 0..n-1 and an added replica takes the next index (docs/design/reconfiguration.md), so clients and
   * configuration III's execution nodes number from here on, never from the current n, or a grown epoch's
   * replica would take a client's id. Not given: n, the numbering of a group that never grows.
   */
  public static final ConfigKey<Integer> MAX_REPLICAS = ConfigKey.integer("bftws.maxReplicas", ConfigScope.GROUP,
      null, 4, 3 * F_MAX + 1);

  public static final List<ConfigKey<Integer>> KEYS = List.of(F, CHECKPOINT_INTERVAL, LOG_WINDOW,
      MAX_BATCH_SIZE, MAX_OUTSTANDING_BATCHES, VIEW_CHANGE_TIMEOUT, VIEW_CHANGE_TIMEOUT_MAX,
      RETRANSMIT_INTERVAL, CLIENT_RETRANSMIT, MAX_REQUEST_BYTES, MAX_REQUESTS_AHEAD, MAX_PENDING,
      CLIENT_TABLE_RETENTION);
  public static final List<ConfigKey<Boolean>> FLAGS = List.of(COIN_PER_BATCH);
  /** {@link #KEYS} and {@link #FLAGS}: every key declared here. */
  public static final List<ConfigKey<?>> ALL = all();

  private final Map<String, Integer> values;
  private final Map<String, Boolean> flags;
  /** The number of replicas: 3f+1, or more in a membership epoch that grew (docs/design/reconfiguration.md). */
  private final int n;
  /** Ascending ids of the replicas that execute (all of 0..n-1 in configuration I). */
  private final List<Integer> executing;
  /** Ascending ids of configuration III's execution nodes (none otherwise). */
  private final List<Integer> executionNodes;
  /** The first client node id ({@link #MAX_REPLICAS}, n when not given). */
  private final int clientBase;

  private GroupConfig(Map<String, Integer> values, Map<String, Boolean> flags, int n, List<Integer> executing,
      List<Integer> executionNodes, int clientBase) {
    this.values = values;
    this.clientBase = clientBase;
    this.n = n;
    this.flags = flags;
    this.executing = executing;
    this.executionNodes = executionNodes;
  }

  public static GroupConfig defaults() {
    return new Builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * Reads every key declared here from textual properties, as {@link ConfigValues#read} does (a blank value
   * counts as not given); unknown keys are the caller's concern.
   */
  public static GroupConfig fromProperties(Map<String, String> props) {
    ConfigValues given = ConfigValues.read(props, ALL);
    Builder b = new Builder();
    for (ConfigKey<Integer> k : KEYS) {
      if (given.isSet(k)) {
        b.set(k, given.get(k));
      }
    }
    for (ConfigKey<Boolean> k : FLAGS) {
      if (given.isSet(k)) {
        b.set(k, given.get(k));
      }
    }
    if (given.isSet(EXECUTING_REPLICAS)) {
      b.executing(given.get(EXECUTING_REPLICAS));
    }
    if (given.isSet(EXECUTION_NODES)) {
      b.executionNodes(given.get(EXECUTION_NODES));
    }
    if (given.isSet(MAX_REPLICAS)) {
      b.maxReplicas(given.get(MAX_REPLICAS));
    }
    return b.build();
  }

  private static List<ConfigKey<?>> all() {
    List<ConfigKey<?>> all = new ArrayList<>(KEYS);
    all.addAll(FLAGS);
    all.add(EXECUTING_REPLICAS);
    all.add(EXECUTION_NODES);
    all.add(MAX_REPLICAS);
    return List.copyOf(all);
  }

  public int get(ConfigKey<Integer> key) {
    return values.get(key.name());
  }

  public boolean flag(ConfigKey<Boolean> key) {
    return flags.get(key.name());
  }

  public int f() {
    return get(F);
  }

  /** The number of replicas: 3f+1 unless {@link Builder#replicas} gave more. */
  public int n() {
    return n;
  }

  /**
   * The first node id of a client or execution node: {@link #MAX_REPLICAS}, or n when not given. A node id
   * below it is a replica's, or one an added replica may take.
   */
  public int clientBase() {
    return clientBase;
  }

  /**
   * The size of prepared, committed, stable and view-change certificates: ⌈(n+f+1)/2⌉, so that any two share
   * f+1 replicas (one correct) and the n−f correct ones form one. With n = 3f+1 it is 2f+1 (Castro-Liskov
   * §4.2); with n = 5 or 6 and f = 1 it is 4 (docs/design/reconfiguration.md).
   */
  public int quorum() {
    return (n + f() + 2) / 2;
  }

  public int checkpointInterval() {
    return get(CHECKPOINT_INTERVAL);
  }

  public int logWindow() {
    return get(LOG_WINDOW);
  }

  /** True when replica {@code id} executes requests and replies to clients (BFT-WS §3.3.2). */
  public boolean executes(int id) {
    return executing.contains(id);
  }

  /**
   * The ids of the replicas that execute, ascending: all n in configuration I, 2f+1 or more in configuration
   * II, none when only execution nodes outside the group do (configuration III's agreement replicas).
   */
  public List<Integer> executingReplicas() {
    return executing;
  }

  /** Configuration III's execution nodes, ascending (empty otherwise). */
  public List<Integer> executionNodes() {
    return executionNodes;
  }

  /** True for an execution node of configuration III. */
  public boolean isExecutionNode(int id) {
    return executionNodes.contains(id);
  }

  /**
   * The nodes that execute and answer clients, ascending: the executing replicas, or configuration III's
   * execution nodes. A client counts replies from these only.
   */
  public List<Integer> repliers() {
    return executionNodes.isEmpty() ? executing : executionNodes;
  }

  /** True when node {@code id} executes and answers clients ({@link #repliers}). */
  public boolean replies(int id) {
    return executes(id) || isExecutionNode(id);
  }

  /** True unless every replica executes: some replicas only order (configuration II or III). */
  public boolean separatesExecution() {
    return executing.size() < n();
  }

  public int primaryOf(long view) {
    return (int) Math.floorMod(view, (long) n());
  }

  public static final class Builder {
    private final Map<String, Integer> values = new HashMap<>();
    private final Map<String, Boolean> flags = new HashMap<>();
    private List<Integer> executing;
    private List<Integer> executionNodes = List.of();
    private int replicas;
    private int maxReplicas;

    /**
     * A group of {@code n} replicas, at least 3f+1: a membership epoch that grew by fewer than three replicas
     * (docs/design/reconfiguration.md). Programmatic only: in configuration text n is 3f+1.
     */
    public Builder replicas(int n) {
      replicas = n;
      return this;
    }

    /** {@link #MAX_REPLICAS}: the first client node id; checked against n in {@link #build}. */
    public Builder maxReplicas(int max) {
      MAX_REPLICAS.check(max);
      maxReplicas = max;
      return this;
    }

    /** Configuration III's execution nodes ({@link #EXECUTION_NODES}); checked against f in {@link #build}. */
    public Builder executionNodes(List<Integer> ids) {
      executionNodes = List.copyOf(ids);
      return this;
    }

    /**
     * The replicas that execute ({@link #EXECUTING_REPLICAS}); checked against f in {@link #build}. An empty
     * list (no replica executes: configuration III's agreement replicas) can be given here only, not in
     * configuration text.
     */
    public Builder executing(List<Integer> ids) {
      executing = List.copyOf(ids);
      return this;
    }

    public Builder set(ConfigKey<Integer> key, int value) {
      key.check(value);
      values.put(key.name(), value);
      return this;
    }

    public Builder set(ConfigKey<Boolean> key, boolean value) {
      key.check(value);
      flags.put(key.name(), value);
      return this;
    }

    public GroupConfig build() {
      Map<String, Integer> all = new HashMap<>();
      for (ConfigKey<Integer> k : KEYS) {
        all.put(k.name(), values.getOrDefault(k.name(), k.defaultValue()));
      }
      int kInterval = all.get(CHECKPOINT_INTERVAL.name());
      int window = all.get(LOG_WINDOW.name());
      if (window < 2 * kInterval) {
        throw new ConfigException(LOG_WINDOW.name(), String.valueOf(window),
            "at least twice " + CHECKPOINT_INTERVAL.name() + " (" + 2 * kInterval + ")");
      }
      if (all.get(VIEW_CHANGE_TIMEOUT_MAX.name()) < all.get(VIEW_CHANGE_TIMEOUT.name())) {
        throw new ConfigException(VIEW_CHANGE_TIMEOUT_MAX.name(), String.valueOf(all.get(VIEW_CHANGE_TIMEOUT_MAX.name())),
            "at least " + VIEW_CHANGE_TIMEOUT.name());
      }
      Map<String, Boolean> allFlags = new HashMap<>();
      for (ConfigKey<Boolean> k : FLAGS) {
        allFlags.put(k.name(), flags.getOrDefault(k.name(), k.defaultValue()));
      }
      int f = all.get(F.name());
      int n = replicas == 0 ? 3 * f + 1 : replicas;
      if (n < 3 * f + 1 || n > 3 * F_MAX + 1) {
        throw new ConfigException(F.name(), String.valueOf(f), "at most (n-1)/3 for a group of " + n + " replicas"
            + " (n at most " + (3 * F_MAX + 1) + ")");
      }
      if (!executionNodes.isEmpty()) {
        if (executing != null && !executing.isEmpty()) {
          throw new ConfigException(EXECUTING_REPLICAS.name(), EXECUTING_REPLICAS.text(executing),
              "not given with " + EXECUTION_NODES.name() + ": in configuration III no agreement replica executes");
        }
        executing = List.of();
      }
      int base = clientBase(n);
      return new GroupConfig(Map.copyOf(all), Map.copyOf(allFlags), n, executingIds(n, f),
          executionNodeIds(n, f, base), base);
    }

    /** {@link #MAX_REPLICAS} if given, else n; never below n, whose replicas' ids it would overlap. */
    private int clientBase(int n) {
      if (maxReplicas == 0) {
        return n;
      }
      if (maxReplicas < n) {
        throw new ConfigException(MAX_REPLICAS.name(), String.valueOf(maxReplicas), "at least the group's n = "
            + n + " replicas: client node ids start there, above every replica index");
      }
      return maxReplicas;
    }

    private List<Integer> executionNodeIds(int n, int f, int base) {
      TreeSet<Integer> ids = new TreeSet<>(executionNodes);
      if (!ids.isEmpty() && (ids.size() != executionNodes.size() || ids.first() < base || ids.size() < 2 * f + 1)) {
        throw new ConfigException(EXECUTION_NODES.name(), EXECUTION_NODES.text(executionNodes),
            "at least 2f+1 = " + (2 * f + 1) + " distinct node ids, each at least " + (base == n ? "n = " + n
                : MAX_REPLICAS.name() + " = " + base));
      }
      return List.copyOf(ids);
    }

    private List<Integer> executingIds(int n, int f) {
      if (executing == null) {
        List<Integer> everyone = new ArrayList<>();
        for (int i = 0; i < n; i++) {
          everyone.add(i);
        }
        return List.copyOf(everyone);
      }
      TreeSet<Integer> ids = new TreeSet<>(executing);
      boolean inRange = ids.isEmpty() || ids.first() >= 0 && ids.last() < n;
      if (ids.size() != executing.size() || !inRange || (!ids.isEmpty() && ids.size() < 2 * f + 1)) {
        throw new ConfigException(EXECUTING_REPLICAS.name(), EXECUTING_REPLICAS.text(executing),
            "at least 2f+1 = " + (2 * f + 1) + " distinct replica ids in 0.." + (n - 1));
      }
      return List.copyOf(ids);
    }
  }
}
