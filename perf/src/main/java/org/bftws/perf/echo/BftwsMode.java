package org.bftws.perf.echo;

import java.nio.file.Path;

import org.apache.axiom.om.OMElement;
import org.bftws.client.group.GroupLauncher;
import org.bftws.core.config.GroupConfig;
import org.bftws.module.api.ConfidentialCalls;
import org.bftws.module.api.ReadOnlyCalls;
import org.bftws.module.config.BftwsKeys;
import org.bftws.module.config.Ordering;
import org.bftws.module.BftwsRuntime;

/**
 * BFT-WS, configuration I (paper §3.2; {@code -c2}: configuration II, §3.3.2): n = 3f+1 replicas ({@link ReplicaGroup}: embedded Axis2 servers with
 * bftws engaged globally, {@code bftws.replicated=true} and the echo service, keys from keygen) and one
 * listening client whose ServiceClients, bftws engaged, call the group endpoint and get the reply f+1
 * replicas agree on (docs/module.md, "Application requests through the replica group"). Everything on 127.0.0.1 in
 * this JVM, like the baselines. n = 4 is the echo experiment's {@code bftws}; 7 and 10 are experiment 5's.
 * {@code bftws-ro} calls {@code echoReadOnly} instead, which echo.wsdl declares {@code <bftws:ReadOnly/>}, with
 * the client's read-only flag: every replica executes it at once without ordering and the client takes 2f+1
 * matching replies (Castro-Liskov §5.1.3). {@code bftws-async} orders with SINTRA's atomic broadcast
 * ({@code bftws.ordering=async} on the replicas and the client; docs/configuration.md, "Ordering modes"),
 * {@code bftws-hybrid} with the hybrid engine ({@code bftws.ordering=hybrid}).
 */
public final class BftwsMode implements EchoMode {
    public static final String GROUP = "http://echo.group.example/axis2/services/Echo";
    static final String READ_ONLY_ACTION = "urn:bftws:samples:echo:echoReadOnly";
    static final String CONFIDENTIAL_ACTION = "urn:bftws:samples:echo:echoConfidential";

    private final int n;
    private final boolean signed;
    private final boolean readOnly;
    /** Configuration II (paper §3.3.2): replicas 0..f-1, the first primaries among them, only order. */
    private final boolean configurationTwo;
    /**
     * {@code bftws.ordering}: PBFT, SINTRA's atomic broadcast (DSN 2002 §2.5) or the hybrid engine
     * (docs/design/hybrid.md).
     */
    private final Ordering ordering;
    /** Replica 0 sends every message this late (the Multicast Sender's fault hook), 0 for none. */
    private final long slowMillis;
    /** Calls of {@code echoConfidential}, sealed under the group's TDH2 key until ordered (SINTRA §2.6). */
    private final boolean confidential;
    /** Configuration III (paper §3.3.3): the replicas only order, 2f+1 execution nodes execute and reply. */
    private final boolean configurationThree;
    /** Null, or each replica's bftws.journal.durability: a journal in its data directory (docs/journal.md). */
    private final String journal;
    /** {@code bftws.control.directReceive=false}: every control message through Axis2's handler chain. */
    private boolean axis2Control;

    /**
     * The slow replica's delay in the {@code -slow} modes: three quarters of the default view-change timeout
     * ({@code bftws.viewChangeTimeoutTicks} 200 × {@code bftws.tickMillis} 20 ms = 4 s), so PBFT's backups do
     * not suspect a slow primary even with the load's own delays on top.
     */
    public static final long SLOW_MILLIS = 3_000;

    BftwsMode(int n) {
        this(n, false);
    }

    /** @param signed {@code bftws.security=rampart}: X.509 WS-Security on the client↔replica WS-RM messages */
    BftwsMode(int n, boolean signed) {
        this(n, signed, false, false);
    }

    /** @param readOnly calls of the read-only {@code echoReadOnly}, executed without ordering */
    private BftwsMode(int n, boolean signed, boolean readOnly, boolean configurationTwo) {
        this(n, signed, readOnly, configurationTwo, Ordering.PBFT);
    }

    private BftwsMode(int n, boolean signed, boolean readOnly, boolean configurationTwo, Ordering ordering) {
        this(n, signed, readOnly, configurationTwo, ordering, 0);
    }

    private BftwsMode(int n, boolean signed, boolean readOnly, boolean configurationTwo, Ordering ordering,
            long slowMillis) {
        this(n, signed, readOnly, configurationTwo, ordering, slowMillis, false);
    }

    private BftwsMode(int n, boolean signed, boolean readOnly, boolean configurationTwo, Ordering ordering,
            long slowMillis, boolean confidential) {
        this(n, signed, readOnly, configurationTwo, ordering, slowMillis, confidential, false);
    }

