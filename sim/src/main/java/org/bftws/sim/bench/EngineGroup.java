package org.bftws.sim.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.function.Supplier;
import org.bftws.core.async.AsyncReplica;
import org.bftws.core.config.GroupConfig;
import org.bftws.core.crypto.Signer;
import org.bftws.core.crypto.Verifier;
import org.bftws.core.crypto.threshold.CoinCounts;
import org.bftws.core.crypto.threshold.Dealt;
import org.bftws.core.crypto.threshold.SchemeId;
import org.bftws.core.crypto.threshold.ThresholdParams;
import org.bftws.core.crypto.threshold.ThresholdScheme;
import org.bftws.core.crypto.threshold.Thresholds;
import org.bftws.core.message.Kind;
import org.bftws.core.message.ReplyBundle;
import org.bftws.core.message.Request;
import org.bftws.core.message.Signed;
import org.bftws.core.replication.CoinConfig;
import org.bftws.core.engine.Engine;
import org.bftws.core.engine.Ready;
import org.bftws.core.pbft.Replica;
import org.bftws.core.testkit.EngineHarness;
import org.bftws.core.testkit.EngineHarness.Msg;
import org.bftws.core.testkit.Scheduler;
import org.bftws.core.testkit.TestKeys;
import org.bftws.core.testkit.TestRandom;

/**
 * A whole group of n engines of one ordering (PBFT's {@code pbft.Replica} or SINTRA's {@code
 * async.AsyncReplica}) in one thread, on a FIFO in-memory network, with closed-loop clients: each client has
 * one request outstanding and sends the next once f+1 replies to it arrived. Every client sends each request
 * to all replicas (as BFT-WS clients do, and as SINTRA's fairness needs). Every signature, multi-signature
 * and coin share is real and checked by the engines as in production; the application echoes the
 * operation, and state captures return a fixed digest.
 *
 * <p>CPU time is charged per replica: the thread's CPU time across each call into replica i ({@code
 * receive}, {@code executed}, {@code stateCaptured}) is added to {@code cpuNanos[i]}. Everything a peer does
 * (signing its messages, its own checks) is charged to that peer, the network and the clients to nobody, so
 * {@code requests / cpuNanos[i]} is replica i's requests per CPU-second as if it ran alone. GC runs on other
 * threads and is not in it (as in {@link EngineBench}).
 */
final class EngineGroup {
  /** The ordering engine of every replica. */
  enum Ordering {
    PBFT, ASYNC;

    String label() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }

