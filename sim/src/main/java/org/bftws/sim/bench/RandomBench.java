package org.bftws.sim.bench;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.bftws.core.crypto.threshold.SchemeId;
import org.bftws.core.pbft.RandomnessConfig.Algorithm;

/**
 * The engine's per-request cost with collective randomness (the target: at ≥ 128-bit security CT adds
 * ≤ 10 % and BA ≤ 15 % with one request per batch), measured like {@link EngineBench}: CPU time of one
 * backup inside the engine, every signature, share and proof real. Every request is randomized.
 *
 * <pre>
 * scripts/bench-engine --random none,ct,ct-bls,ct-per-batch,ba,ba-hardened [--requests N] [--batches 1,16,64]
 * </pre>
 * {@code ct} is the CKS coin on P-256 (128-bit), {@code ct-bls} threshold BLS12-381, {@code ct-per-batch}
 * CKS with one coin per batch ({@code bftws.coinPerBatch}). {@code none} always runs first per batch size:
 * the overhead column is relative to it. Output: {@code perf/results/engine-random.csv}.
 */
final class RandomBench {
  /** One configuration of the CSV's {@code random} column. */
  record Config(String label, Algorithm algorithm, SchemeId scheme, boolean perBatch) {
    static Config parse(String s) {
      return switch (s) {
        case "none" -> new Config(s, Algorithm.NONE, null, false);
        case "ct", "ct-cks" -> new Config("ct", Algorithm.CT, SchemeId.CKS, false);
        case "ct-bls" -> new Config(s, Algorithm.CT, SchemeId.BLS, false);
        case "ct-per-batch" -> new Config(s, Algorithm.CT, SchemeId.CKS, true);
        case "ba" -> new Config(s, Algorithm.BA, null, false);
        case "ba-hardened" -> new Config(s, Algorithm.BA_HARDENED, null, false);
        default -> throw new IllegalArgumentException("unknown --random configuration " + s
            + " (none, ct, ct-bls, ct-per-batch, ba, ba-hardened)");
      };
    }

    EngineBench bench(int batch) {
      return new EngineBench(batch, perBatch, algorithm == Algorithm.NONE ? null
          : signers -> new RandomPeers(algorithm, scheme, perBatch, signers));
    }
  }

  private RandomBench() {}

  static void main(String[] args) throws IOException {
    List<Config> configs = new ArrayList<>(List.of(Config.parse("none")));
    long requests = 10_000;
    List<Integer> batches = List.of(1, 16, 64);
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--random" -> {
          for (String c : args[++i].split(",")) {
            Config parsed = Config.parse(c.trim());
            if (parsed.algorithm() != Algorithm.NONE) {
              configs.add(parsed);
            }
          }
        }
        case "--requests" -> requests = Long.parseLong(args[++i]);
        case "--batches" -> batches = java.util.Arrays.stream(args[++i].split(",")).map(Integer::valueOf).toList();
        default -> throw new IllegalArgumentException("unknown argument " + args[i]
            + " (usage: --random none,ct,ct-bls,ct-per-batch,ba,ba-hardened [--requests N] [--batches 1,16,64])");
      }
    }
    Path out = Path.of(System.getProperty("bench.out", "perf/results/engine-random.csv"));
    Files.createDirectories(out.getParent());
    try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(out))) {
      w.println("random,scheme,coin_per_batch,batch_size,requests,cpu_seconds,requests_per_cpu_second,"
          + "cpu_us_per_request,overhead_vs_none_percent,java,cores");
      for (int b : batches) {
        Map<String, Double> perRequest = new HashMap<>();
        for (Config c : configs) {
          if (c.perBatch() && b == 1) {
            continue; // one coin per batch of one is the per-request coin
          }
          measure(c, b, Math.max(requests / 5, 200)); // warm-up
          String row = row(c, b, measure(c, b, requests), perRequest);
          w.println(row);
          w.flush();
          System.out.println(row);
        }
      }
    }
    System.out.println("wrote " + out);
  }

  private static EngineBench measure(Config c, int batch, long requests) {
    EngineBench bench = c.bench(batch);
    byte[] op = new byte[1024];
    while (bench.executed < requests) {
      bench.batch(batch, op);
    }
    return bench;
  }

  private static String row(Config c, int batch, EngineBench bench, Map<String, Double> perRequest) {
    double cpu = bench.cpuNanos / 1e9;
    double us = bench.cpuNanos / 1e3 / bench.executed;
    perRequest.put(c.label(), us);
    Double base = perRequest.get("none");
    String overhead = base == null || c.algorithm() == Algorithm.NONE ? "0.0"
        : String.format("%.1f", 100 * (us - base) / base);
    return String.format("%s,%s,%b,%d,%d,%.3f,%.0f,%.1f,%s,%s,%d", c.label(),
        c.scheme() == null ? "" : c.scheme().label(), c.perBatch(), batch, bench.executed, cpu, bench.executed / cpu,
        us, overhead, System.getProperty("java.version"), Runtime.getRuntime().availableProcessors());
  }
}
