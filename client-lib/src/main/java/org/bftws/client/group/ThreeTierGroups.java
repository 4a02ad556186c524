package org.bftws.client.group;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.security.SecureRandom;

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
 */
public final class ThreeTierGroups implements AutoCloseable {
    public static final String BACKEND_ENDPOINT = "http://backend.group.example/axis2/services/Echo";
    public static final String MIDDLE_ENDPOINT = "http://middle.group.example/axis2/services/Relay";
    public static final int N = 4;
    /**
     * The middle replicas' view-change timeout, in ticks of 20 ms: a middle replica's execution thread
     * waits for the nested call, and a checkpoint's get_state waits behind it, so a pending request's timer
     * must outlast a slow nested call (a backend view change) or the middle group changes view for nothing.
     */
    public static final int MIDDLE_VIEW_CHANGE_TICKS = 1500;
    /** How long one nested attempt waits before the relay retries it. */
    public static final long NESTED_ATTEMPT_MILLIS = 10_000;

    private final String backendAction;
    private final Path backendKeys;
    private final Path middleKeys;
    private final int[] backendPorts;
    private final int[] middlePorts;
    private final EmbeddedAxis2Server[] backend = new EmbeddedAxis2Server[N];
    private final EmbeddedAxis2Server[] middle = new EmbeddedAxis2Server[N];

    private ThreeTierGroups(Path backendKeys, Path middleKeys, String backendAction) throws IOException {
        this.backendAction = backendAction;
        this.backendKeys = backendKeys;
        this.middleKeys = middleKeys;
        this.backendPorts = GroupLauncher.freePorts(N);
        this.middlePorts = GroupLauncher.freePorts(N);
    }

    /** Generates both groups' keys under {@code dir}, starts the backend, then the middle tier. */
    public static ThreeTierGroups start(Path artifacts, Path conf, Path dir) throws IOException {
        return start(artifacts, conf, dir, GroupLauncher.ECHO_ACTION);
    }

    /** As above, the middle tier calling {@code backendAction} (relay.backend.action) on the backend. */
    public static ThreeTierGroups start(Path artifacts, Path conf, Path dir, String backendAction)
            throws IOException {
        ThreeTierGroups t = new ThreeTierGroups(keygen(dir.resolve("backend-keys"), N),
                keygen(dir.resolve("middle-keys"), 1), backendAction);
        try {
            for (int r = 0; r < N; r++) {
                t.backend[r] = GroupLauncher.startReplica(t.layout(artifacts, conf, t.backendKeys),
                        dir.resolve("backend" + r), t.backendPorts[r], t.backendReplicaParameters(r), "echo.aar");
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
        return GroupLauncher.groupParameters(BACKEND_ENDPOINT, "Echo", backendPorts, backendKeys)
                + GroupLauncher.replicaParameters(r, backendKeys)
                + GroupLauncher.param(BftwsKeys.RANDOMNESS, RandomnessAlgorithm.NONE);
    }

    /** Middle replica {@code r}: the relay service, and a nested client repository listening on {@code nestedPort}. */
    private EmbeddedAxis2Server startMiddle(Path artifacts, Path conf, Path dir, int r, int nestedPort)
            throws IOException {
        String reply = GroupLauncher.serviceUrl(nestedPort, "BftwsControl");
        Path nested = GroupLauncher.clientRepository(layout(artifacts, conf, backendKeys), dir.resolve("backend-client"),
                GroupLauncher.groupParameters(BACKEND_ENDPOINT, "Echo", backendPorts, backendKeys)
                        + GroupLauncher.clientParameters(r + 1, backendKeys)
                        + GroupLauncher.param(BftwsKeys.CLIENT_REPLY_ENDPOINT.name(), reply)
                        + GroupLauncher.httpReceiver(nestedPort)).root();
        String params = GroupLauncher.groupParameters(MIDDLE_ENDPOINT, "Relay", middlePorts, middleKeys)
                + GroupLauncher.replicaParameters(r, middleKeys)
                + GroupLauncher.param(BftwsKeys.RANDOMNESS, RandomnessAlgorithm.NONE)
                + GroupLauncher.param(GroupConfig.VIEW_CHANGE_TIMEOUT, MIDDLE_VIEW_CHANGE_TICKS)
                + relayParameters(nested, BACKEND_ENDPOINT, NESTED_ATTEMPT_MILLIS)
                + GroupLauncher.param("relay.backend.action", backendAction);
        return GroupLauncher.startReplica(layout(artifacts, conf, middleKeys), dir, middlePorts[r], params,
                "relay.aar");
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
