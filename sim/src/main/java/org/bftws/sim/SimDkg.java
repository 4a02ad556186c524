package org.bftws.sim;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;
import org.bftws.core.crypto.Digests;
import org.bftws.core.dkg.DkgMessage;
import org.bftws.core.dkg.GroupDkg;
import org.bftws.core.dkg.ShareCipher;
import org.bftws.core.engine.Effect;
import org.bftws.core.engine.KeySet;
import org.bftws.core.keys.GroupKeys;
import org.bftws.core.keys.GroupMembers;
import org.bftws.core.keys.ReplicaIdentity;
import org.bftws.core.message.Kind;
import org.bftws.core.message.Request;
import org.bftws.core.message.SequenceOwner;
import org.bftws.core.message.Signed;
import org.bftws.core.replication.CoinConfig;
import org.bftws.core.replication.ConfidentialConfig;
import org.bftws.core.testkit.TestKeys;
import org.bftws.core.testkit.TestRandom;
import org.bftws.sim.ReplicaNode.Instance;
import org.bouncycastle.crypto.params.Ed25519PublicKeyParameters;

/**
 * {@code --keys dkg}: the group starts with its replicas' individual keys only (Ed25519 signing keys and P-256
 * encryption keys, drawn from the seed) and generates its coin's and TDH2 keys by {@link GroupDkg} over its own
 * PBFT ordering, as the module's {@code order.DkgBootstrap} does: each replica's operations are requests of its
 * reserved node id (after the clients' and the flagging client's), one sequence per operation, signed with the
 * replica's key, sent to every replica and resent every {@value #RESEND_TICKS} ticks until executed here. An
 * executed operation goes to the replica's GroupDkg in the agreed order and never to the service; randomized and
 * (with {@code --confidential}) sealed requests ordered up to the seq that completed the key generation are
 * refused alike at every replica; the keys serve every later seq ({@code Engine.installKeys}).
 *
 * <p>The simulator's service keeps the key generation's ordered operations beside the hash chain (its state
 * for checkpoints), so a replica that catches up past them by state transfer, or restarts empty, replays them
 * and derives its share from the dealings encrypted to its individual key. The module does not yet
 * (docs/status.md): there such a replica has no share.
 */
final class SimDkg {
  /** Ticks between resends of a replica's submitted operations not yet executed there. */
  static final long RESEND_TICKS = 100;
  /** The result of a randomized or sealed request ordered before the generated keys serve. */
  static final byte[] NOT_YET = "BFT-WS: keys not yet generated".getBytes(StandardCharsets.US_ASCII);
  private static final String SEQUENCE_PREFIX = "dkg-generate-";

  /** One ordered operation of the key generation: the seq it executed at, its submitter (replica id), its sequence. */
  record Entry(long seq, int replica, String sequence, byte[] op) {}

  /** One running copy's key generation: its GroupDkg, what it was fed, what it submitted. */
  static final class State {
    final GroupDkg dkg;
    final List<Entry> transcript = new ArrayList<>();
    /** The last seq whose operations were fed (replays of a journal or a state skip those). */
    long fedUpTo;
    /** The seq whose execution completed the key generation here (-1: not yet). */
    long keysAt = -1;
    GroupDkg.Output output;
    boolean certified;
    /** Whether this copy's current engine has the generated keys. */
    boolean engineHasKeys;
    /** Whether its engine got them from a checkpoint installed by state transfer (after that step). */
    boolean keysByTransfer;
    final Map<String, byte[]> unexecuted = new LinkedHashMap<>();
    final List<byte[]> held = new ArrayList<>();
    final List<byte[]> toSelf = new ArrayList<>();
    long submitted;
    long lastResend = -RESEND_TICKS;
    int dealingsSeen;

    State(GroupDkg dkg) {
      this.dkg = dkg;
    }
  }

  private final Simulation sim;
  final GroupMembers members;
  private final ReplicaIdentity[] identities;
  /** The reserved node id of replica 0; replica i submits as base + i. */
  private final int base;
  final byte[] groupId;
  private final ByzantineDealer[] dealers;
  private long incarnations;
  /** The TDH2 key clients seal under, once a correct replica's group.pub is certified (null before). */
  private GroupKeys certified;

