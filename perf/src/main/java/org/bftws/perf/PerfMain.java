package org.bftws.perf;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import org.bftws.core.crypto.Authentication;
import org.bftws.module.config.Ordering;
import org.bftws.perf.breakdown.BreakdownExperiment;
import org.bftws.perf.echo.EchoExperiment;
import org.bftws.perf.echo.EchoModes;
import org.bftws.perf.echo.EchoPayload;
import org.bftws.perf.echo.EchoSetup;
import org.bftws.perf.echo.EchoMode;
import org.bftws.perf.profile.Profiler;
import org.bftws.perf.randomness.RandomnessExperiment;
import org.bftws.perf.recovery.RecoveryExperiment;
import org.bftws.perf.echo.ThreeTierExperiment;

/**
 * The driver behind {@code scripts/perf}: runs the JVM-hosted experiments and regenerates RESULTS.md.
 *
 * <pre>
 * PerfMain [--smoke] [--results DIR] [--markdown FILE] [--root DIR]
 *          [--modes plain,wsrm,...] [--sizes 1,100,1KB] [--clients 1,8] [--reps N]
 *          [--warmup-ms MS] [--measure-ms MS] [--wan-delay-ms MS] [--authentication signatures|macs]
 *          (echo | three-tier | scale | randomness | read-only | configurations | ordering | slow-primary
 *           | journal | recovery | crash-primary | profile | breakdown | report)...
 * </pre>
 *
 * {@code echo} runs experiment 1 into {@code DIR/echo.csv}, {@code scale} experiment 5 into
 * {@code DIR/scale.csv}, {@code three-tier} experiment 2 (1 KB, 1 and 8 clients) into {@code DIR/three-tier.csv}, {@code randomness} experiment 3 into {@code DIR/randomness.csv} (with
 * {@code --wan-delay-ms} above 0 these three write {@code NAME-wan.csv}, every hop delayed by a
 * {@link org.bftws.perf.wan.DelayForwarder}; with {@code --authentication} other than the group default,
 * {@code NAME-LABEL.csv}, the groups' {@code bftws.authentication} set), {@code read-only} the 1 KB echo with
 * WS-RM, BFT-WS and BFT-WS's read-only calls ({@code bftws-ro}) into {@code DIR/echo-readonly.csv},
 * {@code configurations} the 1 KB echo with WS-RM, BFT-WS configuration I and II ({@code bftws-c2}) into
 * {@code DIR/echo-configurations.csv}, {@code ordering} the 1 KB echo with WS-RM, BFT-WS ordered by PBFT, by
 * the asynchronous engine ({@code bftws-async}) and by the hybrid one ({@code bftws-hybrid}) into
 * {@code DIR/echo-ordering.csv}, {@code slow-primary} the three with and without replica 0 sending every message {@code BftwsMode.SLOW_MILLIS} late into
 * {@code DIR/echo-slow-primary.csv}, {@code journal} BFT-WS without a replica journal, with one written to the OS
 * and with one fsynced ({@code bftws-journal}, {@code bftws-journal-fsync}) into {@code DIR/echo-journal.csv},
 * {@code gateway} the Axis2 BFT-WS client and a plain SOAP client through the voting gateway ({@code bftws-gateway})
 * into {@code DIR/echo-gateway.csv},
 * {@code recovery} experiment 4 into {@code DIR/recovery-*.csv}, {@code crash-primary} the leader stopped under
 * each ordering engine into {@code DIR/recovery-crash.csv}, {@code profile} the
 * BFT-WS echo under Java Flight Recorder into {@code DIR/profile.csv}; {@code report} rewrites the markdown
 * and the plots from every CSV in {@code DIR}; {@code breakdown} writes the latency breakdown and the work per request
 * of the 1 KB echo into {@code DIR/breakdown.csv} and {@code breakdown.png}. Progress goes to stderr, one line per configuration.
 */
public final class PerfMain {
    private PerfMain() {
    }

    public static void main(String[] args) throws Exception {
        System.setProperty("java.awt.headless", "true");
        System.exit(run(args));
    }

