package org.bftws.sim.bench;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.bftws.sim.Byzantine;
import org.bftws.sim.SimOptions;
import org.bftws.sim.SimResult;
import org.bftws.sim.Simulation;

/**
 * The slow-primary attack (Aardvark, NSDI'09): the primary — under PBFT the primary of the current view, so
 * each new primary in turn; under asynchronous ordering replica 0, which has no special role — delays every
 * message it sends by {@code D} ticks, just under the view-change timeout (200 ticks), so PBFT's backups
 * never suspect it. Delivered requests per virtual second for PBFT and for SINTRA's atomic broadcast, side by
 * side, on the simulator's steady network (messages take 1..{@code linkDelay} ticks; no loss or crash) with
 * closed-loop clients. A virtual second is {@value #TICK_MILLIS} ms ticks, the module's default
 * {@code bftws.tickMillis}. A benchmark, not a test: it writes {@code perf/results/slow-primary.csv} and never
 * fails on a figure.
 *
 * <p>Usage: {@code scripts/bench-slow-primary [--delays 0,60,120,180] [--seeds N] [--clients C]
 * [--requests R] [--link-delay TICKS] [--out FILE]}.
 */
public final class SlowPrimaryBench {
  /** Milliseconds per tick: {@code bftws.tickMillis}'s default. */
  static final int TICK_MILLIS = 20;

  /** One (ordering, delay) cell, summed over its seeds. */
  record Row(SimOptions.Ordering ordering, int delay, int seeds, long delivered, long ticks, long viewChanges,
      double meanLatency, long messages, int violations) {
    double perVirtualSecond() {
      return ticks == 0 ? 0 : delivered / (ticks * TICK_MILLIS / 1000.0);
    }
  }

  private SlowPrimaryBench() {
  }

  /** Runs every ordering at every delay over seeds 1..seeds on a steady network. */
  static List<Row> measure(int[] delays, int seeds, int clients, int requests, int linkDelay) {
    List<Row> rows = new ArrayList<>();
    for (int delay : delays) {
      for (SimOptions.Ordering ordering : SimOptions.Ordering.values()) {
        long delivered = 0;
        long ticks = 0;
        long viewChanges = 0;
        long messages = 0;
        double latency = 0;
        int violations = 0;
        for (int seed = 1; seed <= seeds; seed++) {
          SimOptions o = new SimOptions(seed, 1, clients, requests, Byzantine.SLOW).withOrdering(ordering)
              .withSlowDelay(delay);
          SimResult r = Simulation.runSteady(o, linkDelay);
          delivered += r.requestsDelivered();
          ticks += r.endTime();
          viewChanges += r.viewChanges();
          messages += r.traffic().messages();
          latency += r.traffic().meanLatency();
          violations += r.violations().size();
        }
        rows.add(new Row(ordering, delay, seeds, delivered, ticks, viewChanges, latency / seeds, messages, violations));
      }
    }
    return rows;
  }

  static void write(Path out, List<Row> rows, int clients, int linkDelay) throws IOException {
    Files.createDirectories(out.toAbsolutePath().getParent());
    try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(out))) {
      w.println("ordering,slow_delay_ticks,link_delay_ticks,clients,seeds,delivered,virtual_seconds,"
          + "requests_per_virtual_second,mean_latency_ticks,view_changes,messages_per_request,violations,"
          + "async_to_pbft");
      for (Row r : rows) {
        Row pbft = rows.stream().filter(x -> x.delay() == r.delay() && x.ordering() == SimOptions.Ordering.PBFT)
            .findFirst().orElseThrow();
        String ratio = r.ordering() == SimOptions.Ordering.ASYNC && pbft.perVirtualSecond() > 0
            ? String.format(Locale.ROOT, "%.2f", r.perVirtualSecond() / pbft.perVirtualSecond()) : "";
        w.println(String.format(Locale.ROOT, "%s,%d,%d,%d,%d,%d,%.2f,%.2f,%.1f,%d,%.1f,%d,%s", r.ordering().label(),
            r.delay(), linkDelay, clients, r.seeds(), r.delivered(), r.ticks() * TICK_MILLIS / 1000.0,
            r.perVirtualSecond(), r.meanLatency(), r.viewChanges(),
            r.delivered() == 0 ? 0.0 : (double) r.messages() / r.delivered(), r.violations(), ratio));
      }
    }
  }

  public static void main(String[] args) throws IOException {
    int[] delays = {0, 60, 120, 180};
    int seeds = 3;
    int clients = 8;
    int requests = 400;
    int linkDelay = 2;
    Path out = Path.of("perf/results/slow-primary.csv");
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--delays" -> delays = java.util.Arrays.stream(args[++i].split(",")).mapToInt(Integer::parseInt).toArray();
        case "--seeds" -> seeds = Integer.parseInt(args[++i]);
        case "--clients" -> clients = Integer.parseInt(args[++i]);
        case "--requests" -> requests = Integer.parseInt(args[++i]);
        case "--link-delay" -> linkDelay = Integer.parseInt(args[++i]);
        case "--out" -> out = Path.of(args[++i]);
        default -> {
          System.err.println("usage: SlowPrimaryBench [--delays 0,60,120,180] [--seeds N] [--clients C]"
              + " [--requests R] [--link-delay TICKS] [--out FILE]");
          System.exit(2);
        }
      }
    }
    List<Row> rows = measure(delays, seeds, clients, requests, linkDelay);
    for (Row r : rows) {
      System.err.println(String.format(Locale.ROOT, "%-5s delay=%3d: %.1f requests per virtual second, mean latency %.0f"
          + " ticks, %d view changes, %d violations", r.ordering().label(), r.delay(), r.perVirtualSecond(),
          r.meanLatency(), r.viewChanges(), r.violations()));
    }
    write(out, rows, clients, linkDelay);
    System.err.println("wrote " + out);
  }
}
