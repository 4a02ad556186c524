package org.bftws.sim.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import org.bftws.core.crypto.threshold.GroupKey;
import org.bftws.core.crypto.threshold.KeyShare;
import org.bftws.core.crypto.threshold.SchemeId;
import org.bftws.core.crypto.threshold.ThresholdParams;
import org.bftws.core.dkg.Dkg;
import org.bftws.core.dkg.DkgConfig;
import org.bftws.core.dkg.DkgMessage;
import org.bftws.core.dkg.DkgResult;
import org.bftws.core.dkg.ShareCipher;

/**
 * Benchmark (a tool, not part of the protocol: it reads the clock): the cost of the distributed key generation
 * and of a proactive refresh ({@code org.bftws.core.dkg}) at n = 4, 7, 10 (f = 1, 2, 3, k = f+1) for P-256
 * keys (CKS coin; TDH2 keys are the same computation) and BLS12-381 G2 keys, all replicas correct, messages
 * ordered first come first served in one process. Per replica: the time spent in its own state machine's calls (one thread; a wall clock, so a busy machine inflates it) over
 * the whole run (dealing, decrypting and checking shares, proofs, outputs) and bytes it submitted to the
 * ordering; per run: ordered DKG messages and their bytes. The ordering's own cost (PBFT's three phases, each
 * message multicast to n replicas) comes on top and is not measured here. Median of {@code --reps} runs.
 *
 * <pre>DkgBench [OUT.csv] [--reps 5] [--n 4,7,10]</pre>
 */
public final class DkgBench {
  private static final String HEADER =
      "scheme,n,f,k,op,replica_ms_mean,replica_ms_max,messages,bytes_ordered,bytes_per_replica,reps";

  private DkgBench() {}

