package org.bftws.sim.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.bftws.sim.ReconfigureSimulation;

/**
 * Reconfiguration in logical time, on the simulator's steady network (messages take 1..4 ticks, nothing lost):
 * (1) the client-visible pause: the latency (ticks from issue to f + 1 matching replies) of the calls in flight
 * while a change goes from its submission to every member of the new epoch holding the state it began at, against
 * the calls away from it, p50 and p99, for an add, a remove and a replace; (2) the time of an add as the service's
 * state grows, with links that carry {@code --bytes-per-tick} bytes a tick (so the state transfer to the joiner
 * costs its size). A benchmark, not a test: it writes {@code perf/results/reconfigure-pause.csv} and {@code
 * perf/results/reconfigure-add.csv} and never fails on a figure.
 *
 * <p>Usage: {@code scripts/bench-reconfigure [--seeds N] [--clients C] [--requests R] [--bytes-per-tick B]
 * [--out DIR]}.
 */
public final class ReconfigureBench {
  /** One (action, seed) run's pause figures. */
  record Pause(String action, long seed, int around, double p50Around, double p99Around, int away, double p50Away,
      double p99Away, long changeTicks) {}

  /** One (state size, seed) add. */
  record Add(int stateBytes, long seed, long changeTicks, long endTime) {}

  private ReconfigureBench() {
  }

  static List<Pause> pauses(int seeds, int clients, int requests) {
    List<Pause> out = new ArrayList<>();
    for (String action : List.of("a", "ar", "p")) { // a remove needs 5 replicas first: the add's change is not measured
      for (long seed = 1; seed <= seeds; seed++) {
        ReconfigureSimulation.Result r = new ReconfigureSimulation(new ReconfigureSimulation.Options(seed, clients,
            requests, ReconfigureSimulation.Control.NONE, true, 0, 0, action)).run();
        if (!r.ok() || r.changes().isEmpty()) {
          throw new IllegalStateException("seed " + seed + " " + action + ": " + r.describe());
        }
        long[] change = r.changes().get(r.changes().size() - 1);
        List<Long> around = new ArrayList<>();
        List<Long> away = new ArrayList<>();
        for (long[] c : r.calls()) {
          if (overlaps(c, change)) {
            around.add(c[1] - c[0]);
          } else if (r.changes().stream().noneMatch(ch -> overlaps(c, ch))) {
            away.add(c[1] - c[0]);
          }
        }
        out.add(new Pause(label(action), seed, around.size(), percentile(around, 50), percentile(around, 99),
            away.size(), percentile(away, 50), percentile(away, 99), change[1] - change[0]));
      }
    }
    return out;
  }

  static List<Add> adds(int[] sizes, int seeds, int clients, int requests, int bytesPerTick) {
    List<Add> out = new ArrayList<>();
    for (int size : sizes) {
      for (long seed = 1; seed <= seeds; seed++) {
        ReconfigureSimulation.Result r = new ReconfigureSimulation(new ReconfigureSimulation.Options(seed, clients,
            requests, ReconfigureSimulation.Control.NONE, true, size, bytesPerTick, "a")).run();
        if (!r.ok() || r.changes().isEmpty()) {
          throw new IllegalStateException("seed " + seed + " state " + size + ": " + r.describe());
        }
        long[] change = r.changes().get(0);
        out.add(new Add(size, seed, change[1] - change[0], r.endTime()));
      }
    }
    return out;
  }

  private static boolean overlaps(long[] call, long[] change) {
    return call[1] >= change[0] && call[0] <= change[1];
  }

  private static String label(String plan) {
    return switch (plan) {
      case "a" -> "add";
      case "ar" -> "remove";
      default -> "replace";
    };
  }

  /** The p-th percentile (nearest rank) of xs; NaN when empty. */
  static double percentile(List<Long> xs, int p) {
    if (xs.isEmpty()) {
      return Double.NaN;
    }
    long[] a = xs.stream().mapToLong(Long::longValue).toArray();
    Arrays.sort(a);
    int rank = (int) Math.ceil(p / 100.0 * a.length);
    return a[Math.max(0, rank - 1)];
  }

  static void writePauses(Path csv, List<Pause> rows, int clients) throws IOException {
    List<String> lines = new ArrayList<>();
    lines.add("action,seed,clients,calls_around,p50_around_ticks,p99_around_ticks,calls_away,p50_away_ticks,"
        + "p99_away_ticks,change_ticks");
    for (Pause p : rows) {
      lines.add(String.format(Locale.ROOT, "%s,%d,%d,%d,%.0f,%.0f,%d,%.0f,%.0f,%d", p.action(), p.seed(), clients,
          p.around(), p.p50Around(), p.p99Around(), p.away(), p.p50Away(), p.p99Away(), p.changeTicks()));
    }
    Files.write(csv, lines);
  }

  static void writeAdds(Path csv, List<Add> rows, int bytesPerTick) throws IOException {
    List<String> lines = new ArrayList<>();
    lines.add("state_bytes,seed,bytes_per_tick,add_ticks");
    for (Add a : rows) {
      lines.add(a.stateBytes() + "," + a.seed() + "," + bytesPerTick + "," + a.changeTicks());
    }
    Files.write(csv, lines);
  }

  public static void main(String[] args) throws IOException {
    int seeds = 3;
    int clients = 4;
    int requests = 120;
    int bytesPerTick = 65_536;
    Path out = Path.of("perf/results");
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--seeds" -> seeds = Integer.parseInt(args[++i]);
        case "--clients" -> clients = Integer.parseInt(args[++i]);
        case "--requests" -> requests = Integer.parseInt(args[++i]);
        case "--bytes-per-tick" -> bytesPerTick = Integer.parseInt(args[++i]);
        case "--out" -> out = Path.of(args[++i]);
        default -> throw new IllegalArgumentException("unknown argument " + args[i]);
      }
    }
    Files.createDirectories(out);
    List<Pause> pauses = pauses(seeds, clients, requests);
    writePauses(out.resolve("reconfigure-pause.csv"), pauses, clients);
    pauses.forEach(System.out::println);
    int[] sizes = {0, 1 << 16, 1 << 18, 1 << 20, 1 << 22};
    List<Add> adds = adds(sizes, seeds, clients, requests, bytesPerTick);
    writeAdds(out.resolve("reconfigure-add.csv"), adds, bytesPerTick);
    adds.forEach(System.out::println);
  }
}
