package org.bftws.perf.echo;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicReference;

import org.bftws.perf.Csv;
import org.bftws.perf.Machine;
import org.bftws.perf.Stats;

/**
 * Experiment 1 (BFT-WS paper §4.1.1): clients call echo in a loop with no think time; the
 * latency of every call is taken at the client, throughput is calls completed per second of the
 * measurement window. Modes x payloads x client counts x repetitions.
 *
 * <p>Order: for each repetition, for each mode, the mode's servers start, every (payload, clients)
 * configuration is warmed up and measured, and the servers stop before the next mode starts. Modes thus
 * alternate in time (drift in the machine's load hits them alike) and never run beside each other.
 */
public final class EchoExperiment {
    /** The CSV's columns: one row per mode, payload, client count and repetition. */
    public static final List<String> HEADER = Machine.withContext("mode", "payload", "operation", "elements", "request_bytes", "clients",
            "wan_delay_ms", "rep",
            "warmup_s", "measure_s", "calls", "errors", "mean_ms", "p50_ms", "p99_ms", "throughput_cps", "status",
            "note");

    /** What to run. */
    public record Config(List<EchoMode> modes, List<EchoPayload> payloads, List<Integer> clients, int repetitions,
            long warmupMillis, long measureMillis) {
        /** Calls one client makes right after a mode starts, before any configuration: class loading, JIT. */
        public int startupWarmupCalls() {
            return warmupMillis >= 1_000 ? 300 : 30;
        }

        /** The default axes (sizes 1-1000 elements and 1 KB, 1-8 clients), 3 repetitions. */
        public static Config full() {
            return new Config(EchoModes.all(),
                    List.of(EchoPayload.elements(1), EchoPayload.elements(10), EchoPayload.elements(100),
                            EchoPayload.elements(1000), EchoPayload.bytes(1024)),
                    List.of(1, 2, 4, 8), 3, 3_000, 5_000);
        }

        /**
         * Seconds: the smallest of each axis, one repetition; proves the harness, measures nothing. The window
         * is a second so one stalled call (a GC or JIT pause on a loaded machine) cannot leave it empty.
         */
        public static Config smoke() {
            return new Config(EchoModes.all(), List.of(EchoPayload.elements(1), EchoPayload.bytes(1024)),
                    List.of(1, 2), 1, 200, 1_000);
        }
    }

    private final String name;
    private final Config config;
    private final EchoSetup setup;
    private final Path work;
    private final Path root;
    private final PrintStream progress;
    /** What is running now, for the shutdown hook: Ctrl-C or a kill stops the servers too. */
    private final AtomicReference<EchoMode.Deployment> running = new AtomicReference<>();

    public EchoExperiment(Config config, EchoSetup setup, Path work, Path root, PrintStream progress) {
        this("echo", config, setup, work, root, progress);
    }

    /**
     * @param name the experiment column and progress label: {@code echo}, or {@code scale} for experiment 5
     *             (the same measurement over other modes)
     */
    public EchoExperiment(String name, Config config, EchoSetup setup, Path work, Path root, PrintStream progress) {
        this.name = name;
        this.config = config;
        this.setup = setup;
        this.work = work;
        this.root = root;
        this.progress = progress;
    }

    /** Runs everything and writes {@code csv}; returns the rows written. */
    public List<List<String>> run(Path csv) throws Exception {
        Thread hook = new Thread(this::stopRunning, "perf-" + name + "-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        List<List<String>> rows = new ArrayList<>();
        String commit = Machine.commit(root);
        int total = config.repetitions() * config.clients().size()
                * config.modes().stream().mapToInt(m -> supported(m).size()).sum();
        int done = 0;
        try {
            for (int rep = 1; rep <= config.repetitions(); rep++) {
                for (EchoMode mode : config.modes()) {
                    if (mode.unavailableReason() != null) {
                        for (EchoPayload p : supported(mode)) {
                            for (int c : config.clients()) {
                                rows.add(row(commit, mode, p, c, rep, null, 0, 0, "not available",
                                        mode.unavailableReason()));
                                done++;
                            }
                        }
                        progress.printf(Locale.ROOT, "perf %s [%d/%d] rep %d %s: not available%n", name, done, total, rep,
                                mode.name());
                        continue;
                    }
                    done = runMode(mode, rep, commit, rows, done, total);
                    Csv.write(csv, HEADER, rows); // partial results survive a later failure
                }
            }
        } finally {
            stopRunning();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running or has run
            }
        }
        Csv.write(csv, HEADER, rows);
        return rows;
    }