    private BftwsMode(int n, boolean signed, boolean readOnly, boolean configurationTwo, Ordering ordering,
            long slowMillis, boolean confidential, boolean configurationThree) {
        this(n, signed, readOnly, configurationTwo, ordering, slowMillis, confidential, configurationThree, null);
    }

    private BftwsMode(int n, boolean signed, boolean readOnly, boolean configurationTwo, Ordering ordering,
            long slowMillis, boolean confidential, boolean configurationThree, String journal) {
        this.journal = journal;
        this.confidential = confidential;
        this.configurationThree = configurationThree;
        this.n = n;
        this.signed = signed;
        this.readOnly = readOnly;
        this.configurationTwo = configurationTwo;
        this.ordering = ordering;
        this.slowMillis = slowMillis;
    }

    /**
     * {@code bftws-slow}, {@code bftws-async-slow}, {@code bftws-hybrid-slow}: n = 4 with replica 0 (PBFT's
     * primary while no view change happens, epoch 0's leader under hybrid, under async a replica like the
     * others) sending every message {@link #SLOW_MILLIS} late.
     */
    static BftwsMode slowReplicaZero(Ordering ordering) {
        return new BftwsMode(4, false, false, false, ordering, SLOW_MILLIS);
    }

    /**
     * {@code bftws-async}, {@code bftws-hybrid}: n = 4 in configuration I, ordered by the asynchronous or the
     * hybrid engine (CT coin of keygen).
     */
    static BftwsMode ordered(Ordering ordering) {
        return new BftwsMode(4, false, false, false, ordering);
    }

    /**
     * {@code bftws-confidential}: n = 4 (PBFT), calls of {@code echoConfidential}, declared {@code
     * <bftws:Confidential/>}: the client seals each payload, the replicas order the ciphertext and exchange
     * decryption shares before executing it.
     */
    static BftwsMode confidential() {
        return new BftwsMode(4, false, false, false, Ordering.PBFT, 0, true);
    }

    /**
     * {@code bftws-journal}, {@code bftws-journal-fsync}: n = 4 (PBFT), each replica appending its journal to its
     * data directory before sending each step's messages, written to the OS or fsynced (docs/journal.md).
     */
    static BftwsMode journaled(String durability) {
        return new BftwsMode(4, false, false, false, Ordering.PBFT, 0, false, false, durability);
    }

    /**
     * {@code bftws-axis2control}: n = 4 (PBFT) with {@code bftws.control.directReceive=false} on replicas and
     * client, every control message parsed by Axiom and passed through Axis2's phases: the control port's
     * receive path before the direct one, measured beside it.
     */
    static BftwsMode axis2Control() {
        BftwsMode m = new BftwsMode(4);
        m.axis2Control = true;
        return m;
    }

    /** {@code bftws-ro}: n = 4, read-only echo calls. */
    static BftwsMode readOnly() {
        return new BftwsMode(4, false, true, false);
    }

    /**
     * {@code bftws-c2}: n = 4 in configuration II, replica 0 (the primary while no view change happens) only
     * orders, as in the paper's Fig. 7 ("the primary is fully dedicated to message ordering"). It keeps echo.aar
     * deployed, as the other modes' replicas do, and never invokes it.
     */
    static BftwsMode configurationTwo() {
        return new BftwsMode(4, false, false, true);
    }

    /**
     * {@code bftws-c3}: n = 4 ordering replicas and 3 execution nodes in configuration III, each an embedded
     * Axis2 server with echo.aar; the client takes f+1 matching replies from the execution nodes.
     */
    static BftwsMode configurationThree() {
        return new BftwsMode(4, false, false, false, Ordering.PBFT, 0, false, true);
    }

    /** {@code bftws.executingReplicas} of configuration II: f..n-1, so 0..f-1 only order. */
    private String executingReplicas() {
        StringBuilder ids = new StringBuilder();
        for (int r = (n - 1) / 3; r < n; r++) {
            ids.append(ids.length() == 0 ? "" : " ").append(r);
        }
        return GroupLauncher.param(GroupConfig.EXECUTING_REPLICAS.name(), ids.toString());
    }

    /**
     * {@code bftws} for 4 replicas (the echo experiment's name), else {@code bftws-nN}; {@code -signed} with
     * Rampart, {@code -ro} with read-only calls.
     */
    @Override
    public String name() {
        return (n == 4 ? "bftws" : "bftws-n" + n) + (signed ? "-signed" : "") + (readOnly ? "-ro" : "")
                + (configurationTwo ? "-c2" : "") + (configurationThree ? "-c3" : "") + (ordering == Ordering.PBFT ? "" : "-" + ordering.configValue())
                + (slowMillis > 0 ? "-slow" : "") + (confidential ? "-confidential" : "")
                + (journal == null ? "" : journal.equals("os") ? "-journal" : "-journal-" + journal)
                + (axis2Control ? "-axis2control" : "");
    }

