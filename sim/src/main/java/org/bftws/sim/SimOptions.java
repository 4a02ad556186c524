package org.bftws.sim;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.bftws.core.config.GroupConfig;
import org.bftws.core.crypto.Authentication;
import org.bftws.core.crypto.threshold.SchemeId;

/**
 * One simulation run: the seed drives everything else (keys, fault rates, schedules, Byzantine choices).
 * Replaying a seed with the same options replays the run exactly.
 *
 * <p>{@code random}: whether the group tosses threshold coins for randomized requests (CT algorithm,
 * integrity paper §5) with {@code scheme}, one coin per randomized request or, with {@code coinPerBatch},
 * per batch. The dealer's keys are drawn from the seed too — or, with {@code keys}, are those written by
 * {@code scripts/keygen}, which then also give the replicas their Ed25519 keys. {@code authentication}: how
 * replicas authenticate prepares and commits ({@code bftws.authentication}).
 *
 * <p>{@code ordering}: the engine the replicas run, PBFT's {@code pbft.Replica} or SINTRA's atomic
 * broadcast {@code async.AsyncReplica}, each under its own network model (docs/simulator.md).
 * {@code slowDelayTicks}: with {@link Byzantine#SLOW}, how long the slow replica's messages are delayed
 * (−1: {@link #DEFAULT_SLOW_DELAY}). {@code configuration}: BFT-WS §3.3.1's configuration I (every replica
 * executes), §3.3.2's configuration II (f replicas, drawn from the seed, only order) or §3.3.3's
 * configuration III (execution nodes apart from the replicas). {@code confidential}:
 * about half the requests that are not randomized are sealed under the group's TDH2 key and opened after
 * ordering (SINTRA §2.6, {@code replication.Decryptions}). {@code restarts}: what a drawn crash that is not an amnesia
 * does to a PBFT replica ({@link Restarts}).
 */
