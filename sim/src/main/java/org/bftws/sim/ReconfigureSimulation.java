package org.bftws.sim;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.bftws.core.config.GroupConfig;
import org.bftws.core.crypto.Ed25519;
import org.bftws.core.crypto.Verifier;
import org.bftws.core.engine.Effect;
import org.bftws.core.engine.Engine;
import org.bftws.core.engine.Ready;
import org.bftws.core.message.Kind;
import org.bftws.core.message.ReplyBundle;
import org.bftws.core.message.Request;
import org.bftws.core.message.Signed;
import org.bftws.core.pbft.EpochReplica;
import org.bftws.core.pbft.Replica;
import org.bftws.core.reconfig.Administrators;
import org.bftws.core.reconfig.EpochSigning;
import org.bftws.core.reconfig.Membership;
import org.bftws.core.reconfig.Reconfigure;
import org.bftws.core.testkit.EffectPerformer;
import org.bftws.core.testkit.HashChainApp;
import org.bftws.core.testkit.TestKeys;

/**
 * {@code scripts/simulate --reconfigure} (docs/simulator.md): a PBFT group in configuration I whose membership
 * changes while clients call it ({@code pbft.EpochReplica}, docs/design/reconfiguration.md), on virtual time, one
 * seed driving everything. The network has the usual drawn fault mix ({@link Faults}, {@link Network}) until the
 * heal; one member of the first epoch is, in three seeds of four, Byzantine: it corrupts some of its messages,
 * submits bogus reconfigurations (unsigned, signed by a key that is no administrator's, malformed, replayed from an
 * earlier epoch) through a client identity of its own, and once removed replays everything it sent. The
 * administrator submits the seed's plan of adds, removes and replaces (in some seeds 4 → 5 → 6 → 7 and back to 4)
 * at drawn times, each once the previous one took effect. Clients follow the membership: the simulator hands them
 * the newest epoch a correct replica began, and they send to and vote over its members (f + 1 matching replies).
 * {@link EpochChecker} judges the run; after the heal every call, and the plan, must complete and every correct
 * member of the last epoch must be in it.
 *
 * <p>The negative control ({@link Control#IGNORES_BOUNDARY}) makes one correct replica a PBFT replica of the first
 * epoch that knows nothing of epochs: it must be caught.
 */
public final class ReconfigureSimulation {
  /** What one run is. {@code linkBytesPerTick}: 0, or a bandwidth that delays each message by its size. */
  public record Options(long seed, int clients, int requests, Control control, boolean steady, int stateBytes,
      int linkBytesPerTick, String plan) {
    public static Options of(long seed) {
      return new Options(seed, 3, 30, Control.NONE, false, 0, 0, null);
    }

    public Options withControl(Control c) {
      return new Options(seed, clients, requests, c, steady, stateBytes, linkBytesPerTick, plan);
    }

    public String replay() {
      return "scripts/simulate --reconfigure --seeds " + seed + " --clients " + clients + " --requests " + requests
          + (control == Control.NONE ? "" : " --reconfigure-control");
    }
  }

  /** The negative control. */
  public enum Control { NONE, IGNORES_BOUNDARY }

  /** What a run found, with the figures a benchmark reads. */
  public record Result(Options options, String faults, List<String> violations, int epochs, long delivered,
      long stateTransfers, long endTime, List<long[]> calls, List<long[]> changes) {
    public boolean ok() {
      return violations.isEmpty();
    }

    public String describe() {
      return "seed=" + options.seed() + " reconfigure faults={" + faults + "} epochs=" + epochs + " delivered="
          + delivered + " stateTransfers=" + stateTransfers + " time=" + endTime
          + (ok() ? "" : " violations=" + violations.size() + " first: " + violations.get(0));
    }
  }

  static final int ADMIN = 90;
  static final int BOGUS = 91;
  static final int CLIENT_BASE = 100;
  /** Stable ids the run may hand out (the first epoch's 0..3 and the additions). */
  static final int MAX_IDS = 24;
  static final long LIVENESS_BOUND = 40_000;
  /** On a steady network (a benchmark), when the administrator submits the first change, clients calling since 0. */
  static final long STEADY_CHANGE_AT = 1_000;
  static final byte[] GROUP = "urn:bftws:sim-reconfigure".getBytes(StandardCharsets.US_ASCII);

