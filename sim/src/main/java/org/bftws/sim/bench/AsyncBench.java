package org.bftws.sim.bench;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.bftws.core.async.AsyncReplica;
import org.bftws.core.config.GroupConfig;
import org.bftws.core.crypto.threshold.CoinCounts;
import org.bftws.sim.bench.EngineGroup.Ordering;

/**
 * PBFT's and SINTRA's ordering engines side by side, each as a whole in-process group ({@link EngineGroup}):
 * <pre>
 * scripts/bench-engine --ordering pbft,async [--batches 16,64] [--requests N]         → engine-async.csv
 * scripts/bench-engine --ordering pbft,async --counts [--schedule fifo,random] [--sizes 4,7,10] [--batches 16]
 *                                                                                      → engine-async-counts.csv
 * scripts/bench-engine --memory [--requests 1000000] [--batches 64] [--samples 50] [--operation-bytes 1024]
 *                                                                                      → engine-async-memory.csv
 * </pre>
 * Throughput: n = 4, requests per CPU-second of one replica (its own CPU time inside its calls), for the
 * busiest replica and replica 1, and async / PBFT at the same batch size. Counts: per delivered request,
 * messages and bytes between replicas (and of client requests and replies), coin operations, and the
 * rounds the agreements took. Memory: the async group for many requests, used heap after a full GC sampled
 * along the way with the channel's live instances, buffered messages and resend log. Benchmarks, never failing on a
 * timing; output into {@code perf/results/} (or {@code -Dbench.dir=}).
 */
final class AsyncBench {
  private static final int OPERATION_BYTES = 1024;
  private static final int CLIENTS_PER_BATCH = 4;
  private static final Pattern INSTANCES = Pattern.compile("instances=(\\d+)");

  private List<Ordering> orderings = List.of(Ordering.PBFT, Ordering.ASYNC);
  private List<Integer> sizes = List.of(4);
  private List<Integer> batches = List.of(16, 64);
  private long requests = -1;
  private int samples = 50;
  /** Throughput: closed-loop clients per batch of {@code bftws.maxBatchSize} (both engines alike). */
  private int clientsPerBatch = CLIENTS_PER_BATCH;
  private int operationBytes = OPERATION_BYTES;
  private List<String> schedules = List.of("fifo");
  private boolean counts;
  private boolean memory;
  private final Path dir = Path.of(System.getProperty("bench.dir", "perf/results"));

  private AsyncBench() {}