  SimDkg(Simulation sim, TestKeys drawn, byte[] groupId) {
    this.sim = sim;
    int n = sim.o.n();
    this.groupId = groupId.clone();
    this.base = n + sim.o.clients() + 1;
    this.identities = new ReplicaIdentity[n];
    this.dealers = new ByzantineDealer[n];
    List<Ed25519PublicKeyParameters> signing = new ArrayList<>();
    List<byte[]> encryption = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      ShareCipher.KeyPair kp = ShareCipher.generate(TestRandom.seeded(sim.o.seed() * 1_000_003L + i ^ 0x444b47L));
      identities[i] = new ReplicaIdentity(i + 1, drawn.privateKey(i), kp.secret());
      signing.add(drawn.publicKey(i));
      encryption.add(kp.publicKey());
    }
    members = new GroupMembers(sim.o.scheme(), n, sim.o.f(), sim.o.f() + 1, signing, encryption, List.of());
  }

  /** The reserved node ids' public keys (each a replica's own), for the group's verifier. */
  void submitterKeys(Map<Integer, Ed25519PublicKeyParameters> keys) {
    for (int i = 0; i < identities.length; i++) {
      keys.put(base + i, members.replicaKey(i + 1));
    }
  }

  boolean reserved(int node) {
    return node >= base && node < base + identities.length;
  }

  /**
   * The Byzantine replicas' dealing: under DEALER a behaviour drawn from the seed, under COLLUDERS false
   * complaints against every correct dealer; under other nemeses each runs the protocol (a twin pair deals
   * twice, a silent replica is silent as a dealer too).
   */
  void byzantine(Set<Integer> byz, Random draws) {
    Set<Integer> spared = new java.util.HashSet<>();
    byz.forEach(i -> spared.add(i + 1));
    for (int i : byz) {
      ByzantineDealer.Behaviour b = switch (sim.o.byzantine()) {
        case DEALER -> ByzantineDealer.Behaviour.values()[draws.nextInt(ByzantineDealer.Behaviour.values().length)];
        case COLLUDERS -> ByzantineDealer.Behaviour.FALSE_COMPLAINTS;
        default -> null;
      };
      if (b != null) {
        dealers[i] = new ByzantineDealer(b, sim.o.scheme(), sim.o.f(), spared, new Random(draws.nextLong()));
      }
    }
  }

  /** What the Byzantine dealers do, for the run's description ("" if none). */
  String describe() {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < dealers.length; i++) {
      if (dealers[i] != null) {
        sb.append(" dealer(r").append(i).append(',').append(dealers[i].behaviour.label()).append(')');
      }
    }
    return sb.toString();
  }

  /** A fresh key generation for {@code in} (a replica's first start, or a restart that lost everything). */
  void begin(ReplicaNode node, Instance in) {
    long incarnation = ++incarnations;
    in.keyGen = new State(new GroupDkg(members, identities[node.id],
        TestRandom.seeded(sim.o.seed() * 0x9E3779B97F4A7C15L + incarnation)));
    submit(node, in, in.keyGen.dkg.start().toOrder());
    ByzantineDealer d = dealers[node.id];
    if (d != null && d.behaviour == ByzantineDealer.Behaviour.EQUIVOCATE) {
      GroupDkg twin = new GroupDkg(members, identities[node.id], TestRandom.seeded(~(sim.o.seed() + incarnation)));
      submit(node, in, twin.start().toOrder());
    }
  }

  /** The TDH2 key of a certified group.pub (what a client fetches and checks), or null before. */
  GroupKeys certifiedGroup() {
    return certified;
  }

  // ------------------------------------------------------------------------------------------ submitting

  private void submit(ReplicaNode node, Instance in, List<byte[]> ops) {
    ByzantineDealer d = dealers[node.id];
    for (byte[] op : ops) {
      for (byte[] x : d == null ? List.of(op) : d.rewrite(op)) {
        if (d != null && d.holds(x)) {
          in.keyGen.held.add(x);
        } else {
          send(node, in, sign(node, in, x));
        }
      }
    }
  }

  private byte[] sign(ReplicaNode node, Instance in, byte[] op) {
    int id = base + node.id;
    String sequence = SequenceOwner.bind(id, SEQUENCE_PREFIX + ++in.keyGen.submitted);
    Request q = new Request(id, sequence, 1, false, op);
    sim.checker.issued(q);
    byte[] signed = Signed.sign(Kind.REQUEST, id, q.encode(), sim.signers.get(node.id)).encode();
    in.keyGen.unexecuted.put(sequence, signed);
    return signed;
  }

  private void send(ReplicaNode node, Instance in, byte[] signed) {
    if (node.silent) {
      return;
    }
    for (int to = 0; to < sim.o.n(); to++) {
      if (to != node.id) {
        sim.net.link(sim.time, node.id, in.side, to, signed, 0);
      }
    }
    in.keyGen.toSelf.add(signed);
  }

  /** Each tick of a running copy: its own operations handed to its engine, resends, a late dealer's dealings. */
  void tick(ReplicaNode node, Instance in) {
    State st = in.keyGen;
    List<byte[]> own = new ArrayList<>(st.toSelf);
    st.toSelf.clear();
    for (byte[] signed : own) {
      sim.handle(node, in, in.replica.receive(signed));
    }
    if (!st.held.isEmpty() && st.dealingsSeen >= 2 * (sim.o.n() - sim.o.f())) {
      List<byte[]> late = new ArrayList<>(st.held);
      st.held.clear();
      late.forEach(op -> send(node, in, sign(node, in, op)));
    }
    if (sim.time - st.lastResend >= RESEND_TICKS && !st.unexecuted.isEmpty()) {
      st.lastResend = sim.time;
      for (byte[] signed : new ArrayList<>(st.unexecuted.values())) {
        send(node, in, signed);
      }
    }
  }

  // ------------------------------------------------------------------------------------------- the service

  /** Whether {@code q}, ordered at a seq the generated keys do not serve, is refused (as in the module). */
  static boolean needsKeys(Request q, boolean confidential) {
    return MarkedOperations.isMarked(q) || confidential && SealedOperations.isSealed(q);
  }

  /** The results of an executed batch: the key generation's operations fed, the rest served or refused. */
  List<byte[]> execute(ReplicaNode node, Instance in, Effect.Execute ex) {
    State st = in.keyGen;
    List<byte[]> results = new ArrayList<>();
    for (int j = 0; j < ex.requests().size(); j++) {
      Request q = ex.requests().get(j);
      if (reserved(q.client())) {
        if (ex.seq() > st.fedUpTo) {
          feed(node, in, new Entry(ex.seq(), q.client() - base, q.sequenceId(), q.operation()));
        }
        results.add(new byte[0]);
      } else if (!(st.keysAt >= 0 && ex.seq() > st.keysAt) && needsKeys(q, sim.o.confidential())) {
        results.add(NOT_YET.clone());
      } else {
        results.add(in.app.execute(q, ex.randoms().get(j)));
      }
    }
    st.fedUpTo = Math.max(st.fedUpTo, ex.seq());
    installKeys(node, in);
    return results;
  }

  private void feed(ReplicaNode node, Instance in, Entry e) {
    State st = in.keyGen;
    if (!st.certified) {
      // what the key generation reads ends with group.cert, at the same point of the agreed sequence everywhere:
      // later operations (a faulty replica's) change nothing and are not kept, so the state stays bounded
      st.transcript.add(e);
    }
    if (e.replica() == node.id) {
      st.unexecuted.remove(e.sequence());
    }
    try {
      if (ByzantineDealer.message(e.op()) instanceof DkgMessage.Dealing) {
        st.dealingsSeen++;
      }
    } catch (RuntimeException malformed) {
      // GroupDkg reports it as a fault below
    }
    GroupDkg.Step step = st.dkg.deliver(e.replica() + 1, e.op());
    submit(node, in, step.toOrder());
    if (step.output() != null && st.output == null) {
      st.output = step.output();
      st.keysAt = e.seq();
      sim.checker.keyGen().generated(node.id, !node.byzantine, e.seq(), st.output);
    }
    if (step.certificate() != null) {
      st.certified = true;
      sim.checker.keyGen().certified(node.id);
      if (!node.byzantine && certified == null) {
        certified = st.output.group();
      }
    }
  }

  /** The generated keys into this copy's engine, once, for the seqs above the one that completed them. */
  private void installKeys(ReplicaNode node, Instance in) {
    State st = in.keyGen;
    if (st.output == null || st.engineHasKeys) {
      return;
    }
    st.engineHasKeys = true;
    if (st.output.keys() == null) {
      // GJKR: a qualified dealer's bad share, complained about too late to count; it needs its share recovered
      node.shareLess = !node.byzantine;
      return;
    }
    GroupKeys g = st.output.group();
    CoinConfig coins = new CoinConfig(g.thresholdScheme(), g.threshold(), st.output.keys().share(), groupId);
    ConfidentialConfig tdh2 = sim.o.confidential() ? new ConfidentialConfig(g.encryption(),
        st.output.keys().decryption(), groupId, SealedOperations.OPERATIONS) : null;
    sim.handle(node, in, in.replica.installKeys(st.keysAt, new KeySet(coins, tdh2)));
  }

  /** A new engine for this copy (a restart): it needs the generated keys installed again. */
  void engineReplaced(Instance in) {
    in.keyGen.engineHasKeys = false;
  }

  /** The service's state for a checkpoint: the hash chain, then the key generation's ordered operations. */
  byte[] state(Instance in) {
    ByteWriter w = new ByteWriter().raw(in.app.getState()).i32(in.keyGen.transcript.size());
    for (Entry e : in.keyGen.transcript) {
      w.i64(e.seq()).i32(e.replica()).str(e.sequence()).bytes(e.op());
    }
    return w.toBytes();
  }

  /** A proven checkpoint's state installed: the hash chain, and the operations this copy had not fed yet. */
  void install(ReplicaNode node, Instance in, byte[] state) {
    ByteReader r = new ByteReader(state);
    in.app.setState(r.raw(Digests.LENGTH));
    int count = r.count(1 << 20);
    State st = in.keyGen;
    long last = st.fedUpTo;
    for (int i = 0; i < count; i++) {
      Entry e = new Entry(r.i64(), r.i32(), r.str(), r.bytes());
      if (e.seq() > st.fedUpTo) {
        feed(node, in, e);
        last = Math.max(last, e.seq());
      }
    }
    r.end();
    st.fedUpTo = last;
    st.keysByTransfer = st.output != null && !st.engineHasKeys;
    installKeys(node, in);
  }

  /**
   * Whether this copy's engine executed {@code ex}, above the key switch, without the keys, having got them
   * from a checkpoint installed by state transfer (invariant D6, docs/simulator.md): the engine must hold the
   * shares of the batches above that checkpoint until the embedding confirms its state, and the keys it
   * delivered, installed ({@code Engine.stateInstalled}), else a batch final there before is tossed or opened
   * under the keys before the switch and the replica diverges.
   */
  boolean executedWithoutKeys(Instance in, Effect.Execute ex) {
    State st = in.keyGen;
    if (!st.keysByTransfer || st.keysAt < 0 || ex.seq() <= st.keysAt) {
      return false;
    }
    for (int j = 0; j < ex.requests().size(); j++) {
      Request q = ex.requests().get(j);
      if (MarkedOperations.isMarked(q) && ex.randoms().get(j).length == 0
          || sim.o.confidential() && SealedOperations.isSealed(q)) {
        return true;
      }
    }
    return false;
  }

  /** Whether every copy of every judged (correct, with a share) replica has its keys and group.cert. */
  boolean doneAtCorrectReplicas() {
    for (ReplicaNode node : sim.replicas) {
      if (!node.byzantine && !node.shareLess && !node.instances.get(0).keyGen.certified) {
        return false;
      }
    }
    return true;
  }

  /** D2–D5 at the end of the run (correct: every replica not Byzantine, with a share or without). */
  void finish() {
    List<Integer> correct = new ArrayList<>();
    List<Integer> byzantine = new ArrayList<>();
    for (ReplicaNode node : sim.replicas) {
      (node.byzantine ? byzantine : correct).add(node.id);
    }
    sim.checker.keyGen().finish(correct, byzantine, sim.o.f() + 1);
  }

  /**
   * For the run's summary: the Byzantine dealers, the seq the keys serve after ({@code keys@none}: never), the
   * replicas left without a share, the requests refused before the keys and those sealed.
   */
  String describeRun() {
    StringBuilder sb = new StringBuilder(describe());
    String at = " keys@none";
    for (ReplicaNode node : sim.replicas) {
      if (!node.byzantine && node.instances.get(0).keyGen.keysAt >= 0) {
        at = " keys@" + node.instances.get(0).keyGen.keysAt;
        break;
      }
    }
    sb.append(at);
    for (ReplicaNode node : sim.replicas) {
      sb.append(node.shareLess ? " share-less(r" + node.id + ")" : "");
    }
    return sb.append(" refused-before-keys=").append(sim.checker.refusedBeforeKeys).append(" sealed=")
        .append(sim.checker.sealedCount()).toString();
  }
}
