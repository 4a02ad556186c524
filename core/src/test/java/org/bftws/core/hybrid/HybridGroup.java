package org.bftws.core.hybrid;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.bftws.core.async.AsyncMessage;
import org.bftws.core.async.AsyncReplica;
import org.bftws.core.async.Pid;
import org.bftws.core.codec.DecodeException;
import org.bftws.core.config.GroupConfig;
import org.bftws.core.crypto.Verifier;
import org.bftws.core.crypto.threshold.Dealt;
import org.bftws.core.crypto.threshold.SchemeId;
import org.bftws.core.crypto.threshold.ThresholdParams;
import org.bftws.core.crypto.threshold.ThresholdScheme;
import org.bftws.core.crypto.threshold.Thresholds;
import org.bftws.core.engine.Effect;
import org.bftws.core.engine.Engine;
import org.bftws.core.engine.Event;
import org.bftws.core.engine.Journal;
import org.bftws.core.engine.Ready;
import org.bftws.core.message.Kind;
import org.bftws.core.message.Request;
import org.bftws.core.message.Signed;
import org.bftws.core.message.hybrid.LaneBatch;
import org.bftws.core.message.hybrid.LaneProposal;
import org.bftws.core.message.hybrid.LaneVote;
import org.bftws.core.replication.CoinConfig;
import org.bftws.core.replication.ConfidentialConfig;
import org.bftws.core.replication.ConfidentialOperations;
import org.bftws.core.testkit.EffectPerformer;
import org.bftws.core.testkit.EngineHarness.Msg;
import org.bftws.core.testkit.EngineHarness;
import org.bftws.core.testkit.HashChainApp;
import org.bftws.core.testkit.JournalDisks;
import org.bftws.core.testkit.Scheduler;
import org.bftws.core.testkit.TestKeys;
import org.bftws.core.testkit.TestRandom;

/**
 * n {@link HybridReplica}s with {@link HashChainApp}s, clients n, n+1, …, on the test kit's {@link EngineHarness}
 * with a {@link Scheduler} (FIFO or the seeded draw); effects performed at once through its {@link
 * EffectPerformer}. Replicas not built are Byzantine or silent: messages to them are dropped and tests make them
 * speak with {@link #forge}. A test may {@link #cut} messages (by sender, receiver and what they are) and {@link
 * #slow} a replica: its messages leave only {@code delay} ticks after it sent them (the {@link
 * EngineHarness.Router} keeps them; each {@link #tick} releases those due). Ticks are given only by {@link #tick}.
 */
final class HybridGroup {
  static final ThresholdScheme CKS = Thresholds.scheme(SchemeId.CKS);
  private static final int MAX_STEPS = 2_000_000;

  /** Which messages are lost: sender, receiver, {@link #what} the message is. */
  interface Cut {
    boolean test(int from, int to, String what);
  }

  private record Later(long due, Msg msg) {}

  final int n;
  final int f;
  final long seed;
  final GroupConfig cfg;
  private final boolean async;
  /** The fast lane's envelopes by authenticators ({@code bftws.authentication=macs}); else by signatures. */
  private final boolean macs;
  /** Per replica: the signature verifications its engine made. */
  final long[] verifications;
  private final Set<Integer> absent;
  private final Dealt coins;
  /** The group on the test kit's harness: delivery, ticks and effects are the harness's. */
  private final EngineHarness harness;
  private final HashChainApp[] apps;
  /** Per replica: the requests it executed, in order (a state transfer skips some: see {@link #installed}). */
  final List<List<Request>> executed = new ArrayList<>();
  /** Per replica: seq to the ids of the requests executed there. */
  private final List<Map<Long, List<String>>> executedAt = new ArrayList<>();
  /** Per replica: the highest checkpoint it installed by state transfer (0: none). */
  private final long[] installed;
  /** Per replica: seq to (epoch, digest) of each delivered batch. */
  final List<Map<Long, String>> committed = new ArrayList<>();
  /** Per replica: seq to the digest of the checkpoint it took there (its own, before any vote). */
  final List<Map<Long, String>> checkpoints = new ArrayList<>();
  final List<List<Event.Evidence>> evidence = new ArrayList<>();
  /** Per replica: the random number each executed request got (hex). */
  final List<Map<String, String>> randoms = new ArrayList<>();
  /** Per replica: the checkpoints that became stable there. */
  final List<List<Long>> stable = new ArrayList<>();
  private final List<Later> later = new ArrayList<>();
  private final Map<Integer, Integer> delays = new HashMap<>();
  /** Replicas whose engine runs but whose proposals are equivocated: Byzantine, not checked. */
  private final Set<Integer> equivocators = new HashSet<>();
  private Cut cut = (from, to, what) -> false;
  private boolean journaled;
  /** Per replica: its journal as the embedding keeps it (appended, compacted at each STABLE record). */
  final JournalDisks journals;
  /** Per replica, across its restarts: per lane slot or epoch ({@code pid#type}), what it first sent there. */
  private final List<Map<String, String>> sentInSlot = new ArrayList<>();
  private final String[] contradictions = new String[64];
  private final long[] nextNumber = new long[64];
  private long now;