  static void main(String[] args) throws IOException {
    AsyncBench b = new AsyncBench();
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--ordering" -> b.orderings = Arrays.stream(args[++i].split(",")).map(Ordering::parse).toList();
        case "--sizes" -> b.sizes = ints(args[++i]);
        case "--batches" -> b.batches = ints(args[++i]);
        case "--requests" -> b.requests = Long.parseLong(args[++i]);
        case "--samples" -> b.samples = Integer.parseInt(args[++i]);
        case "--operation-bytes" -> b.operationBytes = Integer.parseInt(args[++i]);
        case "--counts" -> b.counts = true;
        case "--schedule" -> b.schedules = Arrays.stream(args[++i].split(",")).map(String::trim).toList();
        case "--memory" -> b.memory = true;
        case "--clients-per-batch" -> b.clientsPerBatch = Integer.parseInt(args[++i]);
        default -> throw new IllegalArgumentException("unknown argument " + args[i] + " (usage: --ordering pbft,async"
            + " [--counts [--schedule fifo,random]] [--sizes 4,7,10] [--batches 16,64] [--requests N] [--clients-per-batch 4] | --memory [--requests N] [--samples 50])");
      }
    }
    Files.createDirectories(b.dir);
    if (b.memory) {
      b.memory(b.requests < 0 ? 1_000_000 : b.requests, b.batches.get(b.batches.size() - 1));
    } else if (b.counts) {
      b.counts(b.requests < 0 ? 2_000 : b.requests);
    } else {
      b.throughput(b.requests < 0 ? 20_000 : b.requests);
    }
  }

  private static List<Integer> ints(String csv) {
    return Arrays.stream(csv.split(",")).map(String::trim).map(Integer::valueOf).toList();
  }

  static EngineGroup group(Ordering o, int n, int batch, boolean agreements) {
    return group(o, n, batch, agreements, false);
  }

  /** Four batches' worth of closed-loop clients: batches stay full while earlier ones are ordered. */
  static EngineGroup group(Ordering o, int n, int batch, boolean agreements, boolean randomSchedule) {
    return group(o, n, batch, agreements, randomSchedule, OPERATION_BYTES);
  }

  static EngineGroup group(Ordering o, int n, int batch, boolean agreements, boolean randomSchedule,
      int operationBytes) {
    return new EngineGroup(o, (n - 1) / 3, batch, CLIENTS_PER_BATCH * batch, operationBytes, agreements,
        randomSchedule);
  }

  // ---------------------------------------------------------------- throughput

  static final String THROUGHPUT_HEADER = "ordering,n,batch_size,clients,requests,rounds,requests_per_round,"
      + "cpu_seconds_replica1,requests_per_cpu_second_replica1,busiest_replica,cpu_seconds_busiest,"
      + "requests_per_cpu_second_busiest,cpu_us_per_request_busiest,async_to_pbft_busiest,async_to_pbft_replica1,"
      + "wall_seconds,java,cores";

  private void throughput(long count) throws IOException {
    Path out = dir.resolve("engine-async.csv");
    try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(out))) {
      w.println(THROUGHPUT_HEADER);
      for (int n : sizes) {
        for (int batch : batches) {
          Map<Ordering, EngineGroup> runs = new HashMap<>();
          for (Ordering o : orderings) {
            int clients = clientsPerBatch * batch;
            new EngineGroup(o, (n - 1) / 3, batch, clients, OPERATION_BYTES, false, false)
                .run(Math.max(count / 5, 4L * batch), null); // warm-up
            long t0 = System.nanoTime();
            EngineGroup g = new EngineGroup(o, (n - 1) / 3, batch, clients, OPERATION_BYTES, false, false);
            g.run(count, null);
            runs.put(o, g);
            String row = throughputRow(g, (System.nanoTime() - t0) / 1e9, runs.get(Ordering.PBFT));
            w.println(row);
            w.flush();
            System.out.println(row);
          }
        }
      }
    }
    System.out.println("wrote " + out);
  }

  static int busiest(EngineGroup g) {
    int b = 0;
    for (int i = 1; i < g.n; i++) {
      if (g.cpuNanos[i] > g.cpuNanos[b]) {
        b = i;
      }
    }
    return b;
  }

  static String throughputRow(EngineGroup g, double wall, EngineGroup pbft) {
    int b = busiest(g);
    double req = g.executed[0];
    String vsBusiest = "";
    String vsReplica1 = "";
    if (g.ordering == Ordering.ASYNC && pbft != null) {
      vsBusiest = fmt("%.3f", (double) pbft.cpuNanos[busiest(pbft)] / g.cpuNanos[b]);
      vsReplica1 = fmt("%.3f", (double) pbft.cpuNanos[1] / g.cpuNanos[1]);
    }
    long rounds = g.engines[0].lastExecuted();
    return fmt("%s,%d,%d,%d,%d,%d,%.1f,%.3f,%.0f,%d,%.3f,%.0f,%.1f,%s,%s,%.1f,%s,%d", g.ordering.label(), g.n,
        g.cfg.get(GroupConfig.MAX_BATCH_SIZE), g.clients, (long) req, rounds, req / rounds,
        g.cpuNanos[1] / 1e9, req / (g.cpuNanos[1] / 1e9), b, g.cpuNanos[b] / 1e9, req / (g.cpuNanos[b] / 1e9),
        g.cpuNanos[b] / 1e3 / req, vsBusiest, vsReplica1, wall, System.getProperty("java.version"),
        Runtime.getRuntime().availableProcessors());
  }

  // ---------------------------------------------------------------- counts

  static final String COUNTS_HEADER = "ordering,schedule,n,f,batch_size,requests,rounds,requests_per_round,"
      + "peer_messages_per_request,peer_bytes_per_request,peer_messages_per_round,request_messages_per_request,"
      + "reply_messages_per_request,reply_bytes_per_request,coin_shares_per_request,coin_share_checks_per_request,"
      + "coin_combines_per_request,coin_combined_checks_per_request,coin_messages_per_request,"
      + "coin_shares_per_round,mvba_candidates_per_round,aba_rounds_mean,aba_rounds_max,"
      + "signatures_made_per_request_replica1,signatures_checked_per_request_replica1,kb_signed_per_request_replica1,"
      + "kb_checked_per_request_replica1";

  private void counts(long count) throws IOException {
    Path out = dir.resolve("engine-async-counts.csv");
    try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(out))) {
      w.println(COUNTS_HEADER);
      for (String schedule : schedules) {
        for (int n : sizes) {
          for (int batch : batches) {
            for (Ordering o : orderings) {
              EngineGroup g = group(o, n, batch, true, schedule.equals("random"));
              g.run(count, null);
              String row = countsRow(g, schedule);
              w.println(row);
              w.flush();
              System.out.println(row);
              System.out.println("  per request, messages/KB by kind and protocol: " + breakdown(g));
            }
          }
        }
      }
    }
    System.out.println("wrote " + out);
  }

  static String countsRow(EngineGroup g, String schedule) {
    Traffic t = g.traffic;
    double req = g.executed[0];
    long rounds = g.engines[0].lastExecuted();
    CoinCounts c = g.coins;
    EngineGroup.Signatures s = g.signatures[1];
    return fmt("%s,%s,%d,%d,%d,%d,%d,%.1f,%.2f,%.0f,%.1f,%.2f,%.2f,%.0f,%s,%s,%s,%s,%s,%s,%s,%s,%s",
        g.ordering.label(), schedule, g.n, g.f, g.cfg.get(GroupConfig.MAX_BATCH_SIZE), (long) req, rounds, req / rounds,
        t.peers.messages / req, t.peers.bytes / req, t.peers.messages / (double) rounds, t.requests.messages / req,
        t.replies.messages / req, t.replies.bytes / req,
        perRequest(c == null ? 0 : c.sharesMade(), req), perRequest(c == null ? 0 : c.sharesVerified(), req),
        perRequest(c == null ? 0 : c.combined(), req), perRequest(c == null ? 0 : c.combinedVerified(), req),
        perRequest(t.coinMessages, req), fmt("%.2f", c == null ? 0 : c.sharesMade() / (double) rounds),
        g.ordering == Ordering.ASYNC ? fmt("%.2f", t.meanCandidates()) : "",
        g.ordering == Ordering.ASYNC ? fmt("%.2f", t.meanAgreementRounds()) : "",
        g.ordering == Ordering.ASYNC ? Long.toString(t.maxAgreementRounds()) : "")
        + fmt(",%.2f,%.2f,%.1f,%.1f", s.signed / req, s.verified / req, s.signedBytes / req / 1024,
            s.verifiedBytes / req / 1024);
  }

  private static String perRequest(long count, double requests) {
    return fmt("%.3f", count / requests);
  }

  /**
   * Messages and KB per request by envelope kind, and for SINTRA by protocol and binary-agreement message:
   * where the bytes that every envelope signature hashes come from.
   */
  static String breakdown(EngineGroup g) {
    double req = g.executed[0];
    StringBuilder sb = new StringBuilder();
    g.traffic.byKind.forEach((k, c) -> sb.append(k).append('=').append(perRequest(c, req)).append(' '));
    g.traffic.byProtocol.forEach((p, c) -> sb.append('[').append(p).append("]=").append(perRequest(c, req)).append(' '));
    return sb.toString().trim();
  }

  private static String perRequest(Traffic.Count c, double requests) {
    return fmt("%.2f/%.1fKB", c.messages / requests, c.bytes / requests / 1024);
  }

  // ---------------------------------------------------------------- memory

  static final String MEMORY_HEADER = "requests,batch_size,operation_bytes,round,heap_used_mb_after_gc,"
      + "router_instances,router_buffered,resend_log_envelopes,pending_requests,stable_checkpoint,cpu_seconds_group";

  private void memory(long count, int batch) throws IOException {
    Path out = dir.resolve("engine-async-memory.csv");
    EngineGroup g = group(Ordering.ASYNC, sizes.get(0), batch, false, false, operationBytes);
    long every = Math.max(count / samples, 1);
    try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(out))) {
      w.println(MEMORY_HEADER);
      String first = memoryRow(g);
      w.println(first);
      System.out.println(MEMORY_HEADER);
      System.out.println(first);
      while (g.sent() < count) {
        g.run(Math.min(every, count - g.sent()), null);
        String row = memoryRow(g);
        w.println(row);
        w.flush();
        System.out.println(row);
      }
    }
    System.out.println("wrote " + out);
  }

  static String memoryRow(EngineGroup g) {
    AsyncReplica r = (AsyncReplica) g.engines[0];
    Matcher m = INSTANCES.matcher(r.describe());
    long cpu = Arrays.stream(g.cpuNanos).sum();
    return fmt("%d,%d,%d,%d,%.1f,%s,%d,%d,%d,%d,%.1f", g.executed[0], g.cfg.get(GroupConfig.MAX_BATCH_SIZE),
        g.operationBytes(), r.deliveredRound(), heapAfterGcMb(), m.find() ? m.group(1) : "", r.buffered(),
        r.resendLog(), r.pendingRequests(), r.stableCheckpoint(), cpu / 1e9);
  }

  static double heapAfterGcMb() {
    System.gc();
    System.gc();
    Runtime rt = Runtime.getRuntime();
    return (rt.totalMemory() - rt.freeMemory()) / (1024.0 * 1024.0);
  }

  private static String fmt(String format, Object... args) {
    return String.format(Locale.ROOT, format, args);
  }
}
