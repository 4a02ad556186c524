package org.bftws.perf.breakdown;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.bftws.module.metrics.PhaseTrace;
import org.bftws.perf.Csv;
import org.bftws.perf.Machine;
import org.bftws.perf.echo.BftwsMode;
import org.bftws.perf.echo.ClosedLoop;
import org.bftws.perf.echo.EchoMode;
import org.bftws.perf.echo.EchoModes;
import org.bftws.perf.echo.EchoPayload;
import org.bftws.perf.echo.EchoSetup;
import org.bftws.perf.echo.ReplicaGroup;
import org.bftws.perf.echo.ServiceClientCaller;

/**
 * Where the time of one ordered request goes, and how much work it costs (docs/performance.md, "Latency
 * breakdown"): the 1 KB echo of experiment 1 at 1 and 8 clients, WS-RM and BFT-WS (4 replicas) in this JVM.
 *
 * <p>Per client count, two windows on the same running group: an untraced one for the counters (signatures
 * made and checked per kind, HTTP POSTs and bytes, batch size: {@link GroupCounts}) and the CPU per request
 * ({@link CpuMeter}), then one with {@link PhaseTrace} on for the latency breakdown ({@link Phases}), whose
 * extra decoding on the ordering threads must not inflate the CPU figures. WS-RM gets the untraced window only.
 * Rows go to {@code breakdown.csv}: section {@code latency} (mean ms per phase part), {@code verify} and {@code
 * sign} (per delivered request, per kind, measured against the protocol's minimum and the all-to-all count),
 * {@code wire}, and {@code cpu} (ms of CPU per request by thread role).
 */
public final class BreakdownExperiment {
    public static final String NAME = "breakdown";
    public static final List<String> HEADER = Machine.withContext("clients", "section", "phase", "part", "value",
            "unit", "calls", "throughput_cps", "mean_ms");
    private static final int N = 4;

    /** Client counts and window lengths. */
    public record Config(List<Integer> clients, long warmupMillis, long measureMillis) {
        public static Config full() {
            return new Config(List.of(1, 8), 3_000, 5_000);
        }

        public static Config smoke() {
            return new Config(List.of(1, 2), 300, 1_000);
        }
    }

    private final Config config;
    private final EchoSetup setup;
    private final PrintStream progress;
    private final List<List<String>> rows = new ArrayList<>();
    private final String commit;
    private final EchoPayload payload = EchoPayload.bytes(1024);

    private BreakdownExperiment(Config config, EchoSetup setup, Path root, PrintStream progress) {
        this.config = config;
        this.setup = setup;
        this.progress = progress;
        this.commit = Machine.commit(root);
    }

    /** Runs WS-RM then BFT-WS and writes {@code csv}; {@code work} holds the repositories (the caller deletes it). */
    public static void run(Config config, EchoSetup setup, Path work, Path root, Path csv, PrintStream progress)
            throws Exception {
        BreakdownExperiment e = new BreakdownExperiment(config, setup, root, progress);
        e.wsrm(work.resolve("wsrm"));
        e.bftws(work.resolve("bftws"));
        Csv.write(csv, HEADER, e.rows);
        progress.println("perf breakdown: wrote " + csv + " (" + e.rows.size() + " rows)");
    }

    private void wsrm(Path dir) throws Exception {
        EchoMode mode = EchoModes.named("wsrm").get(0);
        try (EchoMode.Deployment d = mode.start(setup, dir)) {
            warm(d::newCaller);
            for (int c : config.clients()) {
                CpuMeter[] cpu = new CpuMeter[1];
                Map<String, Long>[] used = newMaps();
                ClosedLoop.Result r = ClosedLoop.run(d::newCaller, payload, c, config.warmupMillis(),
                        config.measureMillis(), () -> cpu[0] = new CpuMeter(), () -> used[0] = cpu[0].since(), progress);
                cpuRows(c, "wsrm", used[0], r);
                progress.printf(Locale.ROOT, "perf breakdown: wsrm clients=%d: %.0f calls/s, %.2f ms CPU per call%n",
                        c, r.throughput(), used[0].get("process") / 1e6 / Math.max(1, r.latency().count()));
            }
        }
    }

