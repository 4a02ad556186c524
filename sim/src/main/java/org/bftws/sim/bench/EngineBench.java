package org.bftws.sim.bench;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.bftws.core.config.GroupConfig;
import org.bftws.core.crypto.Authentication;
import org.bftws.core.crypto.Authenticators;
import org.bftws.core.crypto.Ed25519;
import org.bftws.core.crypto.Signer;
import org.bftws.core.crypto.Verifier;
import org.bftws.core.message.Kind;
import org.bftws.core.message.PpUpdate;
import org.bftws.core.message.PrePrepare;
import org.bftws.core.message.Request;
import org.bftws.core.message.Signed;
import org.bftws.core.message.Vote;
import org.bftws.core.engine.Ready;
import org.bftws.core.pbft.Replica;
import org.bftws.core.testkit.EffectPerformer;
import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;
import org.bouncycastle.crypto.params.Ed25519PublicKeyParameters;

/**
 * One backup replica's engine alone (no network): per batch it receives the clients' signed requests,
 * the primary's pre-prepare, two prepares and three commits, all signed by their real senders, verifies
 * every signature, executes, signs its prepare, commit, replies and checkpoints. Only time spent inside
 * the replica is measured; the peers' signing is excluded. A benchmark, not a test: it writes
 * {@code perf/results/engine.csv} and never fails on a timing.
 *
 * <p>Usage: {@code scripts/bench-engine [--authentication signatures|macs] [requests] [batch sizes...]}
 * (default 100000, batches 1 16 64). With macs the peers' prepares and commits carry their authenticators
 * (made outside the timing) and the rows go to {@code perf/results/engine-macs.csv}; every row also gives the
 * signature verifications the replica made per request.
 *
 * <p>With {@code --random CONFIGS} (see {@link RandomBench}) every request is randomized and the replica also
 * does its part of the CT or BA algorithm (integrity paper §4, §5), the peers' messages for it made outside
 * the timing by {@link RandomPeers}; the rows go to {@code perf/results/engine-random.csv}.
 */
public final class EngineBench {
  private static final int CLIENTS = 64;

  private final GroupConfig cfg;
  private final Map<Integer, Signer> signers = new HashMap<>();
  private final Verifier verifier;
  /** With MAC authentication: the authenticators of replicas 0..n-1; null with signatures. */
  private final Authenticators[] macs;
  /** Signature verifications the replica made. */
  long verifications;
  final Replica replica;
  private final RandomPeers peers;
  private final long[] nextNumber = new long[CLIENTS];
  private long seq;
  long nanos;
  long executed;

  EngineBench(int batch, Authentication authentication) {
    this(batch, false, null, authentication);
  }

  /** {@code random}: the peers of a group with randomness (null: none, requests not randomized). */
  EngineBench(int batch, boolean coinPerBatch, java.util.function.Function<Map<Integer, Signer>, RandomPeers> random) {
    this(batch, coinPerBatch, random, Authentication.SIGNATURES);
  }

  private EngineBench(int batch, boolean coinPerBatch,
      java.util.function.Function<Map<Integer, Signer>, RandomPeers> random, Authentication authentication) {
    cfg = GroupConfig.builder().set(GroupConfig.MAX_BATCH_SIZE, batch).set(GroupConfig.CHECKPOINT_INTERVAL, 128)
        .set(GroupConfig.LOG_WINDOW, 256).set(GroupConfig.COIN_PER_BATCH, coinPerBatch).build();
    Map<Integer, Ed25519PublicKeyParameters> pub = new HashMap<>();
    Map<Integer, Ed25519PrivateKeyParameters> priv = new HashMap<>();
    for (int node = 0; node < cfg.n() + CLIENTS; node++) {
      byte[] seed = new byte[32];
      seed[0] = (byte) node;
      seed[1] = (byte) (node >> 8);
      Ed25519PrivateKeyParameters k = new Ed25519PrivateKeyParameters(seed, 0);
      pub.put(node, k.generatePublicKey());
      priv.put(node, k);
      signers.put(node, Ed25519.signer(k));
    }
    Verifier real = Ed25519.verifier(pub);
    verifier = (node, data, signature) -> {
      verifications++;
      return real.verify(node, data, signature);
    };
    macs = authentication == Authentication.MACS ? new Authenticators[cfg.n()] : null;
    for (int i = 0; macs != null && i < cfg.n(); i++) {
      Map<Integer, Ed25519PublicKeyParameters> replicas = new HashMap<>();
      for (int j = 0; j < cfg.n(); j++) {
        replicas.put(j, pub.get(j));
      }
      macs[i] = new Authenticators(i, priv.get(i), replicas);
    }
    peers = random == null ? null : random.apply(signers);
    replica = Replica.builder(cfg, 1, signers.get(1), verifier).role(org.bftws.core.pbft.Role.BOTH)
        .randomness(peers == null ? org.bftws.core.pbft.RandomnessConfig.none() : peers.config(1))
        .macs(macs == null ? null : macs[1]).build();
  }

