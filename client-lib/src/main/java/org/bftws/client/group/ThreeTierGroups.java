package org.bftws.client.group;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Set;

import org.bftws.client.embedded.EmbeddedAxis2Server;
import org.bftws.core.config.GroupConfig;
import org.bftws.core.keys.KeyGen;
import org.bftws.module.config.BftwsKeys;
import org.bftws.module.config.RandomnessAlgorithm;

/**
 * The three-tier echo (BFT-WS paper §3.4, §4.1.2) on 127.0.0.1 in this JVM: a backend group of 4 echo
 * replicas and a middle group of 4 relay replicas ({@code relay.aar}), each middle replica a BFT-WS client
 * of the backend group with its own client key and reply listener. A client of the middle group calls it
 * as it would call echo.
 *
 * <p>Keys: the backend group's keygen run has one client per middle replica (middle replica I signs its
 * nested requests with the backend's {@code client-(I+1).key}); the middle group's has one client, the
 * outer caller. Each middle replica's nested client repository is written under its directory and named
 * by {@code relay.backend.repository} in its axis2.xml.
 *
 * <p>The middle replicas are one replicated client of the backend (§3.4): {@code bftws.replicatedClients}
 * names their four backend client ids, alike in the backend replicas' axis2.xml (which then order a nested
 * request once p+1 = 2 middle replicas sent it identically, execute it once and answer all four) and in each
 * nested client's (which then shares one sequence with the others, numbered by the relay's count of nested
 * calls).
 */
public final class ThreeTierGroups implements AutoCloseable {
    /** The backend's archive, service name and the action the relay calls on it. */
    public record Backend(String aar, String service, String action) {
        public static final Backend ECHO = new Backend("echo.aar", "Echo", GroupLauncher.ECHO_ACTION);
        /** Non-idempotent: each executed increment adds to the value (exactly-once is visible). */
        public static final Backend COUNTER = new Backend("counter.aar", "Counter", GroupLauncher.COUNTER_INCREMENT);

        /** This backend with the relay calling {@code other} instead. */
        public Backend withAction(String other) {
            return new Backend(aar, service, other);
        }

        /** The backend group's endpoint. */
        public String endpoint() {
            return "http://backend.group.example/axis2/services/" + service;
        }
    }

    public static final String BACKEND_ENDPOINT = Backend.ECHO.endpoint();
    public static final String MIDDLE_ENDPOINT = "http://middle.group.example/axis2/services/Relay";
    public static final int N = 4;
    /** The backend client ids of the middle replicas (keygen's client-1..4 of the backend): one replicated client. */
    public static final String MIDDLE_MEMBERS = N + "-" + (2 * N - 1);
    /**
     * The middle replicas' view-change timeout, in ticks of 20 ms: a middle replica's execution thread
     * waits for the nested call, and a checkpoint's get_state waits behind it, so a pending request's timer
     * must outlast a slow nested call (a backend view change) or the middle group changes view for nothing.
     */
    public static final int MIDDLE_VIEW_CHANGE_TICKS = 1500;
    /** How long one nested attempt waits before the relay retries it. */
    public static final long NESTED_ATTEMPT_MILLIS = 10_000;

    private final Backend backendService;
    /** Middle replicas that send altered nested requests (relay-faulty.aar: Byzantine members). */
    private final Set<Integer> faultyMiddle;
    private final Path backendKeys;
    private final Path middleKeys;
    private final int[] backendPorts;
    private final int[] middlePorts;
    private final EmbeddedAxis2Server[] backend = new EmbeddedAxis2Server[N];
    private final EmbeddedAxis2Server[] middle = new EmbeddedAxis2Server[N];

    private ThreeTierGroups(Path backendKeys, Path middleKeys, Backend backend, Set<Integer> faultyMiddle)
            throws IOException {
        this.backendService = backend;
        this.faultyMiddle = faultyMiddle;
        this.backendKeys = backendKeys;
        this.middleKeys = middleKeys;
        this.backendPorts = GroupLauncher.freePorts(N);
        this.middlePorts = GroupLauncher.freePorts(N);
    }

    /** Generates both groups' keys under {@code dir}, starts the backend, then the middle tier. */
    public static ThreeTierGroups start(Path artifacts, Path conf, Path dir) throws IOException {
        return start(artifacts, conf, dir, Backend.ECHO, Set.of());
    }

    /**
     * As above, with {@code backend} behind the middle tier and the middle replicas {@code faultyMiddle}
     * Byzantine: they run {@code relay-faulty.aar} (sample-services' test sources), which sends altered nested
     * requests.
     */
    public static ThreeTierGroups start(Path artifacts, Path conf, Path dir, Backend backend,
            Set<Integer> faultyMiddle) throws IOException {
        ThreeTierGroups t = new ThreeTierGroups(keygen(dir.resolve("backend-keys"), N),
                keygen(dir.resolve("middle-keys"), 1), backend, Set.copyOf(faultyMiddle));
        try {
            for (int r = 0; r < N; r++) {
                t.backend[r] = GroupLauncher.startReplica(t.layout(artifacts, conf, t.backendKeys),
                        dir.resolve("backend" + r), t.backendPorts[r], t.backendReplicaParameters(r), backend.aar());
            }
            int[] nestedPorts = GroupLauncher.freePorts(N);
            for (int r = 0; r < N; r++) {
                t.middle[r] = t.startMiddle(artifacts, conf, dir.resolve("middle" + r), r, nestedPorts[r]);
            }
            return t;
        } catch (IOException | RuntimeException e) {
            t.close();
            throw e;
        }
    }