    private void bftws(Path dir) throws Exception {
        try (ReplicaGroup g = ReplicaGroup.start(setup, dir, N, setup.echoAar(), "Echo", BftwsMode.GROUP, "")) {
            GroupCounts.Batches batches = new GroupCounts.Batches();
            g.manager(0).addEventListener(batches);
            ClosedLoop.CallerFactory callers = () -> ServiceClientCaller.ofGroup(g.clientContext(), BftwsMode.GROUP);
            warm(callers);
            for (int c : config.clients()) {
                CpuMeter[] cpu = new CpuMeter[1];
                Map<String, Long>[] used = newMaps();
                GroupCounts[] counts = new GroupCounts[2];
                ClosedLoop.Result r = ClosedLoop.run(callers, payload, c, config.warmupMillis(), config.measureMillis(),
                        () -> {
                            counts[0] = GroupCounts.of(g, batches);
                            cpu[0] = new CpuMeter();
                        }, () -> {
                            used[0] = cpu[0].since();
                            counts[1] = GroupCounts.of(g, batches);
                        }, progress);
                cpuRows(c, "bftws", used[0], r);
                GroupCounts delta = counts[1].minus(counts[0]);
                WorkRows.add(rows, context(), c, delta, N, r);
                progress.printf(Locale.ROOT, "perf breakdown: bftws clients=%d: %.0f calls/s, %.2f ms CPU per call, "
                        + "mean batch %.2f%n", c, r.throughput(), used[0].get("process") / 1e6 / Math.max(1, r.latency().count()),
                        delta.meanBatch());
                traced(c, callers);
            }
        } finally {
            PhaseTrace.stop();
            PhaseTrace.clear();
        }
    }

    /** The same load with {@link PhaseTrace} on during the measurement: the latency breakdown. */
    private void traced(int clients, ClosedLoop.CallerFactory callers) throws Exception {
        ClosedLoop.Result r = ClosedLoop.run(callers, payload, clients, config.warmupMillis(), config.measureMillis(),
                PhaseTrace::start, PhaseTrace::stop, progress);
        Phases phases = new Phases(N);
        int analysed = phases.addAll();
        PhaseTrace.clear();
        double traced = 0;
        for (Map.Entry<String, List<String>> e : Phases.PARTS.entrySet()) {
            for (int i = 0; i < e.getValue().size(); i++) {
                double ms = phases.meanMs(e.getKey(), i);
                traced += ms;
                rows.add(row(clients, "latency", e.getKey(), e.getValue().get(i), ms, "ms", r));
            }
        }
        // What the traced points do not cover: the ServiceClient's out-flow before the Out Handler hands the
        // request to core, and building the response and returning it to the caller after the vote.
        rows.add(row(clients, "latency", "client Axis2", "before invoke + after vote", Math.max(0, r.latency().meanMs() - traced),
                "ms", r));
        rows.add(row(clients, "latency", "requests analysed", "", analysed, "requests", r));
        progress.printf(Locale.ROOT, "perf breakdown: bftws clients=%d traced: %d requests analysed, mean %.2f ms "
                + "(traced %.2f ms)%n", clients, analysed, r.latency().meanMs(), traced);
    }

    private void cpuRows(int clients, String mode, Map<String, Long> used, ClosedLoop.Result r) {
        long calls = Math.max(1, r.latency().count());
        for (Map.Entry<String, Long> e : used.entrySet()) {
            rows.add(row(clients, "cpu", mode, e.getKey(), e.getValue() / 1e6 / calls, "ms/request", r));
        }
    }

    private void warm(ClosedLoop.CallerFactory callers) throws Exception {
        try (EchoMode.Caller c = callers.newCaller()) {
            int calls = config.warmupMillis() >= 1_000 ? 300 : 30;
            for (int i = 0; i < calls; i++) {
                c.echo(payload);
            }
        }
    }

    private List<String> context() {
        return Machine.context(NAME, commit, Machine.loadAverage()[0]);
    }

    private List<String> row(int clients, String section, String phase, String part, double value, String unit,
            ClosedLoop.Result r) {
        return WorkRows.row(context(), clients, section, phase, part, value, unit, r);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Long>[] newMaps() {
        return (Map<String, Long>[]) new Map[1];
    }
}