  HybridGroup(int n, int f, long seed, Set<Integer> absent, Scheduler<Msg> scheduler, GroupConfig.Builder config) {
    this(n, f, seed, absent, scheduler, config, false);
  }

  /** With {@code async}: SINTRA's engine ({@code AsyncReplica}) instead, to compare the two on one network. */
  HybridGroup(int n, int f, long seed, Set<Integer> absent, Scheduler<Msg> scheduler, GroupConfig.Builder config,
      boolean async) {
    this(n, f, seed, absent, scheduler, config, async, false);
  }

  /** With {@code macs}: the hybrid replicas' fast lane authenticated by MACs, as the module's default. */
  HybridGroup(int n, int f, long seed, Set<Integer> absent, Scheduler<Msg> scheduler, GroupConfig.Builder config,
      boolean async, boolean macs) {
    this.macs = macs;
    this.verifications = new long[n];
    this.n = n;
    this.journals = new JournalDisks(n);
    this.f = f;
    this.seed = seed;
    this.async = async;
    this.absent = absent;
    this.cfg = config.set(GroupConfig.F, f).build();
    this.coins = CKS.deal(new ThresholdParams(n, f + 1, f), TestRandom.seeded(seed));
    installed = new long[n];
    apps = new HashChainApp[n];
    harness = new EngineHarness(cfg, TestKeys.seeded(n + 8, seed), this::newReplica, scheduler)
        .services(this::service).observer(this::observe).router(this::route).drop(this::cutOff)
        .ticked(this::release).maxSteps(MAX_STEPS, "no quiescence after " + MAX_STEPS + " messages, seed " + seed);
    for (int i = 0; i < n; i++) {
      executed.add(new ArrayList<>());
      executedAt.add(new HashMap<>());
      committed.add(new HashMap<>());
      checkpoints.add(new HashMap<>());
      evidence.add(new ArrayList<>());
      randoms.add(new HashMap<>());
      stable.add(new ArrayList<>());
      sentInSlot.add(new HashMap<>());
      if (harness.start(i) != null) {
        apps[i] = new HashChainApp();
      }
    }
  }

  /** Replica i's engine, or none for an absent (Byzantine or silent) one. */
  private Engine newReplica(int i, GroupConfig config, TestKeys keys) {
    if (absent.contains(i)) {
      return null;
    }
    CoinConfig coin = new CoinConfig(CKS, coins.group(), coins.share(i + 1), new byte[0]);
    Verifier real = keys.verifier();
    Verifier counted = (node, data, signature) -> {
      verifications[i]++;
      return real.verify(node, data, signature);
    };
    if (async) {
      return AsyncReplica.builder(config, i, keys.signer(i), counted).coin(coin).build();
    }
    HybridReplica r = HybridReplica.builder(config, i, keys.signer(i), counted).coin(coin)
        .macs(macs ? keys.authenticators(i, n) : null).build();
    return journaled ? r.journaled() : r;
  }

  /** Every replica keeps a journal from now on (rebuilt journaled): call before the first request. */
  HybridGroup journaled() {
    journaled = true;
    for (int i = 0; i < n; i++) {
      if (harness.engine(i) != null) {
        restart(i);
      }
    }
    return this;
  }