public record SimOptions(long seed, int f, int clients, int requests, Byzantine byzantine, Randomness random,
    SchemeId scheme, boolean coinPerBatch, SimKeys keys, Authentication authentication, Ordering ordering,
    int slowDelayTicks, Configuration configuration, boolean confidential, Restarts restarts, boolean dkg) {
  /**
   * The slow replica's default delay: nine tenths of PBFT's view-change timeout ({@code
   * bftws.viewChangeTimeoutTicks}, 200 ticks by default, which the simulator keeps), so a slow primary's
   * batches still execute before a backup's timer fires and no view change replaces it.
   */
  public static final int DEFAULT_SLOW_DELAY = 180;

  /** MEMBER: the replicated client's members, clients 0..3. */
  static final int MEMBERS = 4;

  /** Why asynchronous ordering refuses configuration II. */
  static final String ASYNC_CONFIGURATION = "asynchronous and hybrid ordering run configuration I only: their"
      + " replicas all execute";

  /** Why configuration III refuses randomness and the flagging nemesis. */
  static final String SEPARATED_RANDOMNESS = "configuration III hands out batches without random numbers: no"
      + " --random and no flagging nemesis";

  /** Why asynchronous ordering refuses BA randomness and the flagging nemesis (both are PBFT's primary's). */
  static final String ASYNC_RANDOMNESS = "asynchronous and hybrid ordering take --random ct only: the BA"
      + " algorithms (integrity paper §4) and the flagging nemesis work through PBFT's primary";

  /** The ordering engine of the replicas. */
  public enum Ordering {
    /** Castro-Liskov PBFT: partially synchronous, timers drive view changes. */
    PBFT,
    /** SINTRA's atomic broadcast (Cachin-Poritz §2.5): asynchronous, no timer. */
    ASYNC,
    /**
     * A leader's fast lane with SINTRA's agreement as the fallback (core's {@code hybrid.HybridReplica},
     * docs/design/hybrid.md): ticks decide only when a replica switches.
     */
    HYBRID;

    public static Ordering parse(String s) {
      return valueOf(s.trim().toUpperCase());
    }

    public String label() {
      return name().toLowerCase();
    }
  }

  /** Which replicas execute (BFT-WS §3.3.1–3.3.2). */
  public enum Configuration {
    /** Every replica orders and executes. */
    I,
    /** 2f+1 replicas execute and reply; the other f, drawn from the seed, only order. */
    II,
    /**
     * BFT-WS §3.3.3: the 3f+1 replicas only order and certify; 2f+1 execution nodes apart (ids after the
     * clients') execute and reply, and take the nemesis too.
     */
    III;

    public static Configuration parse(String s) {
      return valueOf(s.trim().toUpperCase());
    }
  }

  /** What a drawn crash that is not an amnesia is (amnesia, restarting empty, is drawn apart and budgeted). */
  public enum Restarts {
    /** The replica pauses and resumes with its memory: a process stopped and continued. */
    PAUSE,
    /**
     * Every ordering: the replica is killed and restarts from its journal ({@code engine.Journal}, TOCS 2002
     * §4.3): a fresh replica and service, rebuilt by {@code Engine.recover}; a correct replica, not charged as
     * amnesia.
     */
    JOURNAL,
    /**
     * The control of {@link #JOURNAL}: at restart the journal's signed and prepared records are dropped (the
     * stable checkpoint and view kept; for async and hybrid, its committing messages), and the replica still counts as correct; the checker should then
     * find the contradictions a journal prevents.
     */
    FORGETFUL;

    public static Restarts parse(String s) {
      return valueOf(s.trim().toUpperCase());
    }

    public String label() {
      return name().toLowerCase();
    }
  }

  /** How the group gets the random numbers of randomized requests. */
  public enum Randomness {
    /** None: no request is randomized, random numbers are empty. */
    NONE,
    /** The CT algorithm: threshold coin-tossing after commit (integrity paper §5). */
    CT,
    /** The BA algorithm: agreement on 2f+1 contributions before prepare (integrity paper §4). */
    BA,
    /** BA hardened by commit-before-reveal (see {@code pbft.Contributions}). */
    BA_HARDENED;

    public static Randomness parse(String s) {
      return valueOf(s.trim().toUpperCase().replace('-', '_'));
    }

    public String label() {
      return name().toLowerCase().replace('_', '-');
    }
  }

  public SimOptions {
    if (f < 1 || clients < 1 || requests < 0) {
      throw new IllegalArgumentException("f >= 1, clients >= 1, requests >= 0");
    }
  }

  public SimOptions(long seed, int f, int clients, int requests, Byzantine byzantine, Randomness random,
      SchemeId scheme, boolean coinPerBatch, SimKeys keys, Authentication authentication, Ordering ordering,
      int slowDelayTicks, Configuration configuration) {
    this(seed, f, clients, requests, byzantine, random, scheme, coinPerBatch, keys, authentication, ordering,
        slowDelayTicks, configuration, false, Restarts.PAUSE, false);
  }

  public SimOptions(long seed, int f, int clients, int requests, Byzantine byzantine, Randomness random,
      SchemeId scheme, boolean coinPerBatch, SimKeys keys) {
    this(seed, f, clients, requests, byzantine, random, scheme, coinPerBatch, keys, Authentication.DEFAULT,
        Ordering.PBFT, -1, Configuration.I);
  }

  public SimOptions(long seed, int f, int clients, int requests, Byzantine byzantine) {
    this(seed, f, clients, requests, byzantine, Randomness.NONE, SchemeId.CKS, false);
  }

  public SimOptions(long seed, int f, int clients, int requests, Byzantine byzantine, Randomness random,
      SchemeId scheme, boolean coinPerBatch) {
    this(seed, f, clients, requests, byzantine, random, scheme, coinPerBatch, null);
  }

  public static SimOptions of(long seed, Byzantine b) {
    return new SimOptions(seed, 1, 3, 60, b);
  }

  public SimOptions withSeed(long s) {
    return new SimOptions(s, f, clients, requests, byzantine, random, scheme, coinPerBatch, keys, authentication,
        ordering, slowDelayTicks, configuration, confidential, restarts, dkg);
  }

  /** The same run under another seed and nemesis. */
  public SimOptions with(long s, Byzantine b) {
    return new SimOptions(s, f, clients, requests, b, random, scheme, coinPerBatch, keys, authentication, ordering,
        slowDelayTicks, configuration, confidential, restarts, dkg);
  }

  public SimOptions withRandom(Randomness r, SchemeId s, boolean perBatch) {
    return new SimOptions(seed, f, clients, requests, byzantine, r, s, perBatch, keys, authentication, ordering,
        slowDelayTicks, configuration, confidential, restarts, dkg);
  }

  SimOptions withKeys(SimKeys k) {
    return new SimOptions(seed, f, clients, requests, byzantine, random, scheme, coinPerBatch, k, authentication,
        ordering, slowDelayTicks, configuration, confidential, restarts, dkg);
  }

  public SimOptions withAuthentication(Authentication a) {
    return new SimOptions(seed, f, clients, requests, byzantine, random, scheme, coinPerBatch, keys, a, ordering,
        slowDelayTicks, configuration, confidential, restarts, dkg);
  }

  public SimOptions withOrdering(Ordering e) {
    return new SimOptions(seed, f, clients, requests, byzantine, random, scheme, coinPerBatch, keys, authentication,
        e, slowDelayTicks, configuration, confidential, restarts, dkg);
  }

  public SimOptions withConfiguration(Configuration c) {
    return new SimOptions(seed, f, clients, requests, byzantine, random, scheme, coinPerBatch, keys, authentication,
        ordering, slowDelayTicks, c, confidential, restarts, dkg);
  }

  public SimOptions withSlowDelay(int ticks) {
    return new SimOptions(seed, f, clients, requests, byzantine, random, scheme, coinPerBatch, keys, authentication,
        ordering, ticks, configuration, confidential, restarts, dkg);
  }

  public SimOptions withConfidential(boolean c) {
    return new SimOptions(seed, f, clients, requests, byzantine, random, scheme, coinPerBatch, keys, authentication,
        ordering, slowDelayTicks, configuration, c, restarts, dkg);
  }

  /**
   * With {@code generate}: the group starts with its replicas' individual keys only and generates its coin's
   * and TDH2 keys by the distributed key generation over its own ordering ({@code --keys dkg}, {@link SimDkg}).
   */
  public SimOptions withDkg(boolean generate) {
    return new SimOptions(seed, f, clients, requests, byzantine, random, scheme, coinPerBatch, keys, authentication,
        ordering, slowDelayTicks, configuration, confidential, restarts, generate);
  }

  public SimOptions withRestarts(Restarts r) {
    return new SimOptions(seed, f, clients, requests, byzantine, random, scheme, coinPerBatch, keys, authentication,
        ordering, slowDelayTicks, configuration, confidential, r, dkg);
  }

  /**
   * These options, if the simulator can run them together; otherwise an {@link IllegalArgumentException}
   * saying why (a {@link Simulation} checks before it draws anything).
   */
  public SimOptions check() {
    if (channel() && configuration != Configuration.I) {
      throw new IllegalArgumentException(ASYNC_CONFIGURATION);
    }
    if (configuration == Configuration.III && (random != Randomness.NONE || byzantine == Byzantine.FLAGGING)) {
      throw new IllegalArgumentException(SEPARATED_RANDOMNESS);
    }
    if (channel() && (random == Randomness.BA || random == Randomness.BA_HARDENED || byzantine == Byzantine.FLAGGING)) {
      throw new IllegalArgumentException(ASYNC_RANDOMNESS);
    }
    if (!channel() && byzantine == Byzantine.EQUIVOCATE) {
      throw new IllegalArgumentException("--byzantine equivocate needs asynchronous or hybrid ordering (PBFT's is"
          + " twins)");
    }
    if (channel() && byzantine == Byzantine.ISOLATE) {
      throw new IllegalArgumentException("--byzantine isolate is PBFT's (a replica alone in a view change)");
    }
    if (dkg) {
      checkDkg();
    } else if (byzantine == Byzantine.DEALER || byzantine == Byzantine.COLLUDERS) {
      throw new IllegalArgumentException("--byzantine " + byzantine.label() + " is a dealer of the key generation:"
          + " it needs --keys dkg");
    }
    if (byzantine == Byzantine.MEMBER && (channel() || clients < MEMBERS)) {
      throw new IllegalArgumentException("--byzantine member needs PBFT and at least " + MEMBERS + " clients");
    }
    return this;
  }

  /** {@code --keys dkg}: what the distributed key generation cannot run with, naming the option. */
  private void checkDkg() {
    if (channel()) {
      throw new IllegalArgumentException("--keys dkg needs --ordering pbft: the asynchronous and hybrid engines'"
          + " binary agreement needs the coin whose key the DKG would make (the module likewise refuses"
          + " bftws.keys.mode=dkg with bftws.ordering=async or hybrid)");
    }
    if (random != Randomness.CT) {
      throw new IllegalArgumentException("--keys dkg generates the CT coin's key: it needs --random ct");
    }
    if (scheme != SchemeId.CKS && scheme != SchemeId.BLS) {
      throw new IllegalArgumentException("--keys dkg makes cks or bls coins: --scheme " + scheme.label()
          + " has no distributed key generation");
    }
    if (keys != null) {
      throw new IllegalArgumentException("--keys dkg and --keys DIR: a group's keys are dealt or generated, not both");
    }
    if (configuration == Configuration.III) {
      throw new IllegalArgumentException("--keys dkg needs --config I or II: " + SEPARATED_RANDOMNESS);
    }
    if (restarts != Restarts.PAUSE) {
      throw new IllegalArgumentException("--keys dkg takes no --restarts " + restarts.label() + ": a replica restarted"
          + " on its generated keys treats every seq of its journal as served by them (docs/status.md)");
    }
  }

  /**
   * The simulated group: short checkpoint interval, log window and batches, so that a run's few hundred
   * requests cross many checkpoints; which replicas execute as {@link #configuration} says.
   */
  GroupConfig groupConfig() {
    return GroupConfig.builder().set(GroupConfig.F, f).set(GroupConfig.CHECKPOINT_INTERVAL, 8)
        .set(GroupConfig.LOG_WINDOW, 16).set(GroupConfig.MAX_BATCH_SIZE, 16)
        .set(GroupConfig.COIN_PER_BATCH, coinPerBatch).executing(executingReplicas())
        .executionNodes(executionNodeIds()).build();
  }

  /**
   * Configuration I: every replica executes. II (BFT-WS §3.3.2): all but f, drawn from the seed alone (not
   * the run's random source: its schedule stays the seed's), so the Byzantine replica is now one that
   * executes, now one that only orders, and now the first primary only orders. III: none.
   */
  private List<Integer> executingReplicas() {
    if (configuration == Configuration.III) {
      return List.of(); // the execution nodes execute (executionNodeIds)
    }
    List<Integer> ids = new ArrayList<>();
    for (int i = 0; i < n(); i++) {
      ids.add(i);
    }
    if (configuration == Configuration.II) {
      Collections.shuffle(ids, new Random(seed ^ 0x436f6e66L));
      ids = new ArrayList<>(ids.subList(f, n()));
      Collections.sort(ids);
    }
    return ids;
  }

  /** Configuration III: the execution nodes' ids, after the clients' and the flagging client's. */
  private List<Integer> executionNodeIds() {
    List<Integer> ids = new ArrayList<>();
    for (int k = 0; configuration == Configuration.III && k < 2 * f + 1; k++) {
      ids.add(n() + clients + 1 + k);
    }
    return ids;
  }

  /** Replicas keep a journal (and crashes restart them from it), whatever the ordering. */
  public boolean journaled() {
    return restarts != Restarts.PAUSE;
  }

  /** With {@link Byzantine#SLOW}: the ticks by which the slow replica's messages are delayed. */
  public int slowDelay() {
    return slowDelayTicks >= 0 ? slowDelayTicks : DEFAULT_SLOW_DELAY;
  }

  public boolean async() {
    return ordering == Ordering.ASYNC;
  }

  /**
   * The asynchronous or the hybrid engine: the group's coin, every message in a {@code Kind.ASYNC} envelope,
   * configuration I, CT randomness only, no journal.
   */
  public boolean channel() {
    return ordering != Ordering.PBFT;
  }

  public Ordering ordering() {
    return ordering;
  }

  public int n() {
    return 3 * f + 1;
  }

  /** The command line that replays this run. */
  public String replay() {
    return "scripts/simulate --seeds " + seed + " --replicas " + n() + " --clients " + clients
        + " --requests " + requests + " --byzantine " + byzantine.label()
        + (random == Randomness.NONE ? "" : " --random " + random.label())
        + (random != Randomness.CT ? "" : " --scheme " + scheme.label() + (coinPerBatch ? " --coin-per-batch" : ""))
        + (keys == null ? "" : " --keys " + keys.dir()) + (dkg ? " --keys dkg" : "")
        + (authentication == Authentication.DEFAULT ? "" : " --authentication " + authentication.label())
        + (channel() ? " --ordering " + ordering.label() : "")
        + (configuration == Configuration.I ? "" : " --config " + configuration)
        + (confidential ? " --confidential" : "")
        + (restarts == Restarts.PAUSE ? "" : " --restarts " + restarts.label())
        + (byzantine == Byzantine.SLOW && slowDelayTicks >= 0 ? " --slow-delay-ticks " + slowDelayTicks : "");
  }
}
