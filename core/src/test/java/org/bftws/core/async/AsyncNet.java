package org.bftws.core.async;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.bftws.core.codec.DecodeException;
import org.bftws.core.crypto.Signer;
import org.bftws.core.crypto.Verifier;
import org.bftws.core.crypto.threshold.Dealt;
import org.bftws.core.crypto.threshold.SchemeId;
import org.bftws.core.crypto.threshold.SignatureShare;
import org.bftws.core.crypto.threshold.ThresholdParams;
import org.bftws.core.crypto.threshold.ThresholdScheme;
import org.bftws.core.crypto.threshold.Thresholds;
import org.bftws.core.message.Kind;
import org.bftws.core.message.Signed;
import org.bftws.core.replication.CoinConfig;
import org.bftws.core.engine.Event;
import org.bftws.core.engine.Ready;
import org.bftws.core.testkit.TestKeys;
import org.bftws.core.testkit.TestRandom;

/**
 * n replicas' {@link Context}s on an in-memory asynchronous network whose scheduler is the adversary of
 * SINTRA §2's model: one seed picks which pending message is delivered next (any of them: arbitrary delay
 * and reorder), with a per-seed set of slow links whose messages go only when nothing else is pending, and
 * a per-seed bias towards the newest message. It is fair: {@link #run} delivers until nothing is pending,
 * so every message is eventually delivered. There are no ticks and no losses.
 *
 * <p>Byzantine nodes have no context: messages to them are dropped, and a test makes them speak with
 * {@link #forge} and {@link #post}. Use: create, {@link #input} at correct replicas (register instances,
 * start broadcasts), post Byzantine messages, {@link #run}, then check outputs and {@link #evidence}. Every
 * failure message should include {@link #seed}.
 */
final class AsyncNet {
  /** Far above what any test needs: a run that does not quiesce is a livelock bug. */
  private static final int MAX_STEPS = 1_000_000;
  static final ThresholdScheme CKS = Thresholds.scheme(SchemeId.CKS);

  final int n;
  final int f;
  final long seed;
  private final Random rng;
  private final Map<Integer, Signer> signers = new HashMap<>();
  /** The dealt (n, f+1, f) CKS coin, or null for a network without coins. */
  final Dealt coins;
  private final Context[] contexts;
  private final List<List<Event.Evidence>> evidence = new ArrayList<>();
  private final List<Pending> pending = new ArrayList<>();
  private final Set<Integer> slowLinks = new HashSet<>();
  private final double newestBias;
  /** Messages the adversary holds back while anything else is pending (from, message). */
  private java.util.function.BiPredicate<Integer, AsyncMessage> heldBack;
  private int delivered;

  private record Pending(int from, int to, byte[] bytes) {}

  /**
   * One line of a correct replica's transcript: a message it received from {@code peer} (authentic or not:
   * as the network carried it) or, with {@code sent}, one it sent (to one peer or to all).
   */
  record Seen(boolean sent, int peer, AsyncMessage message) {}

  private final List<List<Seen>> transcripts = new ArrayList<>();

  AsyncNet(int n, int f, long seed, Set<Integer> byzantine) {
    this(n, f, seed, byzantine, false);
  }

  /**
   * With {@code coins}, every correct context gets its share of a CKS threshold coin on P-256 with
   * (n, k, t) = (n, f+1, f), dealt from the seed as the threshold-scheme tests deal theirs; Byzantine
   * nodes' shares stay in {@link #coins} for tests to misuse.
   */
  AsyncNet(int n, int f, long seed, Set<Integer> byzantine, boolean coins) {
    this.n = n;
    this.f = f;
    this.seed = seed;
    this.rng = new Random(seed);
    TestKeys keys = TestKeys.seeded(n, seed);
    signers.putAll(keys.signers());
    Verifier verifier = keys.verifier();
    this.coins = coins ? CKS.deal(new ThresholdParams(n, f + 1, f), TestRandom.seeded(seed)) : null;
    contexts = new Context[n];
    for (int i = 0; i < n; i++) {
      CoinConfig coin = coins ? new CoinConfig(CKS, this.coins.group(), this.coins.share(i + 1),
          new byte[0]) : null;
      contexts[i] = byzantine.contains(i) ? null : new Context(n, f, i, signers.get(i), verifier, coin);
      evidence.add(new ArrayList<>());
      transcripts.add(new ArrayList<>());
    }
    for (int link = 0; link < n * n; link++) {
      if (rng.nextInt(4) == 0) {
        slowLinks.add(link);
      }
    }
    newestBias = rng.nextBoolean() ? 0 : rng.nextDouble();
  }

  boolean correct(int i) {
    return contexts[i] != null;
  }

  Context ctx(int i) {
    if (contexts[i] == null) {
      throw new IllegalArgumentException("node " + i + " is Byzantine");
    }
    return contexts[i];
  }

