package org.bftws.perf;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import org.bftws.perf.echo.EchoExperiment;
import org.bftws.perf.echo.EchoModes;
import org.bftws.perf.echo.EchoPayload;
import org.bftws.perf.echo.EchoSetup;
import org.bftws.perf.echo.ThreeTierExperiment;

/**
 * The driver behind {@code scripts/perf}: runs the JVM-hosted experiments and regenerates RESULTS.md.
 *
 * <pre>
 * PerfMain [--smoke] [--results DIR] [--markdown FILE] [--root DIR]
 *          [--modes plain,wsrm,...] [--sizes 1,100,1KB] [--clients 1,8] [--reps N]
 *          [--warmup-ms MS] [--measure-ms MS] (echo | three-tier | report)...
 * </pre>
 *
 * {@code echo} runs experiment 1 into {@code DIR/echo.csv}; {@code three-tier} runs experiment 2 (1 KB,
 * 1 and 8 clients; {@code --clients}, {@code --reps} and the times apply) into {@code DIR/three-tier.csv};
 * {@code report} rewrites the markdown and the
 * plots from every CSV in {@code DIR}. Progress goes to stderr, one line per configuration.
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
                case "echo", "three-tier", "report" -> commands.add(args[i]);
                default -> {
                    System.err.println("perf: unknown argument " + args[i]);
                    System.err.println("usage: PerfMain [--smoke] [--results DIR] [--markdown FILE] [--root DIR] "
                            + "[--modes " + String.join(",", EchoModes.all().stream().map(m -> m.name()).toList())
                            + "] [--sizes 1,10,100,1000,1KB] [--clients 1,2,4,8] [--reps N] [--warmup-ms MS] "
                            + "[--measure-ms MS] (echo | three-tier | report)...");
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
        for (String command : commands) {
            if (command.equals("echo")) {
                EchoExperiment.Config base = smoke ? EchoExperiment.Config.smoke() : EchoExperiment.Config.full();
                EchoExperiment.Config config = new EchoExperiment.Config(
                        modes == null ? base.modes() : EchoModes.named(modes),
                        sizes == null ? base.payloads() : Stream.of(sizes.split(",")).map(EchoPayload::parse).toList(),
                        clients == null ? base.clients() : Stream.of(clients.split(",")).map(Integer::parseInt).toList(),
                        reps == null ? base.repetitions() : reps,
                        warmup == null ? base.warmupMillis() : warmup,
                        measure == null ? base.measureMillis() : measure);
                Path work = EchoExperiment.tempWork();
                try {
                    new EchoExperiment(config, EchoSetup.fromSystemProperties(), work, root, System.err)
                            .run(results.resolve("echo.csv"));
                } finally {
                    deleteTree(work);
                }
                System.err.println("perf echo: wrote " + results.resolve("echo.csv"));
            } else if (command.equals(ThreeTierExperiment.NAME)) {
                EchoExperiment.Config base = ThreeTierExperiment.config(smoke);
                EchoExperiment.Config config = new EchoExperiment.Config(base.modes(), base.payloads(),
                        clients == null ? base.clients() : Stream.of(clients.split(",")).map(Integer::parseInt).toList(),
                        reps == null ? base.repetitions() : reps, warmup == null ? base.warmupMillis() : warmup,
                        measure == null ? base.measureMillis() : measure);
                Path work = EchoExperiment.tempWork();
                try {
                    ThreeTierExperiment.run(config, work, root, results.resolve("three-tier.csv"), System.err);
                } finally {
                    deleteTree(work);
                }
                System.err.println("perf three-tier: wrote " + results.resolve("three-tier.csv"));
            } else {
                List<Path> plots = new Report(results, markdown).write();
                System.err.println("perf report: wrote " + markdown + " and " + plots.size() + " plot(s)");
            }
        }
        return 0;
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