  private final Options o;
  private final Random rng;
  private final GroupConfig base = GroupConfig.builder().set(GroupConfig.CHECKPOINT_INTERVAL, 8)
      .set(GroupConfig.LOG_WINDOW, 16).set(GroupConfig.MAX_BATCH_SIZE, 16).build();
  private final TestKeys keys;
  private final TestKeys adminKey;
  private final Administrators admins;
  private final Verifier clientVerifier;
  private final Faults faults;
  private final Network net;
  final EpochChecker checker = new EpochChecker();
  private final Map<Integer, Engine> engines = new TreeMap<>();
  private final Map<Integer, HashChainApp> apps = new HashMap<>();
  private final Map<Integer, Long> epochOf = new HashMap<>();
  private final int byzantine;
  private final int ignoring;
  private final List<byte[]> byzantineSent = new ArrayList<>();
  private boolean byzantineRemoved;
  private final Membership first;
  /** The administrators' plan: each step's reconfiguration and the membership it leads to. */
  private final List<Reconfigure> plan = new ArrayList<>();
  private final List<Membership> planned = new ArrayList<>();
  private int planStep;
  private long nextAdminAt;
  private final SimClient admin;
  private final List<SimClient> clients = new ArrayList<>();
  private final SimClient bogus;
  private long bogusNextAt;
  private int bogusSent;
  private final Set<Integer> toJoin = new HashSet<>();
  private long time;
  /** (issued, answered) of every client call, and (submitted, last correct member began) of each change. */
  private final List<long[]> calls = new ArrayList<>();
  private final List<long[]> changes = new ArrayList<>();
  private final Map<Long, Long> changeSubmitted = new HashMap<>();