  /** A peer's prepare or commit as it sends it: with its authenticator under MAC authentication. */
  private byte[] vote(Kind kind, int sender, byte[] vote) {
    Signed s = Signed.sign(kind, sender, vote, signers.get(sender));
    return macs == null ? s.encode() : Signed.wire(s, macs[sender].authenticator(s.digest()));
  }

  private final List<Ready> produced = new ArrayList<>();
  private final EchoService service = new EchoService(requests -> executed += requests);

  private static final java.lang.management.ThreadMXBean THREADS = java.lang.management.ManagementFactory.getThreadMXBean();
  /** CPU time of this thread inside the replica: robust to other load on a shared machine. */
  long cpuNanos;

  private void step(byte[] bytes) {
    long c0 = THREADS.getCurrentThreadCpuTime();
    long t0 = System.nanoTime();
    Ready r = replica.receive(bytes);
    perform(r);
    nanos += System.nanoTime() - t0;
    cpuNanos += THREADS.getCurrentThreadCpuTime() - c0;
  }

  private void perform(Ready r) {
    produced.add(r);
    EffectPerformer.perform(replica, r.effects, service, this::perform);
  }

  /** One batch of the normal case, as the backup sees it (Castro-Liskov §4.2). */
  void batch(int size, byte[] operation) {
    long executedBefore = executed;
    List<Signed> requests = new ArrayList<>(size);
    for (int i = 0; i < size; i++) {
      int c = (int) ((seq * size + i) % CLIENTS);
      int client = cfg.n() + c;
      Request q = new Request(client, "urn:uuid:bench-" + c, ++nextNumber[c], peers != null && peers.randomized(), operation);
      requests.add(Signed.sign(Kind.REQUEST, client, q.encode(), signers.get(client)));
    }
    seq++;
    PrePrepare pp = PrePrepare.of(0, seq, requests);
    if (peers != null) {
      pp = peers.inPrePrepare(pp);
    }
    byte[] ppBytes = Signed.sign(Kind.PRE_PREPARE, 0, pp.encode(), signers.get(0)).encode();
    for (Signed q : requests) {
      step(q.encode());
    }
    step(ppBytes);
    // BA: prepares and commits are on d' = D(d || R), known once the set (and reveals) arrived.
    byte[] d = peers == null ? pp.digest() : peers.afterPrePrepare(pp, this::ownPpUpdate, this::step);
    byte[] vote = new Vote(0, seq, d).encode();
    List<byte[]> prepares = List.of(vote(Kind.PREPARE, 2, vote), vote(Kind.PREPARE, 3, vote));
    List<byte[]> commits = new ArrayList<>();
    for (int j : new int[] {0, 2, 3}) {
      commits.add(vote(Kind.COMMIT, j, vote));
    }
    prepares.forEach(this::step);
    commits.forEach(this::step);
    if (peers != null) {
      peers.coinShares(pp).forEach(this::step);
    }
    if (executed != executedBefore + size) {
      throw new IllegalStateException("batch " + seq + " did not execute: " + replica.describe());
    }
    byte[] cp = ownCheckpointBody();
    if (cp != null) {
      // The other replicas executed the same and vote for the same digest (§4.3).
      for (int j : new int[] {0, 2}) {
        step(Signed.sign(Kind.CHECKPOINT, j, cp, signers.get(j)).encode());
      }
    }
  }