  /** Replaces replica i by a fresh one with the same keys and an empty service (amnesia). */
  void restart(int i) {
    harness.start(i);
    apps[i] = new HashChainApp();
    executed.get(i).clear();
    executedAt.get(i).clear();
    committed.get(i).clear();
    randoms.get(i).clear();
  }

  /** A kill and a restart with state ({@code forgetful}: the control, its journal lost). */
  void restartJournaled(int i, boolean forgetful) {
    if (forgetful) {
      journals.get(i).clear();
    }
    restart(i);
    journals.recover(harness, i);
  }

  /** Replica i is down (what is sent to it is lost) or back. */
  void down(int i, boolean down) {
    if (down) {
      harness.down.add(i);
    } else {
      harness.down.remove(i);
    }
  }

  /** The first lane slot or epoch ({@code hyb/e/s TYPE}) where replica i sent two different messages, over its incarnations. */
  String contradiction(int i) {
    return contradictions[i];
  }

  /** Records what replica i sends in each lane slot and each epoch's SWITCH, as seen on the wire. */
  private void onWire(int i, byte[] bytes) {
    Signed s;
    try {
      s = Signed.decode(bytes);
    } catch (DecodeException e) {
      return; // a reply with its authenticators, to a client
    }
    if (s.kind() != Kind.ASYNC) {
      return;
    }
    AsyncMessage m = AsyncMessage.decode(s.body());
    List<String> seg = m.pid().segments();
    if (!seg.get(0).equals("hyb") || !(seg.size() == 2 || seg.size() == 3 && seg.get(2).matches("[0-9]+"))) {
      return; // the fallback's agreement: the asynchronous engine's journal tests check its slots
    }
    String slot = m.pid() + " " + Epoch.Type.values()[m.type() - 1];
    String payload = HexFormat.of().formatHex(m.payload());
    String before = sentInSlot.get(i).putIfAbsent(slot, payload);
    if (before != null && !before.equals(payload) && contradictions[i] == null) {
      contradictions[i] = slot;
    }
  }

  static GroupConfig.Builder config(int timeout) {
    return GroupConfig.builder().set(GroupConfig.VIEW_CHANGE_TIMEOUT, timeout).set(GroupConfig.RETRANSMIT_INTERVAL, 4)
        .set(GroupConfig.MAX_BATCH_SIZE, 8).set(GroupConfig.CHECKPOINT_INTERVAL, 8);
  }

  HybridReplica replica(int i) {
    return (HybridReplica) harness.engine(i);
  }

  boolean correct(int i) {
    return harness.engine(i) != null && !equivocators.contains(i);
  }

  /**
   * Replica i is Byzantine: its engine runs, but each batch it proposes as leader reaches the odd-numbered
   * replicas as another batch for the same seq (its requests reversed, or none), signed with its key.
   */
  void equivocate(int i) {
    equivocators.add(i);
  }

  void cut(Cut c) {
    this.cut = c;
  }

  /** Replica i's messages leave {@code delay} ticks after it sent them (0: at once). */
  void slow(int i, int delay) {
    delays.put(i, delay);
  }

  /**
   * Client c's next request, sent to every replica, on a sequence of its own (message number 1): requests sent
   * at once on one sequence may be ordered out of their numbers' order, and the client table then skips the
   * lower one as old (docs/engine.md), which would make "every request executed" untestable.
   */
  Request request(int c) {
    return request(c, false);
  }

  /** The same, randomized or not (CT algorithm: the group's coin gives its random number). */
  Request request(int c, boolean randomized) {
    int client = n + c;
    return send(new Request(client, "seq-" + client + "-" + (++nextNumber[c]), 1, randomized,
        ("op " + c + "/" + nextNumber[c]).getBytes(StandardCharsets.US_ASCII)));
  }

  /** {@code q}, signed by its client, sent to every replica. */
  Request send(Request q) {
    byte[] s = signed(q).encode();
    for (int i = 0; i < n; i++) {
      harness.post(new Msg(q.client(), i, s));
    }
    return q;
  }