    @Override
    public String description() {
        return "BFT-WS configuration " + (configurationTwo ? "II (" + executingReplicas().replaceAll("<[^>]*>", "")
                .trim() + " execute)" : configurationThree ? "III (" + (2 * ((n - 1) / 3) + 1) + " execution nodes"
                + " beside the replicas execute and reply)" : "I") + ": " + n + " replicas (f = " + (n - 1) / 3 + ") as embedded Axis2 servers on "
                + "loopback, " + switch (ordering) {
                    case PBFT -> "PBFT";
                    case ASYNC -> "SINTRA's asynchronous atomic broadcast (no primary, no timeouts)";
                    case HYBRID -> "the hybrid engine (a leader's fast lane, SINTRA's agreement as its fallback)";
                }
                + " over SOAP/HTTP, one listening client, one ServiceClient (own virtual sequence) per "
                + "concurrent client" + (signed ? "; " + BftwsKeys.SECURITY.name() + "=rampart: CreateSequence and application messages"
                + " X.509-signed by the client (WSS4J) and checked by each replica's Rampart" : "")
                + (readOnly ? "; the read-only echoReadOnly, executed by every replica without ordering, 2f+1"
                + " matching replies (PBFT §5.1.3)" : "") + (confidential ? "; the confidential echoConfidential, its"
                + " payload TDH2-sealed by the client and opened by f+1 decryption shares once ordered (SINTRA §2.6)" : "") + (slowMillis > 0 ? "; replica 0 sends every message "
                + slowMillis + " ms late after the warm-up (the Multicast Sender's fault hook)" : "")
                + (journal == null ? "" : "; each replica journals to its data directory before sending ("
                + BftwsKeys.JOURNAL_DURABILITY.name() + "=" + journal + ")")
                + (axis2Control ? "; " + BftwsKeys.CONTROL_DIRECT_RECEIVE.name() + "=false: control messages through"
                + " Axis2's handler chain" : "");
    }

    @Override
    public Deployment start(EchoSetup setup, Path work) throws Exception {
        ReplicaGroup group = ReplicaGroup.start(setup, work, n, ReplicaGroup.Keys.DEFAULT, setup.echoAar(), "Echo",
                GROUP, (configurationTwo ? executingReplicas() : "")
                        + (ordering == Ordering.PBFT ? "" : GroupLauncher.param(BftwsKeys.ORDERING, ordering))
                        + (axis2Control ? GroupLauncher.param(BftwsKeys.CONTROL_DIRECT_RECEIVE.name(), "false") : ""),
                signed,
                configurationThree ? GroupLauncher.Configuration.III : GroupLauncher.Configuration.I, journal);
        Deployment d = new Deployment() {
            @Override
            public Caller newCaller() throws Exception {
                return readOnly ? flaggedCaller("echoReadOnly", READ_ONLY_ACTION, ReadOnlyCalls.OPTION)
                        : confidential ? flaggedCaller("echoConfidential", CONFIDENTIAL_ACTION, ConfidentialCalls.OPTION)
                        : ServiceClientCaller.ofGroup(group.clientContext(), GROUP);
            }

            /** Calls of echo's variant {@code operation} with the client option {@code flag} set. */
            private ServiceClientCaller flaggedCaller(String operation, String action, String flag) throws Exception {
                ServiceClientCaller c = new ServiceClientCaller(group.clientContext(), GROUP, false) {
                    @Override
                    protected OMElement request(EchoPayload payload) {
                        OMElement echo = payload.build();
                        echo.setLocalName(operation); // the operation's own element (echo.wsdl)
                        return echo;
                    }
                };
                c.client.engageModule("bftws");
                c.client.getOptions().setAction(action);
                c.client.getOptions().setProperty(flag, Boolean.TRUE);
                return c;
            }

            /** The slow modes: replica 0's Multicast Sender delays every message from now on (its fault hook). */
            @Override
            public void warmedUp() {
                if (slowMillis > 0) {
                    BftwsRuntime.replica(group.context(0)).sender().delayEverySend(slowMillis);
                }
            }

            @Override
            public void close() throws Exception {
                if (slowMillis > 0 || ordering == Ordering.HYBRID) {
                    // a slow primary the backups suspected would have been replaced: say whether it was; under
                    // hybrid ordering the view is the epoch, so a no-attack run shows its fallbacks (none expected)
                    System.err.println("perf " + name() + ": views at the end " + java.util.Arrays.toString(
                            java.util.stream.IntStream.range(0, n).mapToLong(r -> group.manager(r).view()).toArray()));
                }
                group.close();
            }
        };
        if (signed) {
            try {
                EchoSigning.prime(d);
            } catch (Exception | Error e) {
                group.close();
                throw e;
            }
        }
        return d;
    }
}
