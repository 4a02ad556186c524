package org.bftws.core.pbft;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.bftws.core.config.GroupConfig;
import org.bftws.core.crypto.Signer;
import org.bftws.core.crypto.Verifier;
import org.bftws.core.engine.Effect;
import org.bftws.core.engine.Engine;
import org.bftws.core.engine.Event;
import org.bftws.core.engine.Ready;
import org.bftws.core.message.Kind;
import org.bftws.core.message.Request;
import org.bftws.core.message.Signed;
import org.bftws.core.testkit.EffectPerformer;
import org.bftws.core.testkit.EngineHarness;
import org.bftws.core.testkit.EngineHarness.Msg;
import org.bftws.core.testkit.HashChainApp;
import org.bftws.core.testkit.Scheduler;
import org.bftws.core.testkit.TestKeys;
import org.bftws.core.voter.ClientCore;

/**
 * Configuration III in memory (BFT-WS §3.3.3): 3f+1 agreement {@link Replica}s (ids 0..n−1), 2f+1 {@link
 * ExecutionNode}s (ids n..n+2f, each with a {@link HashChainApp}) and one {@link ClientCore}, on a FIFO network
 * with explicit ticks, in the manner of {@link Cluster}. A client's requests go to the agreement replicas and
 * the execution nodes (these answer a retransmitted request from their reply cache).
 */
final class SeparatedGroup {
  final GroupConfig cfg;
  final int n;
  final List<Integer> executionIds;
  final int clientId;
  final Replica[] agreement;
  final Map<Integer, ExecutionNode> execution = new HashMap<>();
  final Map<Integer, HashChainApp> apps = new HashMap<>();
  /** What each node (agreement replica or execution node) was asked to execute. */
  final Map<Integer, List<Effect.Execute>> executed = new HashMap<>();
  final Map<Integer, List<Event>> events = new HashMap<>();
  final Map<Integer, Signer> signers;
  final Verifier verifier;
  final ClientCore client;
  final List<Event.Delivered> delivered = new ArrayList<>();
  /** The group on the test kit's harness: FIFO network, explicit ticks. */
  final EngineHarness harness;
  /** Every message delivered, in order. */
  final List<Msg> sent;
  final Set<Integer> down;
  /** Execution nodes whose service returns wrong results (Byzantine). */
  final Set<Integer> lying = new HashSet<>();
  Predicate<Msg> drop = m -> false;

  SeparatedGroup(int f) {
    int nAgreement = 3 * f + 1;
    executionIds = new ArrayList<>();
    for (int k = 0; k < 2 * f + 1; k++) {
      executionIds.add(nAgreement + k);
    }
    cfg = GroupConfig.builder().set(GroupConfig.F, f).set(GroupConfig.CHECKPOINT_INTERVAL, 4)
        .set(GroupConfig.LOG_WINDOW, 8).executionNodes(executionIds).build();
    n = cfg.n();
    clientId = n + executionIds.size();
    TestKeys keys = TestKeys.seeded(clientId + 1, 42);
    signers = keys.signers();
    verifier = keys.verifier();
    agreement = new Replica[n];
    harness = new EngineHarness(cfg, keys, this::newEngine, Scheduler.fifo()).services(this::service)
        .router(this::route).observer((node, r) -> events.get(node).addAll(r.events))
        .receiver(this::toClient).ticked(this::tickClient)
        .drop(m -> drop.test(m)).recordSent();
    sent = harness.sent;
    down = harness.down;
    for (int i = 0; i < n; i++) {
      agreement[i] = (Replica) harness.start(i);
      executed.put(i, new ArrayList<>());
      events.put(i, new ArrayList<>());
    }
    for (int e : executionIds) {
      events.put(e, new ArrayList<>());
      restartExecution(e);
    }
    client = new ClientCore(cfg, clientId, "urn:uuid:separated-client", signers.get(clientId), verifier);
  }