  public ReconfigureSimulation(Options o) {
    this.o = o;
    this.rng = new Random(o.seed());
    this.keys = TestKeys.drawn(MAX_IDS, rng);
    this.adminKey = TestKeys.drawn(1, rng);
    this.admins = new Administrators(List.of(adminKey.publicKey(0).getEncoded()), 1);
    SimOptions shape = new SimOptions(o.seed(), 1, o.clients(), o.requests(), Byzantine.NONE);
    this.faults = o.steady() ? Faults.steady(4) : Faults.draw(rng, shape, 0);
    this.net = new Network(shape, rng, faults, null, false);
    List<String> endpoints = new ArrayList<>();
    List<byte[]> pub = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      endpoints.add(endpoint(i));
      pub.add(keys.publicKey(i).getEncoded());
    }
    first = Membership.initial(endpoints, pub);
    checker.expect(first);
    byzantine = !o.steady() && rng.nextInt(4) != 0 ? rng.nextInt(4) : -1;
    ignoring = o.control() == Control.IGNORES_BOUNDARY ? (byzantine + 1 + rng.nextInt(3)) % 4 : -1;
    drawPlan();
    TestKeys clientKeys = TestKeys.drawn(o.clients() + 2, rng);
    Map<Integer, org.bouncycastle.crypto.params.Ed25519PublicKeyParameters> clientPub = new HashMap<>();
    for (int k = 0; k < o.clients() + 2; k++) {
      clientPub.put(nodeOfClient(k), clientKeys.publicKey(k));
    }
    clientVerifier = Ed25519.verifier(clientPub);
    admin = new SimClient(this, ADMIN, clientKeys.signer(o.clients()), "admin");
    bogus = new SimClient(this, BOGUS, clientKeys.signer(o.clients() + 1), "bogus");
    for (int k = 0; k < o.clients(); k++) {
      clients.add(new SimClient(this, CLIENT_BASE + k, clientKeys.signer(k), "client-" + k));
    }
    for (int i = 0; i < 4; i++) {
      build(i, first, null);
    }
    nextAdminAt = o.steady() ? STEADY_CHANGE_AT : 50 + rng.nextInt((int) Math.max(1, faults.healAt));
    bogusNextAt = byzantine >= 0 ? 30 + rng.nextInt(500) : Long.MAX_VALUE;
  }

  private int nodeOfClient(int k) {
    return k < o.clients() ? CLIENT_BASE + k : k == o.clients() ? ADMIN : BOGUS;
  }

  static String endpoint(int id) {
    return "http://10.0.0." + (10 + id) + ":8080/axis2/services/Counter";
  }

  // ---------------------------------------------------------------- the administrators' plan

  /** A plan from the seed (or {@link Options#plan}: letters a, r, p for add, remove, replace). */
  private void drawPlan() {
    String steps = o.plan();
    if (steps == null) {
      if (rng.nextInt(3) == 0) {
        steps = "aaarrr"; // 4 → 7 and back
      } else {
        StringBuilder sb = new StringBuilder();
        int n = 4;
        for (int k = 2 + rng.nextInt(3); k > 0; k--) {
          char c = "arp".charAt(rng.nextInt(3));
          c = c == 'a' && n == 7 ? 'r' : c == 'r' && n == 4 ? 'a' : c;
          n += c == 'a' ? 1 : c == 'r' ? -1 : 0;
          sb.append(c);
        }
        steps = sb.toString();
      }
    }
    Membership m = first;
    for (char c : steps.toCharArray()) {
      Reconfigure r;
      if (c == 'a') {
        int id = m.nextId();
        r = Reconfigure.add(GROUP, m.epoch(), endpoint(id), keys.publicKey(id).getEncoded());
      } else {
        int target = m.member(rng.nextInt(m.n())).id();
        r = c == 'r' ? Reconfigure.remove(GROUP, m.epoch(), target)
            : Reconfigure.replace(GROUP, m.epoch(), target, endpoint(m.nextId()), keys.publicKey(m.nextId()).getEncoded());
      }
      r = r.signedBy(0, adminKey.signer(0));
      Membership next = r.apply(m, admins, GROUP);
      plan.add(r);
      planned.add(next);
      checker.expect(next);
      m = next;
    }
  }

  // ---------------------------------------------------------------- replicas

  private void build(int id, Membership m, EpochReplica from) {
    apps.put(id, new HashChainApp());
    if (id == ignoring) {
      engines.put(id, Replica.builder(first.config(base), first.indexOf(id), EpochSigning.signer(0, keys.signer(id)),
          EpochSigning.verifier(first, clientVerifier)).build());
      epochOf.put(id, 0L);
      return;
    }
    EpochReplica.Setup s = new EpochReplica.Setup(base, admins, GROUP, keys.signer(id), clientVerifier);
    EpochReplica r = new EpochReplica(s, m, id);
    engines.put(id, r);
    epochOf.put(id, m.epoch());
    if (from != null) {
      handle(id, r.join(from.start(), from.chain()));
    }
  }

  /** Builds the replicas the newest begun epoch adds, from where a correct member began it. */
  private void joinWaiting() {
    Membership newest = newestBegun();
    for (var it = toJoin.iterator(); it.hasNext(); ) {
      int id = it.next();
      if (newest.indexOf(id) < 0) {
        continue;
      }
      for (Map.Entry<Integer, Engine> e : engines.entrySet()) {
        if (e.getKey() != byzantine && e.getValue() instanceof EpochReplica r && r.membership().equals(newest)
            && r.start() != null && r.start().previous().epoch() + 1 == newest.epoch()) {
          build(id, newest, r);
          it.remove();
          break;
        }
      }
    }
  }

  /** The newest membership a correct replica began: what the clients are handed. */
  Membership newestBegun() {
    Membership newest = first;
    for (Map.Entry<Integer, Engine> e : engines.entrySet()) {
      if (e.getKey() != byzantine && e.getValue() instanceof EpochReplica r && r.stopped() == null
          && r.membership().epoch() > newest.epoch()) {
        newest = r.membership();
      }
    }
    return newest;
  }

  private boolean crashed(int id) {
    if (time >= faults.healAt) {
      return false;
    }
    for (Faults.Crash c : faults.crashes) {
      if (c.replica() == id && time >= c.at() && time < c.restartAt()) {
        return true;
      }
    }
    return false;
  }

  void handle(int id, Ready r) {
    for (Ready.Outbound out : r.messages) {
      send(id, out.to(), out.bytes());
      if (id == byzantine) {
        if (byzantineSent.size() < 5000) {
          byzantineSent.add(out.bytes());
        }
        if (rng.nextInt(5) == 0) {
          byte[] bad = out.bytes().clone();
          bad[rng.nextInt(bad.length)] ^= (byte) (1 + rng.nextInt(255));
          send(id, out.to(), bad);
        }
      }
    }
    Engine engine = engines.get(id);
    for (Effect e : r.effects) {
      if (e instanceof Effect.InstallState is && id != byzantine) {
        checker.installed(id, is.seq());
      }
    }
    EffectPerformer.perform(engine, r.effects, service(id), next -> handle(id, next));
    noteEpoch(id);
  }

  private EffectPerformer.Service service(int id) {
    HashChainApp app = apps.get(id);
    return new EffectPerformer.Service() {
      @Override
      public List<byte[]> execute(Effect.Execute ex) {
        if (id != byzantine) {
          checker.executed(id, ex);
        }
        return app.execute(ex);
      }

      @Override
      public byte[] state() {
        byte[] s = app.getState();
        return o.stateBytes() <= s.length ? s : Arrays.copyOf(s, o.stateBytes()); // padded: a service's bulk
      }

      @Override
      public void install(byte[] state) {
        app.setState(Arrays.copyOf(state, app.getState().length));
      }
    };
  }

  private void noteEpoch(int id) {
    if (!(engines.get(id) instanceof EpochReplica r) || r.stopped() != null) {
      if (id == byzantine && engines.get(id) instanceof EpochReplica r2 && r2.stopped() != null) {
        byzantineRemoved = true;
      }
      return;
    }
    long e = r.membership().epoch();
    if (r.start() != null && r.start().previous().epoch() + 1 != e && id != byzantine) {
      checker.violation("R3 epochs: replica " + id + " is in epoch " + e + " but began its epoch after "
          + r.start().previous() + " at " + time + ": " + r.describe());
    }
    if (e != epochOf.get(id) && r.start() != null) {
      epochOf.put(id, e);
      if (id != byzantine) {
        checker.began(id, r.membership(), r.start().seq());
      }
    }
  }

  private void send(int from, int to, byte[] bytes) {
    long delay = o.linkBytesPerTick() > 0 ? bytes.length / o.linkBytesPerTick() : 0;
    net.link(time, from, 0, to, bytes, delay);
  }

  /** A client's message to a replica (clients go through the network like everyone). */
  void clientSend(int from, int to, byte[] bytes) {
    send(from, to, bytes);
  }

  long now() {
    return time;
  }

  int clientRetransmit() {
    return base.get(GroupConfig.CLIENT_RETRANSMIT);
  }

  // ---------------------------------------------------------------- the run

  public Result run() {
    long deadline = Math.max(faults.healAt, 1) + LIVENESS_BOUND;
    for (SimClient c : clients) {
      c.startAt(rng.nextInt(100));
    }
    while (time < deadline && !done()) {
      step();
    }
    if (!done()) {
      checker.violation("L1 liveness: not done " + LIVENESS_BOUND + " ticks after the heal: plan step " + planStep + "/"
          + plan.size() + ", clients " + clients.stream().map(SimClient::progress).toList() + ", epochs " + epochOf
          + describeEngines());
    }
    checker.finish();
    return new Result(o, faults.describe() + " byzantine=" + byzantine + " plan=" + describePlan(), checker.violations(),
        checker.epochsBegun(), clients.stream().mapToLong(SimClient::delivered).sum(), checker.stateTransfers, time,
        calls, changes);
  }

  private String describeEngines() {
    StringBuilder sb = new StringBuilder();
    for (Map.Entry<Integer, Engine> e : engines.entrySet()) {
      sb.append("\n    ").append(e.getValue().describe());
    }
    return sb.toString();
  }

  private String describePlan() {
    StringBuilder sb = new StringBuilder();
    for (Reconfigure r : plan) {
      sb.append(switch (r.action()) {
        case ADD -> "add";
        case REMOVE -> "remove" + r.id();
        case REPLACE -> "replace" + r.id();
      }).append(' ');
    }
    return sb.toString().trim();
  }

  private boolean done() {
    if (planStep < plan.size() || clients.stream().anyMatch(c -> !c.finished()) || !admin.idle()) {
      return false;
    }
    Membership last = planned.isEmpty() ? first : planned.get(planned.size() - 1);
    for (var m : last.members()) {
      if (m.id() == byzantine) {
        continue;
      }
      Engine e = engines.get(m.id());
      if (!(e instanceof EpochReplica r) || r.membership().epoch() != last.epoch()) {
        return false;
      }
    }
    return true;
  }

  private void step() {
    if (time < faults.healAt) {
      net.drawPartitionsAndClogs(time);
    }
    Network.Delivery d;
    while ((d = net.due(time)) != null) {
      deliver(d);
    }
    joinWaiting();
    for (int id : new ArrayList<>(engines.keySet())) {
      if (!crashed(id)) {
        handle(id, engines.get(id).tick());
      }
    }
    admin();
    bogusReconfigurations();
    for (SimClient c : clients) {
      c.tick();
    }
    admin.tick();
    recordChanges();
    time++;
  }

  private void deliver(Network.Delivery d) {
    if (d.to() >= ADMIN) {
      SimClient c = d.to() == ADMIN ? admin : d.to() == BOGUS ? bogus : clients.get(d.to() - CLIENT_BASE);
      c.onReply(d.from(), d.bytes());
      return;
    }
    Engine e = engines.get(d.to());
    if (e != null && !crashed(d.to()) && !crashed(d.from())) {
      handle(d.to(), e.receive(d.bytes()));
    }
  }

  /** The administrator submits the plan's next step once the previous one took effect, after a drawn pause. */
  private void admin() {
    if (planStep >= plan.size() || !admin.idle() || time < nextAdminAt) {
      return;
    }
    Membership before = planStep == 0 ? first : planned.get(planStep - 1);
    if (newestBegun().epoch() < before.epoch()) {
      return;
    }
    Reconfigure r = plan.get(planStep);
    for (var m : planned.get(planStep).members()) {
      if (before.indexOf(m.id()) < 0) {
        toJoin.add(m.id());
      }
    }
    changeSubmitted.put(planned.get(planStep).epoch(), time);
    admin.call(r.encode(), reply -> {
      String verdict = new String(reply, StandardCharsets.UTF_8);
      if (!verdict.startsWith("accepted")) {
        checker.violation("R3 epochs: the administrators' reconfiguration " + r + " was refused: " + verdict);
      }
      planStep++;
      nextAdminAt = time + rng.nextInt(600);
    });
  }

  /** The Byzantine member's bogus reconfigurations, through a client identity of its own, and its replay. */
  private void bogusReconfigurations() {
    if (byzantine < 0) {
      return;
    }
    if (byzantineRemoved && rng.nextInt(200) == 0) {
      for (int k = 0; k < 40 && !byzantineSent.isEmpty(); k++) { // a removed replica that keeps talking
        byte[] old = byzantineSent.get(rng.nextInt(byzantineSent.size()));
        for (var m : newestBegun().members()) {
          send(byzantine, m.id(), old);
        }
      }
    }
    if (time < bogusNextAt || !bogus.idle() || bogusSent >= 8) {
      return;
    }
    bogusNextAt = time + 100 + rng.nextInt(800);
    Membership m = newestBegun();
    byte[] key = keys.publicKey(MAX_IDS - 1).getEncoded();
    byte[] op = switch (bogusSent++ % 4) {
      case 0 -> Reconfigure.add(GROUP, m.epoch(), endpoint(66), key).encode(); // unsigned
      case 1 -> Reconfigure.remove(GROUP, m.epoch(), m.member(0).id())
          .signedBy(0, keys.signer(byzantine)).encode(); // signed by a key that is no administrator's
      case 2 -> { // malformed: the magic, then bytes that do not decode
        byte[] bad = Arrays.copyOf(Reconfigure.MAGIC, Reconfigure.MAGIC.length + 7);
        bad[bad.length - 1] = 9;
        yield bad;
      }
      default -> planStep == 0 ? Reconfigure.MAGIC.clone() // replayed from an epoch that is over (malformed if none)
          : plan.get(rng.nextInt(planStep)).encode();
    };
    bogus.call(op, reply -> {
      String verdict = new String(reply, StandardCharsets.UTF_8);
      if (verdict.startsWith("accepted")) {
        checker.violation("R3 epochs: a bogus reconfiguration was accepted: " + verdict);
      }
    });
  }

  private void recordChanges() {
    for (Map.Entry<Long, Long> e : new ArrayList<>(changeSubmitted.entrySet())) {
      Membership m = planned.get((int) (e.getKey() - 1));
      boolean all = true;
      for (var member : m.members()) {
        Engine eng = engines.get(member.id());
        all &= member.id() == byzantine || eng instanceof EpochReplica r && r.membership().epoch() >= m.epoch()
            && (r.start() == null || r.lastExecuted() >= r.start().seq()); // a joiner holds the state it began at
      }
      if (all) {
        changes.add(new long[] {e.getValue(), time, m.n()});
        changeSubmitted.remove(e.getKey());
      }
    }
  }

  void answered(long issued, long answered) {
    calls.add(new long[] {issued, answered});
  }

  // ---------------------------------------------------------------- clients

  /** Per request of a closed-loop client: its next operation. */
  byte[] operation(String name, int k) {
    return (name + "-op-" + k).getBytes(StandardCharsets.UTF_8);
  }

  int requests() {
    return o.requests();
  }

  Random rng() {
    return rng;
  }

  /** Kind of a message (null if it does not decode): the simulator reads nothing else of replicas' traffic. */
  static Kind kind(byte[] bytes) {
    try {
      return Signed.decode(bytes).kind();
    } catch (RuntimeException e) {
      return null;
    }
  }

  static ReplyBundle reply(byte[] bytes) {
    try {
      return ReplyBundle.decode(bytes);
    } catch (RuntimeException e) {
      return null;
    }
  }

  static Request request(int client, String sequence, long number, byte[] op) {
    return new Request(client, sequence, number, false, op);
  }

  /**
   * Runs seeds from..to on {@code threads} threads and prints each failing seed (its faults, first violations
   * and replay command) and a summary line; the exit status: 0 iff no violation and no run threw, or for the
   * negative control iff every seed's violation was found.
   */
  static int sweep(long from, long to, Options template, int threads, boolean verbose) throws InterruptedException {
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(threads, r -> {
      Thread t = new Thread(r, "simulate-reconfigure");
      t.setDaemon(true);
      return t;
    });
    List<java.util.concurrent.Future<Result>> runs = new ArrayList<>();
    for (long seed = from; seed <= to; seed++) {
      Options opt = new Options(seed, template.clients(), template.requests(), template.control(), false, 0, 0, null);
      runs.add(pool.submit(() -> new ReconfigureSimulation(opt).run()));
    }
    long ok = 0;
    long failing = 0;
    long thrown = 0;
    long delivered = 0;
    long epochs = 0;
    for (int i = 0; i < runs.size(); i++) {
      Options opt = new Options(from + i, template.clients(), template.requests(), template.control(), false, 0, 0,
          null);
      try {
        Result r = runs.get(i).get();
        delivered += r.delivered();
        epochs += r.epochs();
        if (r.ok()) {
          ok++;
          if (verbose) {
            System.out.println("ok   " + r.describe());
          }
        } else {
          failing++;
          if (template.control() == Control.NONE || verbose) {
            System.out.println("FAIL " + r.describe());
            r.violations().stream().limit(verbose ? Long.MAX_VALUE : 5).forEach(v -> System.out.println("  violation: " + v));
            System.out.println("  replay: " + opt.replay());
          }
        }
      } catch (java.util.concurrent.ExecutionException e) {
        thrown++;
        System.out.println("FAIL seed=" + opt.seed() + " threw " + e.getCause() + "\n  replay: " + opt.replay());
        e.getCause().printStackTrace(System.out);
      }
    }
    pool.shutdown();
    System.out.printf("simulate --reconfigure%s: seeds=%d runs_ok=%d runs_failing=%d runs_thrown=%d epochs_begun=%d"
        + " requests_delivered=%d%n", template.control() == Control.NONE ? "" : " (negative control)", to - from + 1,
        ok, failing, thrown, epochs, delivered);
    if (thrown > 0) {
      return 1;
    }
    return template.control() == Control.NONE ? (failing == 0 ? 0 : 1) : (ok == 0 ? 0 : 1);
  }
}
