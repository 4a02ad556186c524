package org.bftws.sim.bench;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.bftws.core.crypto.threshold.SchemeId;
import org.bftws.sim.Byzantine;
import org.bftws.sim.SimOptions;
import org.bftws.sim.SimResult;
import org.bftws.sim.Simulation;

/**
 * What the BA algorithm and its hardened variant cost on the simulator's ordering path, against no
 * randomness and the CT algorithm: replica messages and BA pp-updates per committed request, and the mean
 * ticks from issue to delivery (all requests; and those issued after the heal, on a reliable network with
 * link delays of 1..maxDelay ticks — the protocol's own message delays). Same seeds for every algorithm, no
 * Byzantine replica; about half the requests are randomized (none with {@code none}). A benchmark, not a
 * test: it writes {@code perf/results/ba-cost.csv}.
 *
 * <p>Usage: {@code scripts/bench-ba-bias --cost [seeds]} (default 30).
 */
public final class BaCost {
  private BaCost() {}

  public static void main(String[] args) throws IOException {
    int seeds = args.length > 0 ? Integer.parseInt(args[0]) : 30;
    Path out = Path.of("perf/results/ba-cost.csv");
    Files.createDirectories(out.getParent());
    try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(out))) {
      w.println("random,f,seeds,requests_committed,messages_per_request,pp_updates_per_request,"
          + "mean_latency_ticks,mean_latency_after_heal_ticks,view_changes,violations");
      for (SimOptions.Randomness ra : SimOptions.Randomness.values()) {
        long committed = 0;
        long messages = 0;
        long ppUpdates = 0;
        double latency = 0;
        double healed = 0;
        int healedRuns = 0;
        long viewChanges = 0;
        long violations = 0;
        for (long seed = 1; seed <= seeds; seed++) {
          SimResult r = Simulation.run(SimOptions.of(seed, Byzantine.NONE).withRandom(ra, SchemeId.CKS, false));
          committed += r.requestsCommitted();
          messages += r.traffic().messages();
          ppUpdates += r.traffic().ppUpdates();
          latency += r.traffic().meanLatency();
          if (r.traffic().meanLatencyHealed() > 0) {
            healed += r.traffic().meanLatencyHealed();
            healedRuns++;
          }
          viewChanges += r.viewChanges();
          violations += r.violations().size();
        }
        String line = String.format(Locale.ROOT, "%s,1,%d,%d,%.1f,%.1f,%.1f,%.1f,%d,%d", ra.label(), seeds, committed,
            (double) messages / committed, (double) ppUpdates / committed, latency / seeds,
            healedRuns == 0 ? 0 : healed / healedRuns, viewChanges, violations);
        w.println(line);
        System.out.println(line);
      }
    }
    System.out.println("wrote " + out.toAbsolutePath());
  }
}