  /** Our own BA pp-update of this type among what the batch's steps produced (looked at outside the timing). */
  private Signed ownPpUpdate(PpUpdate.Type type) {
    for (Ready r : produced) {
      for (Ready.Outbound m : r.messages) {
        if (m.to() != Ready.ALL_REPLICAS) {
          continue; // replies to clients
        }
        Signed s = Signed.decode(m.bytes());
        if (s.kind() == Kind.PP_UPDATE && PpUpdate.decode(s.body()).type() == type) {
          return s;
        }
      }
    }
    throw new IllegalStateException("replica 1 sent no " + type);
  }

  /** Our own checkpoint vote among what the last steps produced (looked at outside the timing). */
  private byte[] ownCheckpointBody() {
    byte[] body = null;
    for (Ready r : produced) {
      for (Ready.Outbound m : r.messages) {
        if (m.to() == Ready.ALL_REPLICAS && m.bytes().length < 200) {
          Signed s = Signed.decode(m.bytes());
          if (s.kind() == Kind.CHECKPOINT) {
            body = s.body();
          }
        }
      }
    }
    produced.clear();
    return body;
  }

  public static void main(String[] args) throws IOException {
    if (args.length > 0 && (args[0].equals("--ordering") || args[0].equals("--memory"))) {
      AsyncBench.main(args);
      return;
    }
    Authentication authentication = Authentication.SIGNATURES;
    if (args.length > 1 && args[0].equals("--authentication")) {
      authentication = Authentication.parse(args[1]);
      args = java.util.Arrays.copyOfRange(args, 2, args.length);
    }
    if (args.length > 0 && args[0].startsWith("--")) {
      RandomBench.main(args);
      return;
    }
    long requests = args.length > 0 ? Long.parseLong(args[0]) : 100_000;
    int[] batches = args.length > 1 ? java.util.Arrays.stream(args, 1, args.length).mapToInt(Integer::parseInt).toArray()
        : new int[] {1, 16, 64};
    Path out = Path.of(System.getProperty("bench.out",
        authentication == Authentication.MACS ? "perf/results/engine-macs.csv" : "perf/results/engine.csv"));
    Files.createDirectories(out.getParent());
    try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(out))) {
      w.println("batch_size,requests,wall_seconds,requests_per_second_wall,cpu_seconds,requests_per_cpu_second,heap_mb_start,heap_mb_end,log_size_end,java,cores,authentication,verifications_per_request");
      for (int b : batches) {
        run(b, Math.min(requests, 20_000), null, authentication); // warm-up
        String row = run(b, requests, w, authentication);
        System.out.println(row);
      }
    }
    System.out.println("wrote " + out);
  }

  private static String run(int batch, long requests, PrintWriter w, Authentication authentication) {
    EngineBench bench = new EngineBench(batch, authentication);
    byte[] op = new byte[1024];
    long heapStart = heapMb();
    long sampleEvery = Math.max(requests / 10, 1);
    long nextSample = sampleEvery;
    StringBuilder samples = new StringBuilder();
    while (bench.executed < requests) {
      bench.batch(batch, op);
      if (w != null && bench.executed >= nextSample) {
        samples.append(' ').append(bench.executed / 1000).append("k:").append(heapMb()).append("MB/log")
            .append(bench.replica.logSize());
        nextSample += sampleEvery;
      }
    }
    if (w != null) {
      System.out.println("heap after GC (batch " + batch + "):" + samples);
    }
    long heapEnd = heapMb();
    double s = bench.nanos / 1e9;
    double cpu = bench.cpuNanos / 1e9;
    String row = String.format("%d,%d,%.3f,%.0f,%.3f,%.0f,%d,%d,%d,%s,%d,%s,%.2f", batch, bench.executed, s,
        bench.executed / s, cpu, bench.executed / cpu, heapStart, heapEnd, bench.replica.logSize(),
        System.getProperty("java.version"), Runtime.getRuntime().availableProcessors(), authentication.label(),
        (double) bench.verifications / bench.executed);
    if (w != null) {
      w.println(row);
      w.flush();
    }
    return row;
  }

  private static long heapMb() {
    System.gc();
    Runtime rt = Runtime.getRuntime();
    return (rt.totalMemory() - rt.freeMemory()) >> 20;
  }
}
