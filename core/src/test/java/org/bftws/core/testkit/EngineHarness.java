package org.bftws.core.testkit;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.IntConsumer;
import java.util.function.IntFunction;
import java.util.function.Predicate;
import org.bftws.core.config.GroupConfig;
import org.bftws.core.engine.Effect;
import org.bftws.core.engine.Engine;
import org.bftws.core.engine.Ready;

/**
 * The one engine-level harness (docs/design/testing.md, "Engine-level harnesses"): a group of engines, each
 * built by a {@link Factory} from its id, the group's configuration and keys, in one thread; their messages go
 * through a {@link Scheduler} (FIFO, or a seeded adversary), their effects through the {@link EffectPerformer}
 * against each node's {@link EffectPerformer.Service}. What the test harnesses built on it differ in are hooks:
 * who a message goes to ({@link Router}), what is lost ({@link #down}, {@link #drop}) or set aside ({@link
 * #hold}), what is recorded of each step ({@link Observer}), effects performed later ({@link Deferral}), work
 * interleaved with deliveries ({@link Interleave}), what arrives at a node without an engine (a client, a
 * silent Byzantine node) and how each call into an engine is made ({@link EffectPerformer.Calls}).
 */
public final class EngineHarness {
  /** A message in flight. */
  public record Msg(int from, int to, byte[] bytes) {}

  /** Builds node {@code id}'s engine; null for a node without one (a silent Byzantine node). */
  @FunctionalInterface
  public interface Factory {
    Engine build(int id, GroupConfig cfg, TestKeys keys);
  }

  /** Puts what node {@code from} sends onto the network ({@code post}), or loses it. */
  @FunctionalInterface
  public interface Router {
    void route(int from, Ready.Outbound m, Consumer<Msg> post);

    /** {@link Ready#ALL_REPLICAS} to every replica 0..n−1 but the sender, anything else to its node. */
    static Router replicas(int n) {
      return (from, m, post) -> {
        if (m.to() != Ready.ALL_REPLICAS) {
          post.accept(new Msg(from, m.to(), m.bytes()));
          return;
        }
        for (int to = 0; to < n; to++) {
          if (to != from) {
            post.accept(new Msg(from, to, m.bytes()));
          }
        }
      };
    }
  }

  /** Sees each step's output of node {@code node} before its messages leave (journal, events). */
  @FunctionalInterface
  public interface Observer {
    void ready(int node, Ready r);
  }

  /** The effects of a step performed now; the rest the harness's owner keeps and performs later. */
  @FunctionalInterface
  public interface Deferral {
    List<Effect> now(int node, List<Effect> effects);
  }

  /** Work done instead of the next delivery (e.g. a slow state capture); true if it did some. */
  @FunctionalInterface
  public interface Interleave {
    boolean step(boolean networkEmpty);
  }

  public final GroupConfig cfg;
  /** Replicas 0..n−1 ({@code cfg.n()}); other engines and clients have higher ids. */
  public final int n;
  public final TestKeys keys;
  public final Scheduler<Msg> net;
  /** Nodes whose messages, sent or received, are lost. */
  public final Set<Integer> down = new HashSet<>();
  /** Messages set aside by {@link #hold}, in order. */
  public final List<Msg> held = new ArrayList<>();
  /** Every message delivered, in order (when {@link #recordSent}). */
  public final List<Msg> sent = new ArrayList<>();
  private final Factory factory;
  private final TreeMap<Integer, Engine> engines = new TreeMap<>();
  private Predicate<Msg> drop = m -> false;
  private Predicate<Msg> hold = m -> false;
  private boolean recording;
  private Router router;
  private Observer observer = (i, r) -> { };
  private Deferral deferral = (i, effects) -> effects;
  private IntFunction<EffectPerformer.Service> services;
  private IntFunction<EffectPerformer.Calls> calls = i -> EffectPerformer.Calls.DIRECT;
  private BiConsumer<Integer, byte[]> receiver = (to, bytes) -> { };
  private IntConsumer received = i -> { };
  private Interleave interleave = empty -> false;
  private Runnable ticked = () -> { };
  private long maxSteps = 1_000_000;
  private String storm = "message storm: the network never became quiet";
  private long taken;

  public EngineHarness(GroupConfig cfg, TestKeys keys, Factory factory, Scheduler<Msg> net) {
    this.cfg = cfg;
    this.n = cfg.n();
    this.keys = keys;
    this.factory = factory;
    this.net = net;
    this.router = Router.replicas(n);
  }

  /** Each node's service, asked for at every step (a restarted node's may be a new one). */
  public EngineHarness services(IntFunction<EffectPerformer.Service> s) {
    this.services = s;
    return this;
  }