  /** A local input at correct replica {@code i}; its output goes on the network. */
  void input(int i, Runnable action) {
    post(i, ctx(i).input(action));
  }

  /** Raw bytes from {@code from} to {@code to}: a Byzantine node's message, or hostile bytes. */
  void post(int from, int to, byte[] bytes) {
    pending.add(new Pending(from, to, bytes));
  }

  /** A correctly signed envelope from node {@code from} (a Byzantine node speaks with its own key). */
  byte[] forge(int from, Pid pid, int type, byte[] payload) {
    return forge(from, from, pid, type, payload);
  }

  /** An envelope claiming {@code claimed} as sender but signed with {@code signer}'s key. */
  byte[] forge(int claimed, int signer, Pid pid, int type, byte[] payload) {
    byte[] body = new AsyncMessage(pid, type, payload).encode();
    return Signed.sign(Kind.ASYNC, claimed, body, signers.get(signer)).encode();
  }

  /** Node {@code node}'s share of the coin on {@code message} (a Byzantine node's, for forged COINs). */
  SignatureShare coinShare(int node, byte[] message) {
    return CKS.share(coins.group(), coins.share(node + 1), message);
  }

  /** Node {@code node}'s Ed25519 signature (a Byzantine node signs whatever it likes). */
  byte[] sign(int node, byte[] data) {
    return signers.get(node).sign(data);
  }

  /**
   * From now on, messages that {@code held} names (by sender and body) are delivered only when nothing
   * else is pending: the adversary delays them as long as it can without being unfair.
   */
  void holdBack(java.util.function.BiPredicate<Integer, AsyncMessage> held) {
    this.heldBack = held;
  }

  /** Messages delivered so far (to correct and Byzantine nodes). */
  int delivered() {
    return delivered;
  }

  /** Whether a message is pending. */
  boolean idle() {
    return pending.isEmpty();
  }

  /** Delivers pending messages in the adversary's order until none is left; returns how many. */
  int run() {
    int before = delivered;
    while (step()) {
      if (delivered - before > MAX_STEPS) {
        throw new AssertionError("no quiescence after " + MAX_STEPS + " messages, seed " + seed);
      }
    }
    return delivered - before;
  }

  /** Delivers the one pending message the adversary picks; false if none is pending. */
  boolean step() {
    if (pending.isEmpty()) {
      return false;
    }
    Pending p = pending.remove(next());
    delivered++;
    if (contexts[p.to()] != null) {
      note(p.to(), false, p.from(), p.bytes());
      post(p.to(), contexts[p.to()].receive(p.bytes()));
    }
    return true;
  }

  /** What correct replica {@code i} received and sent so far, in its order (messages to itself aside). */
  List<Seen> transcript(int i) {
    return transcripts.get(i);
  }

  /** Evidence events correct replica {@code i} recorded so far. */
  List<Event.Evidence> evidence(int i) {
    return evidence.get(i);
  }

  private int next() {
    List<Integer> free = new ArrayList<>();
    for (int i = 0; i < pending.size(); i++) {
      if (!held(pending.get(i))) {
        free.add(i);
      }
    }
    if (free.isEmpty()) {
      return rng.nextInt(pending.size());
    }
    if (rng.nextDouble() < newestBias) {
      return free.get(free.size() - 1);
    }
    List<Integer> fast = new ArrayList<>();
    for (int i : free) {
      Pending p = pending.get(i);
      if (!slowLinks.contains(p.from() * n + p.to())) {
        fast.add(i);
      }
    }
    return fast.isEmpty() ? free.get(rng.nextInt(free.size())) : fast.get(rng.nextInt(fast.size()));
  }

  private boolean held(Pending p) {
    if (heldBack == null) {
      return false;
    }
    try {
      return heldBack.test(p.from(), AsyncMessage.decode(Signed.decode(p.bytes()).body()));
    } catch (DecodeException e) {
      return false;
    }
  }

  private void note(int replica, boolean sent, int peer, byte[] bytes) {
    try {
      transcripts.get(replica).add(new Seen(sent, peer, AsyncMessage.decode(Signed.decode(bytes).body())));
    } catch (DecodeException e) {
      // hostile bytes: the replica's evidence tells what it made of them
    }
  }

  private void post(int from, Ready r) {
    for (Event e : r.events) {
      if (e instanceof Event.Evidence ev) {
        evidence.get(from).add(ev);
      }
    }
    for (Ready.Outbound o : r.messages) {
      note(from, true, o.to(), o.bytes());
      if (o.to() == Ready.ALL_REPLICAS) {
        for (int to = 0; to < n; to++) {
          if (to != from) {
            post(from, to, o.bytes());
          }
        }
      } else {
        post(from, o.to(), o.bytes());
      }
    }
  }
}