  /**
   * Client c's next request on a sequence of its own, as {@link #request}, its operation {@code text} sealed
   * under the group's TDH2 key with its label (SINTRA §2.6): the sequence id starts with "sealed-".
   */
  Request sealed(int c, Dealt tdh2, byte[] groupId, String text) {
    return sealed(c, tdh2, groupId, text, 1);
  }

  /**
   * As {@link #sealed}, the ciphertext labelled with message number {@code label}: another than 1 is a
   * ciphertext replayed from another request.
   */
  Request sealed(int c, Dealt tdh2, byte[] groupId, String text, long label) {
    int client = n + c;
    String sequence = "sealed-" + client + "-" + (++nextNumber[c]);
    byte[] ct = ConfidentialConfig.seal(tdh2.group(), groupId, sequence, label, text.getBytes(StandardCharsets.UTF_8),
        TestRandom.seeded(seed * 1000 + nextNumber[c]));
    return send(new Request(client, sequence, 1, false, ct));
  }

  /** Every running replica opens the requests on "sealed-" sequences with its share of {@code tdh2}. */
  void confidential(Dealt tdh2, byte[] groupId) {
    ConfidentialOperations ops = ConfidentialOperations.wholeOperation(r -> r.sequenceId().startsWith("sealed-"));
    for (int i = 0; i < n; i++) {
      if (harness.engine(i) != null) {
        replica(i).confidentialOperations(new ConfidentialConfig(tdh2.group(), tdh2.share(i + 1), groupId, ops));
      }
    }
  }

  /** {@code q} signed by its client, as {@link #request} sent it. */
  Signed signed(Request q) {
    return Signed.sign(Kind.REQUEST, q.client(), q.encode(), harness.keys.signer(q.client()));
  }

  /** A message of replica {@code from} (a Byzantine one) on instance pid, signed with its key. */
  void forge(int from, int to, Pid pid, int type, byte[] payload) {
    byte[] body = new AsyncMessage(pid, type, payload).encode();
    byte[] bytes = Signed.sign(Kind.ASYNC, from, body, harness.keys.signer(from)).encode();
    harness.post(new Msg(from, to, bytes));
  }

  /**
   * A PROPOSE payload of epoch {@code epoch}'s leader {@code from} for batch b, with its prepare share on b
   * signed with its key (what a correct leader sends).
   */
  byte[] proposal(int from, long epoch, LaneBatch b) {
    return new LaneProposal(b, prepareShare(from, epoch, b.seq(), b.digest())).encode();
  }

  /** Replica {@code from}'s prepare share on (seq, digest) in epoch {@code epoch}, signed with its key. */
  byte[] prepareShare(int from, long epoch, long seq, byte[] digest) {
    Pid lane = HybridReplica.ROOT.child(epoch);
    return harness.keys.signer(from).sign(lane.bind("prepare", LaneVote.prepared(seq, digest)));
  }

  /** {@link #forge} with the sender's authenticator after the envelope, as its lane's messages go with MACs. */
  void forgeAuthenticated(int from, int to, Pid pid, int type, byte[] payload) {
    Signed s = Signed.sign(Kind.ASYNC, from, new AsyncMessage(pid, type, payload).encode(), harness.keys.signer(from));
    harness.post(new Msg(from, to, Signed.wire(s, harness.keys.authenticators(from, n).authenticator(s.digest()))));
  }

  /** What a message is, for cuts: "hyb/0 PROPOSE" (epoch 0's, whichever slot), a pid or the envelope's kind. */
  static String what(byte[] bytes) {
    try {
      Signed s = Signed.decode(bytes);
      if (s.kind() != Kind.ASYNC) {
        return s.kind().toString();
      }
      AsyncMessage m = AsyncMessage.decode(s.body());
      List<String> seg = m.pid().segments();
      if (seg.get(0).equals("hyb") && (seg.size() == 2 || seg.size() == 3 && seg.get(2).matches("[0-9]+"))) {
        return "hyb/" + seg.get(1) + " " + Epoch.Type.values()[m.type() - 1]; // an epoch's SWITCH or a slot's
      }
      return m.pid().toString();
    } catch (DecodeException e) {
      return "?";
    }
  }

