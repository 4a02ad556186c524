package org.bftws.sim;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;
import org.bftws.core.crypto.Authentication;
import org.bftws.core.crypto.threshold.SchemeId;

/**
 * {@code scripts/simulate}: runs a range of seeds and prints, per failing seed, its summary, its first
 * violations (all of them with {@code --verbose}) and the command that replays it, then a summary line
 * {@code simulate: seeds=S runs_ok=R violations=V runs_thrown=T requests_committed=C}. A run that throws is a
 * failing seed too (its exception instead of violations). Exit status 0 iff no violation and no run threw —
 * except for the over-threshold negative control, where it is 0 iff violations were found (the checker can see
 * them) and no run threw.
 */
public final class Main {
  private Main() {}

  public static void main(String[] args) throws Exception {
    long from = 1;
    long to = 100;
    int replicas = 4;
    int clients = 3;
    int requests = 200;
    int threads = Math.max(1, Runtime.getRuntime().availableProcessors());
    boolean verbose = false;
    SimOptions.Randomness random = SimOptions.Randomness.NONE;
    SchemeId scheme = null;
    String keys = null;
    boolean coinPerBatch = false;
    boolean confidential = false;
    SimOptions.Restarts restarts = SimOptions.Restarts.PAUSE;
    Authentication authentication = Authentication.DEFAULT;
    SimOptions.Ordering ordering = SimOptions.Ordering.PBFT;
    int slowDelay = -1;
    SimOptions.Configuration configuration = SimOptions.Configuration.I;
    List<Byzantine> modes = new ArrayList<>(List.of(Byzantine.NONE));
    boolean reconfigure = false;
    boolean requestsGiven = false;
    boolean reconfigureControl = false;
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      switch (a) {
        case "--seeds" -> {
          String[] r = args[++i].split("\\.\\.");
          from = Long.parseLong(r[0]);
          to = r.length > 1 ? Long.parseLong(r[1]) : from;
        }
        case "--replicas" -> replicas = Integer.parseInt(args[++i]);
        case "--clients" -> clients = Integer.parseInt(args[++i]);
        case "--requests" -> {
          requests = Integer.parseInt(args[++i]);
          requestsGiven = true;
        }
        case "--threads" -> threads = Integer.parseInt(args[++i]);
        case "--byzantine" -> {
          modes.clear();
          for (String m : args[++i].split(",")) {
            modes.add(m.equals("all") ? null : Byzantine.parse(m));
          }
        }
        case "--random" -> random = SimOptions.Randomness.parse(args[++i]);
        case "--scheme" -> scheme = SchemeId.fromLabel(args[++i]);
        case "--coin-per-batch" -> coinPerBatch = true;
        case "--confidential" -> confidential = true;
        case "--restarts" -> restarts = SimOptions.Restarts.parse(args[++i]);
        case "--keys" -> keys = args[++i];
        case "--authentication" -> authentication = Authentication.parse(args[++i]);
        case "--ordering" -> ordering = SimOptions.Ordering.parse(args[++i]);
        case "--slow-delay-ticks" -> slowDelay = Integer.parseInt(args[++i]);
        case "--config" -> configuration = SimOptions.Configuration.parse(args[++i]);
        case "--verbose", "-v" -> verbose = true;
        case "--reconfigure" -> reconfigure = true;
        case "--reconfigure-control" -> reconfigureControl = true;
        default -> usage("unknown argument " + a);
      }
    }
    if (reconfigure || reconfigureControl) {
      // PBFT, configuration I, 4 replicas at the start: the membership changes from there (ReconfigureSimulation)
      // fewer calls per client by default: a run's time goes into the epoch changes, not the calls
      ReconfigureSimulation.Options template = new ReconfigureSimulation.Options(from, clients,
          requestsGiven ? requests : ReconfigureSimulation.Options.of(from).requests(),
          reconfigureControl ? ReconfigureSimulation.Control.IGNORES_BOUNDARY : ReconfigureSimulation.Control.NONE,
          false, 0, 0, null);
      System.exit(ReconfigureSimulation.sweep(from, to, template, threads, verbose));
    }
    if (replicas < 4 || (replicas - 1) % 3 != 0) {
      usage("--replicas must be 3f+1 with f >= 1 (4, 7, 10, ...)");
    }
    if (modes.contains(null)) {
      modes = new ArrayList<>(List.of(Byzantine.NONE, Byzantine.TWINS, Byzantine.MUTATE, Byzantine.SILENT, Byzantine.CLIENT));
      if (ordering != SimOptions.Ordering.PBFT) {
        modes.add(Byzantine.EQUIVOCATE);
      }
      if ("dkg".equals(keys)) {
        modes.add(Byzantine.DEALER);
      }
    }
    if (ordering == SimOptions.Ordering.PBFT && modes.contains(Byzantine.EQUIVOCATE)) {
      usage("--byzantine equivocate needs --ordering async or hybrid (PBFT's equivocating primary is --byzantine"
          + " twins)");
    }
    if (ordering != SimOptions.Ordering.PBFT && (random == SimOptions.Randomness.BA
        || random == SimOptions.Randomness.BA_HARDENED || modes.contains(Byzantine.FLAGGING))) {
      usage("--ordering " + ordering.label() + ": " + SimOptions.ASYNC_RANDOMNESS);
    }
    if (configuration != SimOptions.Configuration.I && ordering != SimOptions.Ordering.PBFT) {
      usage("--config " + configuration + ": " + SimOptions.ASYNC_CONFIGURATION);
    }
    if (configuration == SimOptions.Configuration.III && (random != SimOptions.Randomness.NONE
        || modes.contains(Byzantine.FLAGGING))) {
      usage("--config III: " + SimOptions.SEPARATED_RANDOMNESS);
    }
    int f = (replicas - 1) / 3;
    SimKeys simKeys = null;
    boolean dkg = "dkg".equals(keys);
    if (keys != null && !dkg) {
      try {
        simKeys = SimKeys.load(Path.of(keys), replicas, f, random == SimOptions.Randomness.CT ? scheme : null);
      } catch (IllegalArgumentException e) {
        System.err.println("simulate: --keys " + keys + ": " + e.getMessage());
        System.exit(2);
      }
      scheme = simKeys.group().scheme(); // CT without --scheme: the keys' scheme
    }
    SimOptions template = new SimOptions(from, f, clients, requests, Byzantine.NONE, random,
        scheme == null ? SchemeId.CKS : scheme, coinPerBatch, simKeys, authentication, ordering, slowDelay,
        configuration).withConfidential(confidential).withRestarts(restarts).withDkg(dkg);
    for (Byzantine mode : modes) {
      try {
        template.with(from, mode).check();
      } catch (IllegalArgumentException e) {
        usage(e.getMessage());
      }
    }
    System.exit(run(from, to, template, modes, threads, verbose));
  }

  private static void usage(String why) {
    System.err.println("simulate: " + why);
    System.err.println("usage: scripts/simulate --seeds A..B [--replicas N] [--clients C] [--requests N]"
        + " [--byzantine none|twins|mutate|silent|client|flagging|equivocate|slow|member|isolate|over-threshold|dealer|colluders|all[,...]]"
        + " [--ordering pbft|async|hybrid] [--config I|II|III] [--slow-delay-ticks N] [--random none|ct|ba|ba-hardened]"
        + " [--scheme cks|bls|rsa] [--coin-per-batch] [--confidential] [--keys DIR|dkg] [--authentication signatures|macs] [--threads T]"
        + " [--restarts pause|journal|forgetful] [--reconfigure [--reconfigure-control]]"
        + " [--verbose]");
    System.exit(2);
  }

  static int run(long from, long to, int f, int clients, int requests, List<Byzantine> modes, int threads,
      boolean verbose) throws Exception {
    return run(from, to, new SimOptions(from, f, clients, requests, Byzantine.NONE), modes, threads, verbose);
  }

  /** Runs seeds from..to with the options of {@code template} (its seed and nemesis are replaced). */
  static int run(long from, long to, SimOptions template, List<Byzantine> modes, int threads, boolean verbose)
      throws Exception {
    return run(from, to, template, modes, threads, verbose, Simulation::run);
  }

  /**
   * As above, each seed run by {@code simulation}. A run that throws is a failing seed like one with
   * violations: printed with its exception and replay command, and the exit status is 1 (also for the
   * negative control). The pool's threads are daemons, so nothing a run leaves behind keeps the JVM alive.
   */
  static int run(long from, long to, SimOptions template, List<Byzantine> modes, int threads, boolean verbose,
      Function<SimOptions, SimResult> simulation) throws InterruptedException {
    ExecutorService pool = Executors.newFixedThreadPool(threads, runnable -> {
      Thread t = new Thread(runnable, "simulate");
      t.setDaemon(true);
      return t;
    });
    List<SimOptions> options = new ArrayList<>();
    List<Future<SimResult>> futures = new ArrayList<>();
    for (long seed = from; seed <= to; seed++) {
      // Several nemeses: each seed runs under one, in turn, so a range covers them all.
      Byzantine mode = modes.get((int) Math.floorMod(seed, (long) modes.size()));
      SimOptions opt = template.with(seed, mode);
      options.add(opt);
      futures.add(pool.submit(() -> simulation.apply(opt)));
    }
    long ok = 0;
    long violations = 0;
    long thrown = 0;
    long committed = 0;
    long started = System.nanoTime();
    for (int i = 0; i < futures.size(); i++) {
      SimResult r;
      try {
        r = futures.get(i).get();
      } catch (ExecutionException e) {
        thrown++;
        SimOptions opt = options.get(i);
        System.out.println("FAIL seed=" + opt.seed() + " threw " + e.getCause() + "\n  replay: " + opt.replay());
        e.getCause().printStackTrace(System.out);
        continue;
      }
      committed += r.requestsCommitted();
      if (r.ok()) {
        ok++;
      } else {
        violations += r.violations().size();
        System.out.println("FAIL " + r.report(verbose) + "\n  replay: " + r.options().replay());
      }
      if (verbose && r.ok()) {
        System.out.println("ok   " + r.describe());
      }
    }
    pool.shutdown();
    long seeds = to - from + 1;
    double minutes = (System.nanoTime() - started) / 60e9;
    System.out.printf("simulate: seeds=%d runs_ok=%d violations=%d runs_thrown=%d requests_committed=%d%n", seeds, ok,
        violations, thrown, committed);
    System.err.printf("simulate: %.1f seeds/minute on %d threads%n", seeds / Math.max(minutes, 1e-9), threads);
    if (thrown > 0) {
      return 1;
    }
    boolean negativeControl = modes.size() == 1
        && (modes.get(0) == Byzantine.OVER_THRESHOLD || modes.get(0) == Byzantine.COLLUDERS);
    return negativeControl ? (violations > 0 ? 0 : 1) : (violations == 0 ? 0 : 1);
  }
}
