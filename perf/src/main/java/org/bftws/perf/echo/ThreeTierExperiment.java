package org.bftws.perf.echo;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

/**
 * Experiment 2 (BFT-WS paper §4.1.2, Fig. 8): three-tier echo, client → middle tier → backend,
 * BFT-WS (both tiers replicated, 4 replicas each) beside plain Axis2 in the same run; 1 KB echo with 1 and
 * 8 closed-loop clients. The measurement is experiment 1's ({@link EchoExperiment}), under its own name,
 * with the three-tier modes; rows go to {@code three-tier.csv}.
 */
public final class ThreeTierExperiment {
    public static final String NAME = "three-tier";

    private ThreeTierExperiment() {
    }

    /**
     * The default axes: 1 KB, 1 and 8 clients, 3 repetitions. The smoke run keeps the axes and cuts the time,
     * but less than experiment 1's: a middle replica executes its requests one after another, each waiting
     * for its nested call, so 8 BFT-WS clients' first calls (sequence creation included) need about a second.
     */
    public static EchoExperiment.Config config(boolean smoke) {
        List<EchoMode> modes = List.of(new ThreeTierPlainMode(), new ThreeTierBftwsMode());
        List<EchoPayload> payloads = List.of(EchoPayload.bytes(1024));
        return smoke ? new EchoExperiment.Config(modes, payloads, List.of(1, 8), 1, 900, 2_000)
                : new EchoExperiment.Config(modes, payloads, List.of(1, 8), 3, 3_000, 5_000);
    }

    /** Runs {@code config} with the build's artifacts into {@code csv}, repositories under {@code work}. */
    public static void run(EchoExperiment.Config config, Path work, Path root, Path csv, PrintStream progress)
            throws Exception {
        new EchoExperiment(NAME, config, EchoSetup.fromSystemProperties(), work, root, progress).run(csv);
    }
}
