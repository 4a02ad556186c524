package org.bftws.core.pbft;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.bftws.core.config.GroupConfig;
import org.bftws.core.crypto.Ed25519;
import org.bftws.core.engine.Effect;
import org.bftws.core.engine.Ready;
import org.bftws.core.message.Kind;
import org.bftws.core.message.ReplyBundle;
import org.bftws.core.message.Request;
import org.bftws.core.message.Signed;
import org.bftws.core.reconfig.Administrators;
import org.bftws.core.reconfig.Member;
import org.bftws.core.reconfig.Membership;
import org.bftws.core.reconfig.Reconfigure;
import org.bftws.core.testkit.EffectPerformer;
import org.bftws.core.testkit.EngineHarness.Msg;
import org.bftws.core.testkit.HashChainApp;
import org.bftws.core.testkit.TestKeys;

/**
 * Replicas whose membership changes ({@link EpochReplica}) on an in-memory FIFO network addressed by stable id,
 * each running a {@link HashChainApp}; one raw client (node {@link #CLIENT}) signs requests and sends them to the
 * replicas built, and again until answered (a client's retransmission). Member with stable id i holds test key i;
 * the administrators' keys are another seed's. A replica that a later epoch adds is built once a member of that
 * epoch began it, from where it began ({@link EpochReplica#start}), as an operator starts a new host with the
 * certificate chain; messages to it before then are lost.
 */
final class EpochGroup {
  static final int CLIENT = 1000;
  static final byte[] GROUP = "urn:bftws:epoch-group".getBytes(StandardCharsets.US_ASCII);
  static final TestKeys KEYS = TestKeys.seeded(24, 17);
  static final TestKeys ADMIN = TestKeys.seeded(1, 71);
  static final TestKeys CLIENT_KEY = TestKeys.seeded(1, 1000);
  private static final String SEQUENCE = "urn:uuid:epoch-group-client";

  final GroupConfig base = GroupConfig.builder().set(GroupConfig.CHECKPOINT_INTERVAL, 4).set(GroupConfig.LOG_WINDOW, 8)
      .build();
  final Administrators admins = new Administrators(List.of(ADMIN.publicKey(0).getEncoded()), 1);
  final Map<Integer, EpochReplica> replicas = new TreeMap<>();
  final Map<Integer, HashChainApp> apps = new HashMap<>();
  /** Per replica, the operations it executed, in order (reconfigurations are not executed by the service). */
  final Map<Integer, List<String>> executed = new HashMap<>();
  /** Per replica, (epoch, seq) of each batch it executed. */
  final Map<Integer, List<long[]>> batches = new HashMap<>();
  /** Replies the client got: (message number, result as text when it is a reconfiguration's verdict). */
  final Map<Long, List<String>> replies = new HashMap<>();
  final Set<Integer> down = new HashSet<>();
  final ArrayDeque<Msg> net = new ArrayDeque<>();
  Predicate<Msg> drop = m -> false;
  /** Whether {@link #tickUntil} resends unanswered requests (a client's retransmission); counted in {@link #resent}. */
  boolean retransmits = true;
  int resent;
  /** Delivery order drawn from this (null: FIFO). */
  java.util.Random order;
  /** Replicas that also send a corrupted copy of some of their messages, and whose messages are kept for replay. */
  final Set<Integer> byzantine = new HashSet<>();
  /** What the Byzantine replicas sent, for {@link #replay}. */
  final List<Msg> byzantineSent = new ArrayList<>();
  /** The newest membership the test has made (the client's view of the group). */
  Membership newest;
  private long number;
  /** Requests sent and not yet executed by every member of the newest epoch: resent when an epoch begins. */
  private final Map<Long, Signed> outstanding = new TreeMap<>();