  public EngineHarness router(Router r) {
    this.router = r;
    return this;
  }

  public EngineHarness observer(Observer o) {
    this.observer = o;
    return this;
  }

  public EngineHarness deferral(Deferral d) {
    this.deferral = d;
    return this;
  }

  /** How each call into node i's engine is made ({@code receive} and the answers to its effects). */
  public EngineHarness calls(IntFunction<EffectPerformer.Calls> c) {
    this.calls = c;
    return this;
  }

  /** What a message to a node without an engine does (a client's receive); default: lost. */
  public EngineHarness receiver(BiConsumer<Integer, byte[]> r) {
    this.receiver = r;
    return this;
  }

  /** Told of each delivery to an engine once its step is performed. */
  public EngineHarness received(IntConsumer r) {
    this.received = r;
    return this;
  }

  public EngineHarness interleave(Interleave i) {
    this.interleave = i;
    return this;
  }

  /** Run after the engines' ticks in each {@link #tick} (the clients' ticks). */
  public EngineHarness ticked(Runnable r) {
    this.ticked = r;
    return this;
  }

  /** Messages that are lost (besides those from and to {@link #down} nodes). */
  public EngineHarness drop(Predicate<Msg> d) {
    this.drop = d;
    return this;
  }

  /** Messages set aside in {@link #held} instead of delivered. */
  public EngineHarness hold(Predicate<Msg> h) {
    this.hold = h;
    return this;
  }

  /** Keeps every delivered message in {@link #sent}. */
  public EngineHarness recordSent() {
    this.recording = true;
    return this;
  }

  /** Steps of one {@link #run} after which it fails with {@code message}: a network that never becomes quiet. */
  public EngineHarness maxSteps(long steps, String message) {
    this.maxSteps = steps;
    this.storm = message;
    return this;
  }

  /** (Re)builds node {@code id}'s engine by the factory (a restart with amnesia); returns it. */
  public Engine start(int id) {
    Engine e = factory.build(id, cfg, keys);
    if (e == null) {
      engines.remove(id);
    } else {
      engines.put(id, e);
    }
    return e;
  }

  /** Node {@code id}'s engine; null if it has none. */
  public Engine engine(int id) {
    return engines.get(id);
  }

  public void post(Msg m) {
    net.post(m);
  }

  /** Node {@code from}'s message onto the network, as the {@link Router} sends it. */
  public void route(int from, Ready.Outbound m) {
    router.route(from, m, net::post);
  }

  /** Node {@code i}'s step output: observed, its messages routed, its effects performed (or deferred). */
  public void handle(int i, Ready r) {
    observer.ready(i, r);
    for (Ready.Outbound m : r.messages) {
      route(i, m);
    }
    perform(i, deferral.now(i, r.effects));
  }

  /** Performs {@code effects} of node i's engine; each answer is handled in turn. */
  public void perform(int i, List<Effect> effects) {
    if (!effects.isEmpty()) {
      EffectPerformer.perform(engines.get(i), effects, services.apply(i), calls.apply(i), next -> handle(i, next));
    }
  }

  /** Hands {@code bytes} to node {@code to} now, past the network. */
  public void deliver(int to, byte[] bytes) {
    Engine e = engines.get(to);
    if (e == null) {
      receiver.accept(to, bytes);
      return;
    }
    handle(to, calls.apply(to).call(() -> e.receive(bytes)));
    received.accept(to);
  }

  /** One step: interleaved work, or the next message in flight delivered, lost or held; false when quiet. */
  public boolean step() {
    if (interleave.step(net.size() == 0)) {
      return true;
    }
    Msg m = net.next();
    if (m == null) {
      return false;
    }
    taken++;
    if (down.contains(m.from()) || down.contains(m.to()) || drop.test(m)) {
      return true;
    }
    if (hold.test(m)) {
      held.add(m);
      return true;
    }
    if (recording) {
      sent.add(m);
    }
    deliver(m.to(), m.bytes());
    return true;
  }

  /** Steps until the network is quiet. */
  public void run() {
    long steps = 0;
    while (step()) {
      if (++steps > maxSteps) {
        throw new AssertionError(storm);
      }
    }
  }

  /** One tick at every engine not {@link #down}, in id order, then {@link #ticked}. */
  public void tick() {
    for (int id : new ArrayList<>(engines.keySet())) {
      Engine e = engines.get(id);
      if (e != null && !down.contains(id)) {
        handle(id, e.tick());
      }
    }
    ticked.run();
  }

  /** Messages taken from the network so far (delivered, lost or held). */
  public long taken() {
    return taken;
  }
}