  /** One tick: every replica's, then the slow replicas' messages that are due leave. */
  void tick() {
    now++;
    harness.tick();
  }

  /** Delivers messages until none is in flight. */
  void run() {
    harness.run();
  }

  /** Runs, ticking between quiescent points, until {@code done} or {@code maxTicks} ticks passed. */
  boolean runUntil(BooleanSupplier done, int maxTicks) {
    for (int t = 0; t <= maxTicks; t++) {
      run();
      if (done.getAsBoolean()) {
        return true;
      }
      tick();
    }
    return false;
  }

  /** {@link #runUntil}, failing with the group's state (after the run) if {@code done} never held. */
  void await(BooleanSupplier done, int maxTicks) {
    if (!runUntil(done, maxTicks)) {
      throw new AssertionError("not done after " + maxTicks + " ticks: " + describe());
    }
  }

  long now() {
    return now;
  }

  /** The correct replicas that executed q. */
  int executedAt(Request q) {
    int count = 0;
    for (int i = 0; i < n; i++) {
      if (correct(i) && executed.get(i).stream().anyMatch(r -> r.id().equals(q.id()))) {
        count++;
      }
    }
    return count;
  }

  /**
   * Every correct replica executed q, or installed by state transfer a checkpoint at or above the seq where
   * another executed it (a replica may catch up without executing each request).
   */
  boolean executedEverywhere(Request q) {
    String id = q.id().toString();
    long at = Long.MAX_VALUE;
    for (int j = 0; j < n; j++) {
      for (var e : executedAt.get(j).entrySet()) {
        if (correct(j) && e.getValue().contains(id)) {
          at = Math.min(at, e.getKey());
        }
      }
    }
    for (int i = 0; i < n; i++) {
      if (correct(i) && executed.get(i).stream().noneMatch(r -> r.id().equals(q.id())) && installed[i] < at) {
        return false;
      }
    }
    return true;
  }

  private void observe(int i, Ready r) {
    r.persist.forEach(rec -> journals.append(i, rec));
    for (Event e : r.events) {
      if (e instanceof Event.Evidence ev) {
        evidence.get(i).add(ev);
      } else if (e instanceof Event.StateInstalled si) {
        installed[i] = Math.max(installed[i], si.seq());
      } else if (e instanceof Event.CheckpointTaken ct) {
        checkpoints.get(i).put(ct.seq(), HexFormat.of().formatHex(ct.digest()));
      } else if (e instanceof Event.CheckpointStable cs) {
        stable.get(i).add(cs.seq());
      } else if (e instanceof Event.Committed c) {
        String before = committed.get(i).put(c.seq(), c.view() + ":" + HexFormat.of().formatHex(c.digest()));
        if (before != null) {
          throw new AssertionError("replica " + i + " delivered seq " + c.seq() + " twice, seed " + seed);
        }
      }
    }
  }

  /** To every replica or one node, as sent; an equivocator's proposals twinned; a slow replica's kept for later. */
  private void route(int i, Ready.Outbound o, Consumer<Msg> post) {
    if (journaled) {
      onWire(i, o.bytes());
    }
    int delay = delays.getOrDefault(i, 0);
    EngineHarness.Router.replicas(n).route(i, o, m -> {
      Msg out = equivocators.contains(i) && m.to() % 2 == 1 ? new Msg(i, m.to(), twin(i, m.bytes())) : m;
      if (delay > 0) {
        later.add(new Later(now + delay, out));
      } else {
        post.accept(out);
      }
    });
  }

  /** The slow replicas' messages that are due, onto the network in the order they were sent. */
  private void release() {
    for (var it = later.iterator(); it.hasNext(); ) {
      Later l = it.next();
      if (l.due() <= now) {
        harness.post(l.msg());
        it.remove();
      }
    }
  }

  /** Replica i's {@link HashChainApp}, recording what it executes. */
  private EffectPerformer.Service service(int i) {
    return EffectPerformer.of(apps[i], ex -> record(i, ex));
  }