    private int runMode(EchoMode mode, int rep, String commit, List<List<String>> rows, int done, int total)
            throws Exception {
        Path dir = Files.createDirectories(work.resolve(mode.name() + "-rep" + rep));
        EchoMode.Deployment deployment;
        try {
            deployment = mode.start(setup, dir);
        } catch (Exception e) {
            for (EchoPayload p : supported(mode)) {
                for (int c : config.clients()) {
                    rows.add(row(commit, mode, p, c, rep, null, 0, 0, "failed", "start: " + e));
                }
            }
            progress.printf(Locale.ROOT, "perf %s rep %d %s: failed to start: %s%n", name, rep, mode.name(), e);
            return done + supported(mode).size() * config.clients().size();
        }
        running.set(deployment);
        List<EchoPayload> payloads = supported(mode);
        try {
            try (EchoMode.Caller caller = deployment.newCaller()) {
                for (int i = 0; i < config.startupWarmupCalls(); i++) {
                    caller.echo(payloads.get(i % payloads.size()));
                }
            } catch (Exception e) {
                progress.printf(Locale.ROOT, "perf %s rep %d %s: warm-up call failed: %s%n", name, rep, mode.name(), e);
            }
            deployment.warmedUp();
            for (EchoPayload p : payloads) {
                for (int c : config.clients()) {
                    double load1Start = Machine.loadAverage()[0];
                    Measured m = measure(deployment, p, c);
                    String status = m.latency.count() == 0 ? "failed" : m.errors > 0 ? "errors" : "ok";
                    String note = m.failure != null ? m.failure : "";
                    rows.add(row(commit, mode, p, c, rep, m.latency, m.errors, m.throughput, status, note, load1Start));
                    done++;
                    progress.printf(Locale.ROOT,
                            "perf %s [%d/%d] rep %d %-6s %-6s clients=%d%s: p50 %.2f ms, p99 %.2f ms, %.0f calls/s, "
                                    + "%d errors (load %.2f)%n",
                            name, done, total, rep, mode.name(), p, c, wanLabel(), m.latency.p50Ms(), m.latency.p99Ms(),
                            m.throughput, m.errors, Machine.loadAverage()[0]);
                }
            }
        } finally {
            stopRunning();
        }
        return done;
    }

    /** The payloads {@code mode} has an operation for, in the configured order. */
    private List<EchoPayload> supported(EchoMode mode) {
        return config.payloads().stream().filter(mode::supports).toList();
    }

    private String wanLabel() {
        return setup.wanDelayMillis() == 0 ? "" : " wan=" + setup.wanDelayMillis() + "ms";
    }

    private void stopRunning() {
        EchoMode.Deployment d = running.getAndSet(null);
        if (d != null) {
            try {
                d.close();
            } catch (Exception e) {
                progress.println("perf " + name + ": stopping a deployment failed: " + e);
            }
        }
    }

    /** Result of one configuration; {@code failure} is the first error seen (warm-up included), or null. */
    private record Measured(Stats.Latency latency, int errors, double throughput, String failure) {
    }

    /** Experiment 1's closed loop on {@code deployment}'s callers ({@link ClosedLoop}). */
    private Measured measure(EchoMode.Deployment deployment, EchoPayload payload, int clients) throws Exception {
        ClosedLoop.Result r = ClosedLoop.run(deployment::newCaller, payload, clients, config.warmupMillis(),
                config.measureMillis(), progress);
        return new Measured(r.latency(), r.errors(), r.throughput(), r.failure());
    }

    private List<String> row(String commit, EchoMode mode, EchoPayload p, int clients, int rep, Stats.Latency latency,
            int errors, double throughput, String status, String note) {
        return row(commit, mode, p, clients, rep, latency, errors, throughput, status, note, Machine.loadAverage()[0]);
    }

    private List<String> row(String commit, EchoMode mode, EchoPayload p, int clients, int rep, Stats.Latency latency,
            int errors, double throughput, String status, String note, double load1Start) {
        boolean measured = latency != null;
        List<String> row = new ArrayList<>(Machine.context(name, commit, load1Start));
        row.addAll(List.of(mode.name(), p.label(), p.operation(), String.valueOf(p.elements()),
                String.valueOf(p.requestBytes()), String.valueOf(clients), String.valueOf(setup.wanDelayMillis()),
                String.valueOf(rep), fmt(config.warmupMillis() / 1000.0),
                fmt(config.measureMillis() / 1000.0), measured ? String.valueOf(latency.count()) : "",
                measured ? String.valueOf(errors) : "", measured ? fmt(latency.meanMs()) : "",
                measured ? fmt(latency.p50Ms()) : "", measured ? fmt(latency.p99Ms()) : "",
                measured ? fmt(throughput) : "", status, note));
        return row;
    }

    private static String fmt(double v) {
        return Machine.fmt(v);
    }

    /** Default working directory for repositories and keys: a fresh temporary directory. */
    public static Path tempWork() throws IOException {
        return Files.createTempDirectory("bftws-perf-echo");
    }
}
