package org.bftws.perf;

import java.util.List;

import org.bftws.perf.echo.EchoExperiment;
import org.bftws.perf.echo.EchoModes;
import org.bftws.perf.echo.EchoPayload;

/**
 * The 1 KB echo measurement of a few modes side by side with WS-RM as the baseline, in one run and into its own
 * CSV so that experiment 1's stays whole: {@link #READ_ONLY}, PBFT's read-only optimisation (Castro-Liskov
 * §5.1.3: BFT-WS ordering {@code echo} and BFT-WS calling the read-only {@code echoReadOnly} without ordering,
 * {@code bftws-ro}); {@link #CONFIGURATIONS}, the BFT-WS paper's Fig. 7 for configurations I and II (§3.3.1–3.3.2:
 * {@code bftws}, all four replicas execute, and {@code bftws-c2}, replica 0, the primary, only orders) and
 * configuration III (§3.3.3: {@code bftws-c3}, the four replicas only order, three execution nodes reply);
 * {@link #ORDERING}, the three ordering engines ({@code bftws}, PBFT, {@code bftws-async}, SINTRA's atomic
 * broadcast, and {@code bftws-hybrid}; docs/configuration.md, "Ordering modes"); {@link #SLOW_PRIMARY}, each
 * under a slow replica 0;
 * {@link #CONFIDENTIAL}, plain echo against the sealed {@code echoConfidential} on a group of the same
 * configuration ({@code bftws-confidential}, SINTRA §2.6); {@link #JOURNAL}, PBFT without and with a replica journal
 * ({@code bftws-journal}, {@code bftws-journal-fsync}; docs/journal.md); {@link #GATEWAY}, the Axis2 BFT-WS client
 * against a plain SOAP client calling the same group through the voting gateway ({@code bftws-gateway}).
 */
record OneKilobyteEcho(String name, String modes, long measureMillis) {
    static final OneKilobyteEcho READ_ONLY = new OneKilobyteEcho("echo-readonly", "wsrm,bftws,bftws-ro");
    static final OneKilobyteEcho CONFIGURATIONS = new OneKilobyteEcho("echo-configurations",
            "wsrm,bftws,bftws-c2,bftws-c3");
    static final OneKilobyteEcho ORDERING = new OneKilobyteEcho("echo-ordering", "wsrm,bftws,bftws-async,bftws-hybrid");
    /**
     * The journal's cost (docs/journal.md): PBFT without a journal, with one written to the OS and with one
     * fsynced before each step's messages, in one run.
     */
    static final OneKilobyteEcho JOURNAL = new OneKilobyteEcho("echo-journal",
            "bftws,bftws-journal,bftws-journal-fsync");
    static final OneKilobyteEcho CONFIDENTIAL = new OneKilobyteEcho("echo-confidential", "bftws,bftws-confidential");
    /** The voting gateway's cost (docs/gateway.md): the Axis2 BFT-WS client against a plain SOAP client through it. */
    static final OneKilobyteEcho GATEWAY = new OneKilobyteEcho("echo-gateway", "bftws,bftws-gateway");
    /**
     * The slow-primary attack over HTTP: PBFT, the asynchronous and the hybrid engine, each with replica 0 slowed by the
     * Multicast Sender's fault hook and without; 20 s windows, since a slowed PBFT group completes a batch every
     * few seconds.
     */
    static final OneKilobyteEcho SLOW_PRIMARY = new OneKilobyteEcho("echo-slow-primary",
            "bftws,bftws-async,bftws-hybrid,bftws-slow,bftws-async-slow,bftws-hybrid-slow", 20_000);

    OneKilobyteEcho(String name, String modes) {
        this(name, modes, 5_000);
    }

    EchoExperiment.Config full() {
        return new EchoExperiment.Config(EchoModes.named(modes), List.of(EchoPayload.bytes(1024)), List.of(1, 8), 3,
                3_000, measureMillis);
    }

    EchoExperiment.Config smoke() {
        return new EchoExperiment.Config(EchoModes.named(modes), List.of(EchoPayload.bytes(1024)), List.of(1, 2), 1,
                200, measureMillis / 5); // 1 s for the usual 5 s windows
    }
}
