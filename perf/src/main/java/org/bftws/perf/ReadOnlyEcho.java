package org.bftws.perf;

import java.util.List;

import org.bftws.perf.echo.EchoExperiment;
import org.bftws.perf.echo.EchoModes;
import org.bftws.perf.echo.EchoPayload;

/**
 * The read-only optimisation (Castro-Liskov §5.1.3): the 1 KB echo measurement with WS-RM as the baseline,
 * BFT-WS ordering {@code echo} and BFT-WS calling the read-only {@code echoReadOnly} without ordering
 * ({@code bftws-ro}) in one run, into its own CSV so that experiment 1's stays whole.
 */
final class ReadOnlyEcho {
    static final String NAME = "echo-readonly";
    private static final String MODES = "wsrm,bftws,bftws-ro";

    private ReadOnlyEcho() {
    }

    static EchoExperiment.Config full() {
        return new EchoExperiment.Config(EchoModes.named(MODES), List.of(EchoPayload.bytes(1024)), List.of(1, 8), 3,
                3_000, 5_000);
    }

    static EchoExperiment.Config smoke() {
        return new EchoExperiment.Config(EchoModes.named(MODES), List.of(EchoPayload.bytes(1024)), List.of(1, 2), 1,
                200, 1_000);
    }
}