  EpochGroup(int n) {
    List<String> endpoints = new ArrayList<>();
    List<byte[]> keys = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      endpoints.add(endpoint(i));
      keys.add(KEYS.publicKey(i).getEncoded());
    }
    newest = Membership.initial(endpoints, keys);
    for (int i = 0; i < n; i++) {
      add(i, newest);
    }
  }

  static String endpoint(int id) {
    return "http://127.0.0.1:" + (9100 + id) + "/axis2/services/Counter";
  }

  private void add(int id, Membership m) {
    EpochReplica.Setup s = new EpochReplica.Setup(base, admins, GROUP, KEYS.signer(id),
        Ed25519.verifier(Map.of(CLIENT, CLIENT_KEY.publicKey(0))));
    replicas.put(id, new EpochReplica(s, m, id));
    apps.put(id, new HashChainApp());
    executed.put(id, new ArrayList<>());
    batches.put(id, new ArrayList<>());
  }

  /** Replicas the newest epoch adds, not yet built. */
  private final Set<Integer> toJoin = new HashSet<>();

  /** Builds the replicas waiting to join once a live member is in their epoch, and joins them from its start. */
  private void joinWaiting() {
    for (java.util.Iterator<Integer> it = toJoin.iterator(); it.hasNext(); ) {
      int id = it.next();
      for (EpochReplica r : replicas.values()) {
        if (!down.contains(r.id()) && r.membership().epoch() == newest.epoch() && r.start() != null
            && r.start().previous().epoch() + 1 == newest.epoch()) {
          add(id, r.membership());
          handle(id, replicas.get(id).join(r.start(), r.chain()));
          it.remove();
          break;
        }
      }
    }
  }

  // ---------------------------------------------------------------- reconfigurations

  Reconfigure signed(Reconfigure r) {
    return r.signedBy(0, ADMIN.signer(0));
  }

  /** Adding the next stable id (its test key of the same number), signed; {@link #newest} moves on. */
  Reconfigure add() {
    int id = newest.nextId();
    return advance(signed(Reconfigure.add(GROUP, newest.epoch(), endpoint(id), KEYS.publicKey(id).getEncoded())));
  }

  Reconfigure remove(int id) {
    return advance(signed(Reconfigure.remove(GROUP, newest.epoch(), id)));
  }

  /** Replacing {@code id} by the next stable id. */
  Reconfigure replace(int id) {
    int next = newest.nextId();
    return advance(signed(Reconfigure.replace(GROUP, newest.epoch(), id, endpoint(next),
        KEYS.publicKey(next).getEncoded())));
  }

  private Reconfigure advance(Reconfigure r) {
    Membership before = newest;
    newest = r.apply(newest, admins, GROUP);
    for (Member m : newest.members()) {
      if (before.indexOf(m.id()) < 0) {
        toJoin.add(m.id());
      }
    }
    return r;
  }

  // ---------------------------------------------------------------- the client

  /** Signs {@code operation} as the client's next request and sends it to every replica built. */
  long submit(byte[] operation) {
    number++;
    // one sequence per request: the client table executes a sequence's numbers in order, and a number that
    // arrives after a higher one of its sequence executed is old (reordering would lose it)
    Request q = new Request(CLIENT, SEQUENCE + "-" + number, 1, false, operation);
    Signed s = Signed.sign(Kind.REQUEST, CLIENT, q.encode(), CLIENT_KEY.signer(0));
    outstanding.put(number, s);
    for (int id : replicas.keySet()) {
      net.add(new Msg(CLIENT, id, s.encode()));
    }
    return number;
  }

  long submit(String op) {
    return submit(op.getBytes(StandardCharsets.UTF_8));
  }

  /** Sends again every request not yet answered (a client retransmits until it has its reply). */
  void retransmit() {
    if (!outstanding.isEmpty()) {
      resent++;
    }
    for (Signed s : outstanding.values()) {
      for (int id : replicas.keySet()) {
        net.add(new Msg(CLIENT, id, s.encode()));
      }
    }
  }

  // ---------------------------------------------------------------- the network

  private Msg next() {
    if (order == null || net.size() < 2) {
      return net.poll();
    }
    List<Msg> all = new ArrayList<>(net);
    Msg m = all.remove(order.nextInt(Math.min(all.size(), 8)));
    net.clear();
    net.addAll(all);
    return m;
  }

  /** A Byzantine replica sends everything it ever sent again, to every replica built (after a removal: a removed replica that keeps talking). */
  void replay() {
    for (Msg m : byzantineSent) {
      for (int id : replicas.keySet()) {
        net.add(new Msg(m.from(), id, m.bytes()));
      }
    }
  }

  void deliverAll() {
    Msg m;
    while ((m = next()) != null) {
      if (m.to() == CLIENT) {
        if (!byzantine.contains(m.from())) { // the test client counts correct replicas' replies only (a voter's job)
          onReply(m.bytes());
        }
      } else if (replicas.containsKey(m.to()) && !down.contains(m.to()) && !down.contains(m.from()) && !drop.test(m)) {
        handle(m.to(), replicas.get(m.to()).receive(m.bytes()));
      }
    }
  }

  private void onReply(byte[] bytes) {
    ReplyBundle b = ReplyBundle.decode(bytes);
    if (b.readOnly()) {
      return;
    }
    long num = Long.parseLong(b.sequenceId().substring(SEQUENCE.length() + 1));
    outstanding.remove(num);
    replies.computeIfAbsent(num, k -> new ArrayList<>()).add(new String(b.result(), StandardCharsets.UTF_8));
  }

  void handle(int id, Ready r) {
    for (Ready.Outbound o : r.messages) {
      net.add(new Msg(id, o.to(), o.bytes()));
      if (byzantine.contains(id)) {
        byzantineSent.add(new Msg(id, o.to(), o.bytes()));
        if (order != null && order.nextInt(4) == 0) {
          byte[] bad = o.bytes().clone();
          bad[order.nextInt(bad.length)] ^= (byte) (1 + order.nextInt(255));
          net.add(new Msg(id, o.to(), bad));
        }
      }
    }
    HashChainApp app = apps.get(id);
    EffectPerformer.perform(replicas.get(id), r.effects, EffectPerformer.of(app, ex -> record(id, ex)),
        next -> handle(id, next));
  }

  private void record(int id, Effect.Execute ex) {
    batches.get(id).add(new long[] {replicas.get(id).membership().epoch(), ex.seq()});
    for (Request q : ex.requests()) {
      executed.get(id).add(new String(q.operation(), StandardCharsets.UTF_8));
    }
  }

  void tick(int times) {
    for (int t = 0; t < times; t++) {
      joinWaiting();
      for (int id : replicas.keySet()) {
        if (!down.contains(id)) {
          handle(id, replicas.get(id).tick());
        }
      }
      deliverAll();
    }
  }

  /** Ticks (resending what is unanswered every 50) until {@code done}; fails after {@code maxTicks}. */
  void tickUntil(Predicate<EpochGroup> done, int maxTicks) {
    deliverAll();
    for (int t = 0; t < maxTicks && !done.test(this); t++) {
      if (t % 50 == 49 && retransmits) {
        retransmit();
      }
      tick(1);
    }
    if (!done.test(this)) {
      StringBuilder sb = new StringBuilder("condition not reached within " + maxTicks + " ticks:");
      replicas.values().forEach(r -> sb.append("\n  ").append(r.describe()));
      sb.append("\n  unanswered ").append(outstanding.keySet()).append(", replies ").append(replies.keySet());
      throw new AssertionError(sb.toString());
    }
  }

  // ---------------------------------------------------------------- observations

  /** True when every live member of {@link #newest} is in its epoch. */
  boolean inNewestEpoch() {
    for (Member m : newest.members()) {
      if (!down.contains(m.id()) && !byzantine.contains(m.id()) && (!replicas.containsKey(m.id())
          || replicas.get(m.id()).membership().epoch() != newest.epoch())) {
        return false;
      }
    }
    return true;
  }

  /** The kind of a message on the wire (null if it does not decode). */
  static Kind kind(Msg m) {
    try {
      return Signed.decode(m.bytes()).kind();
    } catch (RuntimeException e) {
      return null;
    }
  }

  /** True when every request sent got a reply. */
  boolean allAnswered() {
    return outstanding.isEmpty();
  }

  /** The verdict replies to request {@code num}. */
  List<String> verdicts(long num) {
    return replies.getOrDefault(num, List.of());
  }

  /** The live members of the newest epoch whose service state differs from the first one's (empty: none). */
  List<Integer> divergent() {
    List<Integer> out = new ArrayList<>();
    byte[] first = null;
    for (Member m : newest.members()) {
      if (down.contains(m.id()) || byzantine.contains(m.id())) {
        continue;
      }
      if (!apps.containsKey(m.id())) {
        out.add(m.id());
        continue;
      }
      byte[] s = apps.get(m.id()).getState();
      if (first == null) {
        first = s;
      } else if (!java.util.Arrays.equals(first, s)) {
        out.add(m.id());
      }
    }
    return out;
  }
}
