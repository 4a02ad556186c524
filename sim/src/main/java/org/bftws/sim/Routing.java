package org.bftws.sim;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.bftws.core.async.AsyncMessage;
import org.bftws.core.codec.DecodeException;
import org.bftws.core.engine.Ready;
import org.bftws.core.message.Kind;
import org.bftws.core.message.Signed;
import org.bftws.core.pbft.Replica;
import org.bftws.sim.ReplicaNode.Instance;

/**
 * The simulation's messages between nodes, through the nemesis: what a silent, mutating, slow or insisting
 * replica sends, which copy of a twin or equivocator hears what, who is cut off (isolate, the over-threshold
 * split brain), and delivery to clients, replicas and execution nodes from the {@link Network}.
 */
final class Routing {
  private final Simulation sim;
  private final Map<Long, int[]> twinRoutes = new HashMap<>();
  private long messagesSent;
  private long ppUpdatesSent;

  Routing(Simulation sim) {
    this.sim = sim;
  }

  /** Replica-to-replica messages sent (a multicast counts n-1). */
  long messagesSent() {
    return messagesSent;
  }

  /** Of {@link #messagesSent}, BA's pp-updates (integrity paper §4). */
  long ppUpdatesSent() {
    return ppUpdatesSent;
  }

  void send(ReplicaNode node, Instance in, Ready.Outbound m) {
    if (node.silent) {
      return;
    }
    if (!node.byzantine && m.to() >= sim.o.n() && !sim.cfg.isExecutionNode(m.to()) && !sim.cfg.replies(node.id)) {
      sim.checker.violation("S10 roles: replica " + node.id + ", which does not execute, answered client "
          + m.to());
    }
    byte[] bytes = m.bytes();
    if (node.insists && m.to() == Ready.ALL_REPLICAS && bytes.length > 0 && bytes[0] == Kind.PRE_PREPARE.code()) {
      bytes = Mutator.withFlagged(bytes, sim.flaggedRequest(), sim.signers.get(node.id));
    }
    List<byte[]> out = node.mutator == null ? List.of(bytes) : node.mutator.apply(bytes);
    long delayBy = slow(node, in) ? sim.o.slowDelay() : 0;
    for (byte[] b : out) {
      long copies = m.to() == Ready.ALL_REPLICAS ? sim.o.n() - 1 : m.to() < sim.o.n() || sim.cfg.isExecutionNode(m.to()) ? 1 : 0;
      messagesSent += copies;
      if (b.length > 0 && b[0] == Kind.PP_UPDATE.code()) {
        ppUpdatesSent += copies;
      }
      if (m.to() == Ready.ALL_REPLICAS) {
        for (int to = 0; to < sim.o.n(); to++) {
          if (to != node.id && heardFrom(in, to, b) && !cutOff(node.id, to)) {
            sim.net.link(sim.time, node.id, in.side, to, b, delayBy);
          }
        }
      } else if (heardFrom(in, m.to(), b) && !cutOff(node.id, m.to())) {
        sim.net.link(sim.time, node.id, in.side, m.to(), b, delayBy);
      }
    }
  }

  /**
   * Equivocate: whether peer {@code to} hears this copy's message. Per protocol instance, each peer hears
   * one copy, by a hash of (seed, instance, peer): peers get different payloads for one broadcast. Other
   * messages (checkpoints, replies) go by the peer's parity. Any other nemesis: every message is heard.
   */
  private boolean heardFrom(Instance in, int to, byte[] bytes) {
    if (sim.o.byzantine() != Byzantine.EQUIVOCATE || in.side < 0) {
      return true;
    }
    int side = to % 2;
    try {
      Signed s = Signed.decode(bytes);
      if (s.kind() == Kind.ASYNC) {
        String pid = AsyncMessage.decode(s.body()).pid().toString();
        side = (Long.hashCode(sim.o.seed() * 1_000_003L + to) ^ pid.hashCode()) >>> 7 & 1;
      }
    } catch (DecodeException e) {
      // a reply bundle or hostile bytes: by the peer's parity
    }
    return side == in.side;
  }

  /** ISOLATE: before the heal, nothing goes between the isolated replica and another replica. */
  private boolean cutOff(int from, int to) {
    return sim.time < sim.faults.healAt && to < sim.o.n() && (from == sim.isolated || to == sim.isolated);
  }

  /** SLOW: whether this replica's messages are delayed now (PBFT: it is the primary of its view; async: replica 0). */
  private boolean slow(ReplicaNode node, Instance in) {
    if (sim.o.byzantine() != Byzantine.SLOW) {
      return false;
    }
    return in.replica instanceof Replica pbft ? sim.cfg.primaryOf(pbft.view()) == node.id : node.id == 0;
  }

  void deliver(Network.Delivery d) {
    int to = d.to();
    if (to >= sim.o.n() + sim.clients.length && !sim.cfg.isExecutionNode(to)) {
      return; // to the flagging client, which ignores replies
    }
    if (to >= sim.o.n() && !sim.cfg.isExecutionNode(to)) {
      ClientNode c = sim.clients[to - sim.o.n()];
      if (d.fromSide() < 0 || sim.o.byzantine() != Byzantine.OVER_THRESHOLD || sideOf(to) == d.fromSide()) {
        sim.handleClient(c, c.core.receive(d.bytes()));
      }
      return;
    }
    ReplicaNode node = sim.cfg.isExecutionNode(to) ? sim.executor(to) : sim.replicas[to];
    if (node.crashed) {
      if (sim.net.reliable()) {
        sim.net.retry(d, node.restartAt); // reliable links: it waits for the restart
      }
      return;
    }
    if (node.instances.size() == 1) {
      if (d.fromSide() < 0 || sim.o.byzantine() != Byzantine.OVER_THRESHOLD || sideOf(to) == d.fromSide()) {
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
      sim.handle(node, in, in.replica.receive(bytes));
    } catch (RuntimeException e) {
      sim.checker.violation("exception in replica " + node.id + ": " + e);
    }
  }

  /**
   * Over-threshold: a fixed split brain. Twins: each sender's messages reach copy 0, 1 or both, per epoch.
   * Equivocate: replicas' messages reach both copies, each client's requests one of them.
   */
  private int twinRoute(int from, int fromSide) {
    if (sim.o.byzantine() == Byzantine.OVER_THRESHOLD) {
      return fromSide >= 0 ? fromSide : sideOf(from);
    }
    if (sim.o.byzantine() == Byzantine.EQUIVOCATE) {
      return from < sim.o.n() ? 2 : (from - sim.o.n()) % 2;
    }
    int[] routes = twinRoutes.computeIfAbsent(sim.time / 300, e -> {
      int[] r = new int[sim.separated() ? sim.o.n() + sim.o.clients() + 1 + sim.executors.length : sim.o.n() + sim.o.clients()];
      for (int i = 0; i < r.length; i++) {
        r[i] = sim.rng.nextInt(3);
      }
      return r;
    });
    return routes[from];
  }

  /** Which half of the split brain a correct replica or client belongs to (over-threshold only). */
  private int sideOf(int node) {
    return node < sim.o.n() ? (node - sim.o.f() - 1) % 2 : (node - sim.o.n()) % 2;
  }
}