  public static void main(String[] args) throws IOException {
    Path out = Path.of("perf/results/dkg.csv");
    int reps = 5;
    int[] ns = {4, 7, 10};
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--reps" -> reps = Integer.parseInt(args[++i]);
        case "--n" -> ns = Arrays.stream(args[++i].split(",")).mapToInt(Integer::parseInt).toArray();
        default -> out = Path.of(args[i]);
      }
    }
    List<String> rows = new ArrayList<>();
    rows.add(HEADER);
    for (int w = 0; w < 5; w++) { // warm-up: class loading (signed bcprov jar), JIT, blst's native library
      run(SchemeId.CKS, 7, 2, new SecureRandom());
      run(SchemeId.BLS, 7, 2, new SecureRandom());
    }
    for (SchemeId scheme : new SchemeId[] {SchemeId.CKS, SchemeId.BLS}) {
      for (int n : ns) {
        List<Run[]> runs = new ArrayList<>();
        for (int r = 0; r < reps; r++) {
          runs.add(run(scheme, n, (n - 1) / 3, new SecureRandom()));
        }
        for (int op = 0; op < 2; op++) {
          final int o = op;
          rows.add(row(scheme, n, op == 0 ? "dkg" : "refresh", runs.stream().map(x -> x[o]).toList()));
        }
        System.err.println(rows.get(rows.size() - 2) + "\n" + rows.get(rows.size() - 1));
      }
    }
    Files.createDirectories(out.toAbsolutePath().getParent());
    Files.writeString(out, String.join("\n", rows) + "\n", StandardCharsets.UTF_8);
    System.err.println("wrote " + out);
  }

  /** One run's figures. */
  private record Run(double replicaMsMean, double replicaMsMax, int messages, long bytes, double bytesPerReplica) {}

  private static String row(SchemeId scheme, int n, String op, List<Run> runs) {
    int f = (n - 1) / 3;
    return String.format(Locale.ROOT, "%s,%d,%d,%d,%s,%.1f,%.1f,%d,%d,%.0f,%d", scheme.label(), n, f, f + 1, op,
        median(runs.stream().mapToDouble(Run::replicaMsMean).toArray()),
        median(runs.stream().mapToDouble(Run::replicaMsMax).toArray()), runs.get(0).messages(),
        (long) median(runs.stream().mapToDouble(Run::bytes).toArray()),
        median(runs.stream().mapToDouble(Run::bytesPerReplica).toArray()), runs.size());
  }

  private static double median(double[] v) {
    double[] s = v.clone();
    Arrays.sort(s);
    return s[s.length / 2];
  }

  /** A DKG then a refresh of its key with all n replicas correct. */
  private static Run[] run(SchemeId scheme, int n, int f, SecureRandom random) {
    ThresholdParams p = ThresholdParams.forF(f);
    List<ShareCipher.KeyPair> keys = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      keys.add(ShareCipher.generate(random));
    }
    List<byte[]> pks = keys.stream().map(ShareCipher.KeyPair::publicKey).toList();
    byte[] session = "bench|epoch-1".getBytes(StandardCharsets.US_ASCII);
    DkgConfig gen = new DkgConfig(DkgConfig.Mode.GENERATE, scheme, session, p, p, pks, null);
    List<Dkg<?>> replicas = new ArrayList<>();
    for (int i = 1; i <= n; i++) {
      replicas.add(Dkg.create(gen, new Dkg.Member(i, i, keys.get(i - 1).secret(), null), random));
    }
    Outcome dkg = order(replicas);
    GroupKey group = dkg.results[0].group();
    DkgConfig refresh = new DkgConfig(DkgConfig.Mode.REFRESH, scheme, "bench|epoch-2".getBytes(StandardCharsets.US_ASCII),
        p, p, pks, group);
    List<Dkg<?>> again = new ArrayList<>();
    for (int i = 1; i <= n; i++) {
      KeyShare share = dkg.results[i - 1].share();
      again.add(Dkg.create(refresh, new Dkg.Member(i, i, keys.get(i - 1).secret(), share), random));
    }
    return new Run[] {dkg.run, order(again).run};
  }

  private record Outcome(Run run, DkgResult[] results) {}

  /** First come, first served: every submitted message is ordered and delivered to every replica. */
  private static Outcome order(List<Dkg<?>> replicas) {
    int n = replicas.size();
    long[] nanos = new long[n];
    long[] submitted = new long[n];
    DkgResult[] results = new DkgResult[n];
    Deque<byte[]> queue = new ArrayDeque<>();
    for (int i = 0; i < n; i++) {
      long t0 = System.nanoTime();
      Dkg.Step s = replicas.get(i).start();
      nanos[i] += System.nanoTime() - t0;
      submit(s, queue, submitted, i);
    }
    int messages = 0;
    long bytes = 0;
    while (!queue.isEmpty() && Arrays.stream(results).anyMatch(r -> r == null)) {
      byte[] encoded = queue.poll();
      messages++;
      bytes += encoded.length;
      for (int i = 0; i < n; i++) {
        long t0 = System.nanoTime();
        Dkg.Step s = replicas.get(i).deliver(DkgMessage.decode(encoded));
        nanos[i] += System.nanoTime() - t0;
        if (s.output() != null) {
          results[i] = s.output();
        }
        submit(s, queue, submitted, i);
      }
    }
    if (Arrays.stream(results).anyMatch(r -> r == null)) {
      throw new IllegalStateException("a replica did not finish");
    }
    double mean = Arrays.stream(nanos).average().orElse(0) / 1e6;
    double max = Arrays.stream(nanos).max().orElse(0) / 1e6;
    return new Outcome(new Run(mean, max, messages, bytes, Arrays.stream(submitted).average().orElse(0)), results);
  }

  private static void submit(Dkg.Step s, Deque<byte[]> queue, long[] submitted, int i) {
    for (DkgMessage m : s.toOrder()) {
      byte[] e = m.encode();
      submitted[i] += e.length;
      queue.add(e);
    }
  }
}
