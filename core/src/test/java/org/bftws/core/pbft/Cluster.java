package org.bftws.core.pbft;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.bftws.core.codec.ByteWriter;
import org.bftws.core.config.GroupConfig;
import org.bftws.core.crypto.Digests;
import org.bftws.core.crypto.Ed25519;
import org.bftws.core.crypto.Signer;
import org.bftws.core.crypto.Verifier;
import org.bftws.core.message.Request;
import org.bftws.core.message.SequenceOwner;
import org.bftws.core.voter.ClientCore;
import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;
import org.bouncycastle.crypto.params.Ed25519PublicKeyParameters;

/**
 * A small in-memory group for unit tests, in the manner of etcd raft's test network: FIFO delivery,
 * with {@link #isolate}, {@link #drop} filters and explicit ticks; no randomness, no threads.
 */
final class Cluster {
  record Msg(int from, int to, byte[] bytes) {}

  /** The replicated service: a hash chain plus the list of executed operations. */
  static final class App {
    byte[] state = new byte[32];
    final List<String> executed = new ArrayList<>();

    byte[] execute(Request q) {
      executed.add(new String(q.operation(), StandardCharsets.UTF_8));
      state = Digests.sha256(new ByteWriter().raw(state).bytes(q.operation()).toBytes());
      return q.operation();
    }
  }

  final GroupConfig cfg;
  final int n;
  final Replica[] replicas;
  final App[] apps;
  final List<List<Event>> events = new ArrayList<>();
  final Map<Integer, Signer> signers = new HashMap<>();
  final Map<Integer, Ed25519PrivateKeyParameters> keys = new HashMap<>();
  final Verifier verifier;
  final ArrayDeque<Msg> net = new ArrayDeque<>();
  final Set<Integer> down = new HashSet<>();
  final Map<Integer, ClientCore> clients = new HashMap<>();
  final List<Event.Delivered> delivered = new ArrayList<>();
  Predicate<Msg> drop = m -> false;
  final List<Msg> sent = new ArrayList<>();

  Cluster(GroupConfig cfg, int clientCount) {
    this(cfg, clientCount, Role.BOTH);
  }

  final Role role;

  Cluster(GroupConfig cfg, int clientCount, Role role) {
    this.cfg = cfg;
    this.role = role;
    this.n = cfg.n();
    Map<Integer, Ed25519PublicKeyParameters> pub = new HashMap<>();
    for (int node = 0; node < n + clientCount; node++) {
      byte[] seed = new byte[32];
      seed[0] = (byte) node;
      seed[1] = 42;
      Ed25519PrivateKeyParameters k = new Ed25519PrivateKeyParameters(seed, 0);
      keys.put(node, k);
      pub.put(node, k.generatePublicKey());
      signers.put(node, Ed25519.signer(k));
    }
    verifier = Ed25519.verifier(pub);
    replicas = new Replica[n];
    apps = new App[n];
    for (int i = 0; i < n; i++) {
      restart(i);
      events.add(new ArrayList<>());
    }
    for (int c = 0; c < clientCount; c++) {
      clients.put(n + c, new ClientCore(cfg, n + c, "urn:uuid:client-" + c, signers.get(n + c), verifier));
    }
  }

  Cluster(int f) {
    this(GroupConfig.builder().set(GroupConfig.F, f).set(GroupConfig.CHECKPOINT_INTERVAL, 4)
        .set(GroupConfig.LOG_WINDOW, 8).build(), 1);
  }

  /** Replace replica i by a fresh one with the same keys and an empty service (amnesia). */
  void restart(int i) {
    replicas[i] = new Replica(cfg, i, signers.get(i), verifier, role);
    apps[i] = new App();
  }

  ClientCore client() {
    return clients.get(n);
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

  void handle(int i, Ready r) {
    for (Ready.Outbound m : r.messages) {
      route(i, m);
    }
    events.get(i).addAll(r.events);
    for (Effect e : r.effects) {
      if (e instanceof Effect.Execute ex) {
        List<byte[]> results = new ArrayList<>();
        for (Request q : ex.requests()) {
          results.add(apps[i].execute(q));
        }
        if (role != Role.AGREEMENT) { // agreement replicas only hand batches on (configuration III)
          handle(i, replicas[i].executed(ex.seq(), results));
        }
      } else if (e instanceof Effect.CaptureState cs) {
        handle(i, replicas[i].stateCaptured(cs.seq(), apps[i].state.clone()));
      } else if (e instanceof Effect.InstallState is) {
        apps[i].state = is.appState().clone();
      }
    }
  }

  void handleClient(ClientCore c, Ready r) {
    for (Ready.Outbound m : r.messages) {
      route(c.id(), m);
    }
    for (Event e : r.events) {
      if (e instanceof Event.Delivered d) {
        delivered.add(d);
      }
    }
  }

  private void route(int from, Ready.Outbound m) {
    if (m.to() == Ready.ALL_REPLICAS) {
      for (int to = 0; to < n; to++) {
        if (to != from) {
          net.add(new Msg(from, to, m.bytes()));
        }
      }
    } else {
      net.add(new Msg(from, m.to(), m.bytes()));
    }
  }

  /** The kind of a protocol message; null for what goes to clients (reply bundles, not envelopes). */
  static org.bftws.core.message.Kind kind(Msg m) {
    return kindOrNull(m.bytes());
  }

  private static org.bftws.core.message.Kind kindOrNull(byte[] bytes) {
    try {
      return org.bftws.core.message.Signed.decode(bytes).kind();
    } catch (org.bftws.core.codec.DecodeException e) {
      return null;
    }
  }

  /** Inject raw bytes as if from a node (for Byzantine messages built by a test). */
  void inject(int from, int to, byte[] bytes) {
    net.add(new Msg(from, to, bytes));
  }

  void deliverAll() {
    int budget = 1_000_000;
    while (!net.isEmpty() && budget-- > 0) {
      Msg m = net.poll();
      if (down.contains(m.from()) || down.contains(m.to()) || drop.test(m)) {
        continue;
      }
      sent.add(m);
      if (m.to() >= n) {
        ClientCore c = clients.get(m.to());
        handleClient(c, c.receive(m.bytes()));
      } else {
        handle(m.to(), replicas[m.to()].receive(m.bytes()));
      }
    }
    if (budget <= 0) {
      throw new AssertionError("message storm: the network never became quiet");
    }
  }

  void tick(int times) {
    for (int t = 0; t < times; t++) {
      for (int i = 0; i < n; i++) {
        if (!down.contains(i)) {
          handle(i, replicas[i].tick());
        }
      }
      for (ClientCore c : clients.values()) {
        handleClient(c, c.tick());
      }
      deliverAll();
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
}
