package org.bftws.perf;

import java.util.List;

import org.bftws.perf.echo.EchoExperiment;
import org.bftws.perf.echo.EchoModes;
import org.bftws.perf.echo.EchoPayload;

/**
 * The BFT-WS paper's Fig. 7 for configurations I and II (§3.3.1–3.3.2): the 1 KB echo with WS-RM as the
 * baseline, BFT-WS in configuration I ({@code bftws}: all four replicas execute) and in configuration II
 * ({@code bftws-c2}: replica 0, the primary, only orders) in one run, into its own CSV so that experiment 1's
 * stays whole.
 */
final class ConfigurationsEcho {
    static final String NAME = "echo-configurations";
    private static final String MODES = "wsrm,bftws,bftws-c2";

    private ConfigurationsEcho() {
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
