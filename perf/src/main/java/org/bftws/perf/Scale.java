package org.bftws.perf;

import java.util.List;

import org.bftws.perf.echo.EchoExperiment;
import org.bftws.perf.echo.EchoModes;
import org.bftws.perf.echo.EchoPayload;

/**
 * Experiment 5, scale: the echo measurement (1 KB payload, 1 and 8 clients) with BFT-WS at
 * n = 4, 7, 10 replicas (f = 1, 2, 3) and WS-RM as the baseline in the same run ({@link EchoModes#scale()}).
 */
final class Scale {
    private Scale() {
    }

    static EchoExperiment.Config full() {
        return new EchoExperiment.Config(EchoModes.scale(), List.of(EchoPayload.bytes(1024)), List.of(1, 8), 3, 3_000,
                5_000);
    }

    /**
     * Like the echo smoke run, a one-second window: ten replicas in one JVM on a loaded 2-core machine can take
     * longer than a shorter window for one call, which would leave the row empty ("failed").
     */
    static EchoExperiment.Config smoke() {
        return new EchoExperiment.Config(EchoModes.scale(), List.of(EchoPayload.bytes(1024)), List.of(1, 2), 1, 200,
                1_000);
    }
}