    /** Runs the command line; returns the exit status (0 also when some configurations failed: see the CSV). */
    public static int run(String[] args) throws Exception {
        boolean smoke = false;
        Path root = Path.of(".").toAbsolutePath().normalize();
        Path results = null;
        Path markdown = null;
        String modes = null;
        String sizes = null;
        String clients = null;
        Integer reps = null;
        Long warmup = null;
        Long measure = null;
        long wan = 0;
        String authentication = null;
        List<String> commands = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--smoke" -> smoke = true;
                case "--root" -> root = Path.of(args[++i]).toAbsolutePath().normalize();
                case "--results" -> results = Path.of(args[++i]);
                case "--markdown" -> markdown = Path.of(args[++i]);
                case "--modes" -> modes = args[++i];
                case "--sizes" -> sizes = args[++i];
                case "--clients" -> clients = args[++i];
                case "--reps" -> reps = Integer.parseInt(args[++i]);
                case "--warmup-ms" -> warmup = Long.parseLong(args[++i]);
                case "--measure-ms" -> measure = Long.parseLong(args[++i]);
                case "--wan-delay-ms" -> wan = Long.parseLong(args[++i]);
                case "--authentication" -> authentication = Authentication.parse(args[++i]).label();
                case "echo", "three-tier", "scale", "randomness", "read-only", "configurations", "ordering", "slow-primary",
                        "confidential", "journal", "gateway",
                        "recovery", "crash-primary", "profile", "breakdown", "report" ->
                        commands.add(args[i]);
                default -> {
                    System.err.println("perf: unknown argument " + args[i]);
                    System.err.println("usage: PerfMain [--smoke] [--results DIR] [--markdown FILE] [--root DIR] "
                            + "[--modes " + String.join(",", EchoModes.all().stream().map(m -> m.name()).toList())
                            + "] [--sizes 1,10,100,1000,1KB] [--clients 1,2,4,8] [--reps N] [--warmup-ms MS] "
                            + "[--measure-ms MS] [--wan-delay-ms MS] [--authentication signatures|macs] (echo | three-tier | "
                            + "scale | randomness | read-only | configurations | ordering | slow-primary | journal | recovery | crash-primary | profile | breakdown | report)...");
                    return 2;
                }
            }
        }
        if (results == null) {
            results = root.resolve("perf/results");
        }
        if (markdown == null) {
            markdown = results.getParent().resolve("RESULTS.md");
        }
        if (commands.isEmpty()) {
            commands = List.of("echo", "report");
        }
        EchoOptions echo = new EchoOptions(modes, sizes, clients, reps, warmup, measure);
        for (String command : commands) {
            switch (command) {
                case "echo" -> echo("echo", echo.apply(smoke ? EchoExperiment.Config.smoke()
                        : EchoExperiment.Config.full()), root, results, wan, authentication);
                case "scale" -> echo("scale", echo.apply(smoke ? Scale.smoke() : Scale.full()), root, results, wan,
                        authentication);
                case "randomness" -> echo("randomness", echo.applyRandomness(smoke ? RandomnessExperiment.smoke()
                        : RandomnessExperiment.full()), root, results, wan, authentication);
                case "read-only" -> oneKilobyte(OneKilobyteEcho.READ_ONLY, echo, smoke, root, results, wan,
                        authentication);
                case "configurations" -> oneKilobyte(OneKilobyteEcho.CONFIGURATIONS, echo, smoke, root, results, wan,
                        authentication);
                case "ordering" -> oneKilobyte(OneKilobyteEcho.ORDERING, echo, smoke, root, results, wan,
                        authentication);
                case "slow-primary" -> oneKilobyte(OneKilobyteEcho.SLOW_PRIMARY, echo, smoke, root, results, wan,
                        authentication);
                case "confidential" -> oneKilobyte(OneKilobyteEcho.CONFIDENTIAL, echo, smoke, root, results, wan,
                        authentication);
                case "journal" -> oneKilobyte(OneKilobyteEcho.JOURNAL, echo, smoke, root, results, wan,
                        authentication);
                case "gateway" -> oneKilobyte(OneKilobyteEcho.GATEWAY, echo, smoke, root, results, wan,
                        authentication);
                case "recovery" -> recovery(smoke, root, results);
                case "crash-primary" -> crashPrimary(smoke, root, results);
                case "profile" -> profile(echo.apply(smoke ? Profiler.smoke() : Profiler.full()), root, results);
                case BreakdownExperiment.NAME -> breakdown(smoke, clients, warmup, measure, root, results);
                case ThreeTierExperiment.NAME -> threeTier(new EchoOptions(null, null, clients, reps, warmup, measure)
                        .apply(ThreeTierExperiment.config(smoke)), root, results);
                default -> {
                    List<Path> plots = new Report(results, markdown).write();
                    System.err.println("perf report: wrote " + markdown + " and " + plots.size() + " plot(s)");
                }
            }
        }
        return 0;
    }

    /** Command-line overrides of an echo-style experiment's axes; null keeps the experiment's own. */
    private record EchoOptions(String modes, String sizes, String clients, Integer reps, Long warmup, Long measure) {
        EchoExperiment.Config apply(EchoExperiment.Config base) {
            return apply(base, modes == null ? base.modes() : EchoModes.named(modes), false);
        }

        /** Experiment 3: its own configurations; every size is sent to both echo and echoRandom. */
        EchoExperiment.Config applyRandomness(EchoExperiment.Config base) {
            return apply(base, modes == null ? base.modes() : RandomnessExperiment.named(modes), true);
        }

        private EchoExperiment.Config apply(EchoExperiment.Config base, List<EchoMode> chosen, boolean randomized) {
            return new EchoExperiment.Config(chosen,
                    sizes == null ? base.payloads() : Stream.of(sizes.split(",")).map(EchoPayload::parse)
                            .flatMap(p -> randomized ? Stream.of(p, p.randomized()) : Stream.of(p)).toList(),
                    clients == null ? base.clients() : Stream.of(clients.split(",")).map(Integer::parseInt).toList(),
                    reps == null ? base.repetitions() : reps,
                    warmup == null ? base.warmupMillis() : warmup,
                    measure == null ? base.measureMillis() : measure);
        }
    }

    private static void oneKilobyte(OneKilobyteEcho experiment, EchoOptions echo, boolean smoke, Path root,
            Path results, long wan, String authentication) throws Exception {
        echo(experiment.name(), echo.apply(smoke ? experiment.smoke() : experiment.full()), root, results, wan,
                authentication);
    }

    /**
     * Experiment 1 ({@code echo}), 5 ({@code scale}) or 3 ({@code randomness}): the same measurement, into
     * {@code NAME.csv}, or {@code NAME-wan.csv} with a WAN delay (so a WAN run never replaces the LAN results),
     * {@code -LABEL} added for an authentication other than the default ({@code null}: the default).
     */
    private static void echo(String name, EchoExperiment.Config config, Path root, Path results, long wan,
            String authentication) throws Exception {
        Path work = EchoExperiment.tempWork();
        boolean other = authentication != null && !authentication.equals(Authentication.DEFAULT.label());
        Path csv = results.resolve(name + (wan > 0 ? "-wan" : "") + (other ? "-" + authentication : "") + ".csv");
        try {
            new EchoExperiment(name, config, EchoSetup.fromSystemProperties().withWanDelay(wan)
                    .withAuthentication(authentication), work, root, System.err).run(csv);
        } finally {
            deleteTree(work);
        }
        System.err.println("perf " + name + ": wrote " + csv);
    }

    /** Experiment 2: only the clients, repetitions and times are overridable (the modes and 1 KB are fixed). */
    private static void threeTier(EchoExperiment.Config config, Path root, Path results) throws Exception {
        Path work = EchoExperiment.tempWork();
        Path csv = results.resolve(ThreeTierExperiment.NAME + ".csv");
        try {
            ThreeTierExperiment.run(config, work, root, csv, System.err);
        } finally {
            deleteTree(work);
        }
        System.err.println("perf three-tier: wrote " + csv);
    }

    private static void recovery(boolean smoke, Path root, Path results) throws Exception {
        Path work = EchoExperiment.tempWork();
        try {
            new RecoveryExperiment(smoke ? RecoveryExperiment.Config.smoke() : RecoveryExperiment.Config.full(),
                    EchoSetup.fromSystemProperties(), work, root, System.err).run(results);
        } finally {
            deleteTree(work);
        }
        System.err.println("perf recovery: wrote " + results.resolve("recovery-*.csv"));
    }

    /** The leader stopped under each ordering engine: the client's outage (recovery-crash.csv). */
    private static void crashPrimary(boolean smoke, Path root, Path results) throws Exception {
        Path work = EchoExperiment.tempWork();
        try {
            RecoveryExperiment.Config config = smoke ? RecoveryExperiment.Config.smoke() : RecoveryExperiment.Config.full();
            new RecoveryExperiment(config, EchoSetup.fromSystemProperties(), work, root, System.err)
                    .runCrashes(results, List.of(Ordering.PBFT, Ordering.HYBRID, Ordering.ASYNC));
        } finally {
            deleteTree(work);
        }
        System.err.println("perf crash-primary: wrote " + results.resolve("recovery-crash.csv"));
    }

    private static void profile(EchoExperiment.Config config, Path root, Path results) throws Exception {
        Path work = EchoExperiment.tempWork();
        try {
            Profiler.run(config, EchoSetup.fromSystemProperties(), work, root, results, System.err);
        } finally {
            deleteTree(work);
        }
    }

    /** The latency breakdown and work per request: breakdown.csv, then its plot breakdown.png. */
    private static void breakdown(boolean smoke, String clients, Long warmup, Long measure, Path root, Path results)
            throws Exception {
        BreakdownExperiment.Config base = smoke ? BreakdownExperiment.Config.smoke() : BreakdownExperiment.Config.full();
        BreakdownExperiment.Config config = new BreakdownExperiment.Config(
                clients == null ? base.clients() : Stream.of(clients.split(",")).map(Integer::parseInt).toList(),
                warmup == null ? base.warmupMillis() : warmup, measure == null ? base.measureMillis() : measure);
        Path work = EchoExperiment.tempWork();
        try {
            BreakdownExperiment.run(config, EchoSetup.fromSystemProperties(), work, root,
                    results.resolve(BreakdownExperiment.NAME + ".csv"), System.err);
        } finally {
            deleteTree(work);
        }
        new BreakdownReport(results).plot();
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