  /** Replaces execution node {@code e} by a fresh one with an empty service (amnesia). */
  void restartExecution(int e) {
    execution.put(e, (ExecutionNode) harness.start(e));
    apps.put(e, new HashChainApp());
    executed.put(e, new ArrayList<>());
  }

  void invoke(String op) {
    handleClient(client.invoke(op.getBytes(StandardCharsets.UTF_8), false));
    deliverAll();
  }

  /** Invokes {@code count} operations one after the other, each until delivered (ticking as needed). */
  void invokeAll(int count, String prefix) {
    for (int k = 0; k < count; k++) {
      int before = delivered.size();
      invoke(prefix + k);
      tickUntil(() -> delivered.size() > before, 5_000);
    }
  }

  void tick(int times) {
    for (int t = 0; t < times; t++) {
      harness.tick();
      deliverAll();
    }
  }

  void tickUntil(BooleanSupplier done, int maxTicks) {
    for (int t = 0; t < maxTicks && !done.getAsBoolean(); t++) {
      tick(1);
    }
  }

  /** Agreement replicas 0..n−1, execution nodes above them. */
  private Engine newEngine(int node, GroupConfig config, TestKeys keys) {
    return node < n ? Replica.builder(config, node, keys.signer(node), keys.verifier()).build()
        : new ExecutionNode(config, node, keys.signer(node), keys.verifier());
  }

  /** Node's service: its {@link HashChainApp}, with its executions recorded; a {@link #lying} one's results falsified. */
  private EffectPerformer.Service service(int node) {
    return new EffectPerformer.Service() {
      @Override
      public List<byte[]> execute(Effect.Execute ex) {
        executed.get(node).add(ex);
        List<byte[]> results = apps.get(node).execute(ex);
        for (byte[] result : lying.contains(node) ? results : List.<byte[]>of()) {
          result[0] ^= 1;
        }
        return results;
      }

      @Override
      public byte[] state() {
        return apps.get(node).getState();
      }

      @Override
      public void install(byte[] state) {
        apps.get(node).setState(state);
      }
    };
  }

  private void toClient(int to, byte[] bytes) {
    handleClient(client.receive(bytes));
  }

  private void tickClient() {
    handleClient(client.tick());
  }

  private void handleClient(Ready r) {
    for (Ready.Outbound m : r.messages) {
      harness.route(clientId, m);
    }
    for (Event e : r.events) {
      if (e instanceof Event.Delivered d) {
        delivered.add(d);
      }
    }
  }

  /** ALL_REPLICAS: every other agreement replica, and from the client the execution nodes too. */
  private void route(int from, Ready.Outbound m, Consumer<Msg> post) {
    EngineHarness.Router.replicas(n).route(from, m, post);
    if (m.to() == Ready.ALL_REPLICAS && from == clientId) {
      for (int e : executionIds) {
        post.accept(new Msg(from, e, m.bytes()));
      }
    }
  }

  /** Hands {@code bytes} to node {@code to} now, as if from the network. */
  void deliver(int to, byte[] bytes) {
    harness.deliver(to, bytes);
  }

  void deliverAll() {
    harness.run();
  }

  /** The kind of a protocol message; null for a reply bundle. */
  static Kind kind(Msg m) {
    try {
      return Signed.decode(m.bytes()).kind();
    } catch (org.bftws.core.codec.DecodeException e) {
      return null;
    }
  }

  /** The operations node {@code node} executed, in order. */
  List<String> operations(int node) {
    return Cluster.operations(executed.get(node));
  }

  boolean evidenceAt(int node, String fragment) {
    return events.get(node).stream().anyMatch(e -> e instanceof Event.Evidence ev && ev.what().contains(fragment));
  }

  <T extends Event> List<T> eventsAt(int node, Class<T> type) {
    List<T> out = new ArrayList<>();
    for (Event e : events.get(node)) {
      if (type.isInstance(e)) {
        out.add(type.cast(e));
      }
    }
    return out;
  }
}