  /** A message to a replica that runs, lost to the {@link #cut} (to others a message is lost anyway). */
  private boolean cutOff(Msg m) {
    return m.to() < n && harness.engine(m.to()) != null && cut.test(m.from(), m.to(), what(m.bytes()));
  }

  private void record(int i, Effect.Execute ex) {
    executed.get(i).addAll(ex.requests());
    executedAt.get(i).put(ex.seq(), ex.requests().stream().map(r -> r.id().toString()).toList());
    for (int k = 0; k < ex.requests().size(); k++) {
      randoms.get(i).put(ex.requests().get(k).id().toString(), HexFormat.of().formatHex(ex.randoms().get(k)));
    }
  }

  /** For an equivocator's PROPOSE: another batch for the same seq on the same chain; other messages as sent. */
  private byte[] twin(int i, byte[] bytes) {
    if (!what(bytes).endsWith("PROPOSE")) {
      return bytes;
    }
    AsyncMessage m = AsyncMessage.decode(Signed.decode(bytes).body());
    LaneBatch b = LaneProposal.decode(m.payload(), 4096).batch();
    List<byte[]> other = new ArrayList<>(b.payloads());
    Collections.reverse(other);
    if (other.size() < 2) {
      other.clear();
    }
    byte[] twin = proposal(i, Long.parseLong(m.pid().segments().get(1)), new LaneBatch(b.seq(), b.prev(), other));
    byte[] body = new AsyncMessage(m.pid(), m.type(), twin).encode();
    Signed s = Signed.sign(Kind.ASYNC, i, body, harness.keys.signer(i));
    return macs ? Signed.wire(s, harness.keys.authenticators(i, n).authenticator(s.digest())) : s.encode();
  }

  /**
   * Agreement: at every seq, the correct replicas that delivered a batch there delivered the same one (epoch
   * and digest), and those that executed it executed the same requests (by seq: a state transfer skips
   * executions, so whole histories are not comparable).
   */
  /**
   * Heals every cut, sends {@code count} requests from the two clients in turn and waits until every replica
   * executed them, then checks agreement: how the tests end a partition.
   */
  void healAndOrder(int count, int maxTicks) {
    cut((from, to, what) -> false);
    List<Request> later = new ArrayList<>();
    for (int k = 0; k < count; k++) {
      later.add(request(k % 2));
    }
    await(() -> later.stream().allMatch(this::executedEverywhere), maxTicks);
    assertAgreement();
  }

  void assertAgreement() {
    for (int i = 0; i < n; i++) {
      for (int j = i + 1; j < n; j++) {
        if (!correct(i) || !correct(j)) {
          continue;
        }
        for (var e : committed.get(i).entrySet()) {
          String other = committed.get(j).get(e.getKey());
          if (other != null && !other.equals(e.getValue())) {
            throw new AssertionError("replicas " + i + " and " + j + " delivered different batches at seq "
                + e.getKey() + ", seed " + seed);
          }
        }
        for (var e : checkpoints.get(i).entrySet()) {
          String other = checkpoints.get(j).get(e.getKey());
          if (other != null && !other.equals(e.getValue())) {
            throw new AssertionError("replicas " + i + " and " + j + " took different checkpoints at seq "
                + e.getKey() + ", seed " + seed);
          }
        }
        for (var e : executedAt.get(i).entrySet()) {
          List<String> other = executedAt.get(j).get(e.getKey());
          if (other != null && !other.equals(e.getValue())) {
            throw new AssertionError("replicas " + i + " and " + j + " executed " + e.getValue() + " and " + other
                + " at seq " + e.getKey() + ", seed " + seed);
          }
        }
      }
    }
  }

  long installed(int i) {
    return installed[i];
  }

  String describe() {
    StringBuilder b = new StringBuilder("seed " + seed + " tick " + now);
    for (int i = 0; i < n; i++) {
      Engine e = harness.engine(i);
      b.append("\n  ").append(i).append(": ").append(e == null ? "absent" : e.describe());
    }
    return b.toString();
  }

  static Scheduler<Msg> fifo() {
    return Scheduler.fifo();
  }

  static Scheduler<Msg> seeded(long seed) {
    return Scheduler.seeded(new Random(seed));
  }
}