    private String backendReplicaParameters(int r) {
        return backendGroupParameters()
                + GroupLauncher.replicaParameters(r, backendKeys)
                + GroupLauncher.param(BftwsKeys.RANDOMNESS, RandomnessAlgorithm.NONE);
    }

    /** The backend group as its replicas and the nested clients know it, the middle replicas one client of it. */
    private String backendGroupParameters() {
        return GroupLauncher.groupParameters(backendService.endpoint(), backendService.service(), backendPorts,
                backendKeys) + GroupLauncher.param(BftwsKeys.REPLICATED_CLIENTS.name(), MIDDLE_MEMBERS);
    }

    /** Middle replica {@code r}: the relay service, and a nested client repository listening on {@code nestedPort}. */
    private EmbeddedAxis2Server startMiddle(Path artifacts, Path conf, Path dir, int r, int nestedPort)
            throws IOException {
        String reply = GroupLauncher.serviceUrl(nestedPort, "BftwsControl");
        Path nested = GroupLauncher.clientRepository(layout(artifacts, conf, backendKeys), dir.resolve("backend-client"),
                backendGroupParameters()
                        + GroupLauncher.clientParameters(r + 1, backendKeys)
                        + GroupLauncher.param(BftwsKeys.CLIENT_REPLY_ENDPOINT.name(), reply)
                        + GroupLauncher.httpReceiver(nestedPort)).root();
        String params = GroupLauncher.groupParameters(MIDDLE_ENDPOINT, "Relay", middlePorts, middleKeys)
                + GroupLauncher.replicaParameters(r, middleKeys)
                + GroupLauncher.param(BftwsKeys.RANDOMNESS, RandomnessAlgorithm.NONE)
                + GroupLauncher.param(GroupConfig.VIEW_CHANGE_TIMEOUT, MIDDLE_VIEW_CHANGE_TICKS)
                + relayParameters(nested, backendService.endpoint(), NESTED_ATTEMPT_MILLIS)
                + GroupLauncher.param("relay.backend.action", backendService.action());
        return GroupLauncher.startReplica(layout(artifacts, conf, middleKeys), dir, middlePorts[r], params,
                faultyMiddle.contains(r) ? "relay-faulty.aar" : "relay.aar");
    }

    /** The relay service's parameters (sample-services' BackendCall), for a hosting axis2.xml. */
    public static String relayParameters(Path nestedRepository, String backendEndpoint, long attemptMillis) {
        return GroupLauncher.param("relay.backend.repository", nestedRepository.toString())
                + GroupLauncher.param("relay.backend.endpoint", backendEndpoint)
                + GroupLauncher.param("relay.backend.attemptMillis", String.valueOf(attemptMillis));
    }

    /** A listening client of the middle group (middle keys' client-1), repository under {@code dir}. */
    public EmbeddedAxis2Server client(Path artifacts, Path conf, Path dir) throws IOException {
        return EmbeddedAxis2Server.start(GroupLauncher.clientRepository(layout(artifacts, conf, middleKeys), dir,
                GroupLauncher.groupParameters(MIDDLE_ENDPOINT, "Relay", middlePorts, middleKeys)
                        + GroupLauncher.clientParameters(1, middleKeys) + GroupLauncher.httpReceiver(0)));
    }

    public EmbeddedAxis2Server backend(int r) {
        return backend[r];
    }

    public EmbeddedAxis2Server middle(int r) {
        return middle[r];
    }

    /** Stops backend replica {@code r} (a crash, as far as the others can tell). */
    public void stopBackend(int r) throws IOException {
        stop(backend, r);
    }

    /** Stops middle replica {@code r} and its nested client. */
    public void stopMiddle(int r) throws IOException {
        stop(middle, r);
    }

    private static void stop(EmbeddedAxis2Server[] servers, int r) throws IOException {
        EmbeddedAxis2Server s = servers[r];
        servers[r] = null;
        if (s != null) {
            s.close();
        }
    }

    /** Middle tier first (its nested clients call the backend), then the backend. */
    @Override
    public void close() throws IOException {
        IOException first = null;
        for (EmbeddedAxis2Server[] tier : new EmbeddedAxis2Server[][] {middle, backend}) {
            for (int r = 0; r < N; r++) {
                try {
                    stop(tier, r);
                } catch (IOException e) {
                    first = first == null ? e : first;
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }

    private GroupLauncher.Layout layout(Path artifacts, Path conf, Path keys) {
        return new GroupLauncher.Layout(artifacts, conf, keys);
    }

    private static Path keygen(Path out, int clients) throws IOException {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        PrintStream p = new PrintStream(log);
        int status = KeyGen.run(new String[] {"--out", out.toString(), "--replicas", String.valueOf(N), "--clients",
            String.valueOf(clients)}, new SecureRandom(), p, p);
        if (status != 0) {
            throw new IOException("keygen failed: " + log);
        }
        return out;
    }
}