    static Ordering parse(String s) {
      return valueOf(s.trim().toUpperCase(java.util.Locale.ROOT));
    }
  }

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
  private static final long SEED = 1;

  /**
   * One replica's Ed25519 operations (envelopes, multi-signature shares, proposals, votes) and the bytes they
   * cover: Ed25519 hashes the whole message with SHA-512, twice to sign and once to verify.
   */
  static final class Signatures {
    long signed;
    long signedBytes;
    long verified;
    long verifiedBytes;

    Signer signer(Signer inner) {
      return data -> {
        signed++;
        signedBytes += data.length;
        return inner.sign(data);
      };
    }

    Verifier verifier(Verifier inner) {
      return (node, data, signature) -> {
        verified++;
        verifiedBytes += data.length;
        return inner.verify(node, data, signature);
      };
    }
  }

  final Ordering ordering;
  final int n;
  final int f;
  final int clients;
  final GroupConfig cfg;
  final Engine[] engines;
  final long[] cpuNanos;
  /** Requests executed and Execute effects, per replica. */
  final long[] executed;
  final long[] batches;
  final Traffic traffic;
  final Signatures[] signatures;
  /** Replica i's application, counting into {@link #executed} and {@link #batches}. */
  private final EchoService[] services;
  /** The group's threshold coin, counting (async only; null for PBFT). */
  final CoinCounts coins;
  private final TestKeys keys;
  private final byte[] operation;
  /** The group on the test kit's harness; its network FIFO, or a seeded draw among the messages in flight. */
  private final EngineHarness harness;
  private final long[] nextNumber;
  private final int[] repliesToCurrent;
  private long sent;
  private long target;
  private java.util.function.LongConsumer progress;
  private long reported;

  /**
   * {@code batch}: {@code bftws.maxBatchSize}; {@code clients}: closed-loop clients (choose at least two
   * batches' worth to keep batches full); {@code agreements}: read agreement rounds from the traffic.
   */
  EngineGroup(Ordering ordering, int f, int batch, int clients, int operationBytes, boolean agreements) {
    this(ordering, f, batch, clients, operationBytes, agreements, false);
  }

  /**
   * {@code randomSchedule}: the next message to arrive is drawn (seeded) from all in flight, as an
   * asynchronous network may deliver them, instead of first sent, first delivered.
   */
  EngineGroup(Ordering ordering, int f, int batch, int clients, int operationBytes, boolean agreements,
      boolean randomSchedule) {
    this.ordering = ordering;
    this.f = f;
    this.n = 3 * f + 1;
    this.clients = clients;
    this.cfg = GroupConfig.builder().set(GroupConfig.F, f).set(GroupConfig.MAX_BATCH_SIZE, batch)
        .set(GroupConfig.CHECKPOINT_INTERVAL, 128).set(GroupConfig.LOG_WINDOW, 256).build();
    this.keys = TestKeys.seeded(n + clients, SEED);
    this.operation = new byte[operationBytes];
    this.engines = new Engine[n];
    this.cpuNanos = new long[n];
    this.executed = new long[n];
    this.batches = new long[n];
    this.traffic = new Traffic(agreements);
    this.signatures = new Signatures[n];
    this.services = new EchoService[n];
    for (int i = 0; i < n; i++) {
      signatures[i] = new Signatures();
      int replica = i;
      services[i] = new EchoService(requests -> {
        executed[replica] += requests;
        batches[replica]++;
      });
    }
    this.nextNumber = new long[clients];
    this.repliesToCurrent = new int[clients];
    EngineHarness.Factory factory;
    if (ordering == Ordering.ASYNC) {
      coins = new CoinCounts();
      ThresholdScheme scheme = coins.counting(Thresholds.scheme(SchemeId.CKS));
      // the (n, f+1, f) coin of SINTRA §2.1, as the engine's tests deal it
      Dealt dealt = scheme.deal(new ThresholdParams(n, f + 1, f), TestRandom.seeded(SEED));
      factory = (i, config, k) -> AsyncReplica.builder(config, i, signatures[i].signer(k.signer(i)),
          signatures[i].verifier(k.verifier())).coin(new CoinConfig(scheme, dealt.group(), dealt.share(i + 1),
          new byte[0])).build();
    } else {
      coins = null;
      factory = (i, config, k) -> Replica.builder(config, i, signatures[i].signer(k.signer(i)),
          signatures[i].verifier(k.verifier())).build();
    }
    Scheduler<Msg> network = randomSchedule ? Scheduler.seeded(new java.util.Random(SEED)) : Scheduler.fifo();
    harness = new EngineHarness(cfg, keys, factory, network).services(i -> services[i]).router(this::route)
        .calls(i -> call -> timed(i, call)).receiver((to, bytes) -> reply(to - n, ReplyBundle.decode(bytes)))
        .received(i -> progress()).maxSteps(Long.MAX_VALUE, "");
    for (int i = 0; i < n; i++) {
      engines[i] = harness.start(i);
    }
  }

  /**
   * Runs until {@code requests} more requests were sent and the network is quiet; {@code progress} is called
   * with replica 0's executed count after each of its Execute effects.
   */
  void run(long requests, java.util.function.LongConsumer progress) {
    target = sent + requests;
    for (int c = 0; c < clients && sent < target; c++) {
      if (nextNumber[c] == 0 || repliesToCurrent[c] > f) {
        send(c);
      }
    }
    this.progress = progress;
    reported = executed[0];
    harness.run();
    for (int i = 0; i < n; i++) {
      if (executed[i] != sent) {
        throw new IllegalStateException("replica " + i + " executed " + executed[i] + " of " + sent + " requests: "
            + engines[i].describe());
      }
    }
  }

  /** Tells {@link #progress} of replica 0's executed count when it changed. */
  private void progress() {
    if (progress != null && executed[0] != reported) {
      reported = executed[0];
      progress.accept(reported);
    }
  }

  int operationBytes() {
    return operation.length;
  }

  long sent() {
    return sent;
  }

  private void send(int c) {
    int client = n + c;
    repliesToCurrent[c] = 0;
    Request q = new Request(client, "urn:uuid:bench-" + c, ++nextNumber[c], false, operation);
    byte[] bytes = Signed.sign(Kind.REQUEST, client, q.encode(), keys.signer(client)).encode();
    traffic.requests.add(n, bytes.length);
    for (int i = 0; i < n; i++) {
      harness.post(new Msg(client, i, bytes));
    }
    sent++;
  }

  private void reply(int c, ReplyBundle b) {
    if (b.messageNumber() == nextNumber[c] && ++repliesToCurrent[c] == f + 1 && sent < target) {
      send(c);
    }
  }

  private Ready timed(int i, Supplier<Ready> call) {
    long c0 = THREADS.getCurrentThreadCpuTime();
    Ready r = call.get();
    cpuNanos[i] += THREADS.getCurrentThreadCpuTime() - c0;
    return r;
  }

  /** Replica i's messages onto the network, counted (its effects the harness performs inside its timing). */
  private void route(int i, Ready.Outbound o, java.util.function.Consumer<Msg> post) {
    if (o.to() == Ready.ALL_REPLICAS) {
      traffic.peer(o.bytes(), n - 1);
    } else if (o.to() < n) {
      traffic.peer(o.bytes(), 1);
    } else {
      traffic.replies.add(1, o.bytes().length);
    }
    EngineHarness.Router.replicas(n).route(i, o, post);
  }
}
