package org.bftws.perf.echo;

import static org.bftws.client.group.GroupLauncher.param;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.apache.axis2.context.ConfigurationContext;
import org.bftws.client.embedded.EmbeddedAxis2Server;
import org.bftws.client.group.GroupLauncher;
import org.bftws.core.keys.KeyGen;
import org.bftws.module.BftwsRuntime;
import org.bftws.module.config.BftwsKeys;
import org.bftws.module.order.BftwsReplica;
import org.bftws.module.order.TotalOrderManager;

/**
 * A BFT-WS group of n = 3f+1 replicas (BFT-WS paper §3.2, configuration I) as embedded Axis2 servers on
 * loopback, plus one listening client whose control port receives the replies. Keys come from keygen with
 * {@code --replicas n}; {@code bftws.f} is set to (n-1)/3. A replica can be stopped and restarted empty at its
 * listed endpoint (the recovery experiment's crash and state transfer). Closing stops everything still running.
 *
 * <p>The parameters are {@link GroupLauncher}'s, as every group's; the repositories are {@link EchoSetup}'s: n
 * varies, each replica deploys only the measured service (with rampart.mar for the signed modes), and with a WAN
 * delay the listed endpoints are forwarders, not the listeners.
 */
public final class ReplicaGroup implements AutoCloseable {
    private final EchoSetup setup;
    private final Path work;
    private final Path serviceAar;
    private final Path keys;
    private final String groupParams;
    /** Every member's port: the n replicas, then any execution nodes. */
    private final int[] ports;
    private final int n;
    private final GroupLauncher.Configuration configuration;
    /** The client signs with {@code client-J.key}, J = this (after the execution nodes' keys). */
    private final int clientKey;
    private final EmbeddedAxis2Server[] replicas;
    private final Closer closer = new Closer();
    /** X.509 signing ({@code bftws.security=rampart}), or null for none. */
    private GroupSigning signing;
    /** Null, or the replicas' bftws.journal.durability (each journals into its directory's data/). */
    private String journal;
    private EmbeddedAxis2Server client;
    private int restarts;

    private ReplicaGroup(EchoSetup setup, Path work, Path serviceAar, Path keys, String groupParams, int[] ports,
            int n, GroupLauncher.Configuration configuration, int clientKey) {
        this.n = n;
        this.configuration = configuration;
        this.clientKey = clientKey;
        this.setup = setup;
        this.work = work;
        this.serviceAar = serviceAar;
        this.keys = keys;
        this.groupParams = groupParams;
        this.ports = ports;
        this.replicas = new EmbeddedAxis2Server[ports.length];
    }

    /**
     * Keygen options (docs/security.md "Keys and threshold cryptography"): the coin scheme ({@code cks}, {@code bls},
     * {@code rsa}), the threshold k (0: keygen's default f+1) and the RSA modulus bits (0: keygen's default).
     * The replicas' {@code bftws.randomness.scheme} follows the scheme.
     */
    public record Keys(String scheme, int k, int rsaBits) {
        public static final Keys DEFAULT = new Keys("cks", 0, 0);

        String[] keygenArgs(Path out, int n, int clients) {
            List<String> a = new ArrayList<>(List.of("--out", out.toString(), "--replicas", String.valueOf(n),
                    "--clients", String.valueOf(clients), "--scheme", scheme));
            if (k > 0) {
                a.addAll(List.of("--k", String.valueOf(k)));
            }
            if (rsaBits > 0) {
                a.addAll(List.of("--rsa-bits", String.valueOf(rsaBits)));
            }
            return a.toArray(new String[0]);
        }
    }

    /**
     * Starts n replicas serving {@code serviceAar}'s service {@code serviceName} under the group endpoint
     * {@code groupEndpoint}, and the client; {@code extraParams} (axis2.xml parameter elements, e.g.
     * {@code bftws.checkpointInterval}) go to replicas and client alike. Keys are keygen's defaults.
     */
    public static ReplicaGroup start(EchoSetup setup, Path work, int n, Path serviceAar, String serviceName,
            String groupEndpoint, String extraParams) throws Exception {
        return start(setup, work, n, Keys.DEFAULT, serviceAar, serviceName, groupEndpoint, extraParams);
    }

    /**
     * As above with the given keygen options. With a WAN delay in {@code setup}, every replica's listed endpoint
     * and the client's reply endpoint ({@code bftws.client.replyEndpoint}) are {@link
     * org.bftws.perf.wan.DelayForwarder}s in front of the real listeners, so every hop (client to replica,
     * replica to replica, replica to client) pays the one-way delay.
     */
    public static ReplicaGroup start(EchoSetup setup, Path work, int n, Keys keyOptions, Path serviceAar,
            String serviceName, String groupEndpoint, String extraParams) throws Exception {
        return start(setup, work, n, keyOptions, serviceAar, serviceName, groupEndpoint, extraParams, false);
    }

    /** As above; {@code signed}: {@code bftws.security=rampart} with generated X.509 keystores ({@link GroupSigning}). */
    public static ReplicaGroup start(EchoSetup setup, Path work, int n, Keys keyOptions, Path serviceAar,
            String serviceName, String groupEndpoint, String extraParams, boolean signed) throws Exception {
        return start(setup, work, n, keyOptions, serviceAar, serviceName, groupEndpoint, extraParams, signed,
                GroupLauncher.Configuration.I);
    }

    /**
     * As above in {@code configuration}; with III, 2f+1 execution nodes (ids n..n+2f, BFT-WS §3.3.3) beside the n
     * replicas, which then only order ({@link GroupLauncher.Configuration}).
     */
    public static ReplicaGroup start(EchoSetup setup, Path work, int n, Keys keyOptions, Path serviceAar,
            String serviceName, String groupEndpoint, String extraParams, boolean signed,
            GroupLauncher.Configuration configuration) throws Exception {
        return start(setup, work, n, keyOptions, serviceAar, serviceName, groupEndpoint, extraParams, signed,
                configuration, null);
    }

    /**
     * As above, each of the n replicas keeping a journal in {@code DIR/data} of its directory with
     * {@code bftws.journal.durability} = {@code journal} (docs/journal.md); null for none.
     */
    public static ReplicaGroup start(EchoSetup setup, Path work, int n, Keys keyOptions, Path serviceAar,
            String serviceName, String groupEndpoint, String extraParams, boolean signed,
            GroupLauncher.Configuration configuration, String journal) throws Exception {
        if (n < 4 || (n - 1) % 3 != 0) {
            throw new IllegalArgumentException("n must be 3f+1 with f >= 1, got " + n);
        }
        int members = configuration == GroupLauncher.Configuration.III ? n + 2 * ((n - 1) / 3) + 1 : n;
        int clientKey = configuration.clientKey(members);
        Path keys = work.resolve("keys");
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        int status = KeyGen.run(keyOptions.keygenArgs(keys, n, clientKey), new SecureRandom(), new PrintStream(log),
                new PrintStream(log));
        if (status != 0) {
            throw new IllegalStateException("keygen failed: " + log);
        }
        // bftws.replicas names every endpoint before any replica starts: take free ports first
        int[] ports = GroupLauncher.freePorts(members + 1);
        Closer forwarders = new Closer();
        try {
            int[] listed = new int[members];
            for (int r = 0; r < members; r++) {
                listed[r] = setup.reachablePort(forwarders, ports[r]);
            }
            String group = GroupLauncher.groupParameters(groupEndpoint, serviceName, listed, keys, configuration)
                    + param(BftwsKeys.THRESHOLD_SCHEME.name(), keyOptions.scheme())
                    + (setup.authentication() == null ? "" : param(BftwsKeys.AUTHENTICATION.name(), setup.authentication()))
                    + configuration.parameters(members) + extraParams;
            String replyEndpoint = setup.wanDelayMillis() == 0 ? "" : param(BftwsKeys.CLIENT_REPLY_ENDPOINT.name(),
                    "http://127.0.0.1:" + setup.reachablePort(forwarders, ports[members]) + "/axis2/services/BftwsControl");
            ReplicaGroup g = new ReplicaGroup(setup, work, serviceAar, keys, group, Arrays.copyOf(ports, members),
                    n, configuration, clientKey);
            g.closer.register(forwarders);
            try {
                g.signing = signed ? GroupSigning.generate(work.resolve("x509"), n) : null;
                g.journal = journal;
                for (int r = 0; r < members; r++) {
                    g.startReplica(r, work.resolve("replica" + r));
                }
                g.startClient(ports[members], replyEndpoint);
                return g;
            } catch (Exception | Error e) {
                g.close();
                throw e;
            }
        } catch (Exception | Error e) {
            forwarders.close();
            throw e;
        }
    }

    /** The replicas (3f+1), execution nodes not counted. */
    public int n() {
        return n;
    }

    /** The loopback port replica {@code r} listens on (not a WAN forwarder's). */
    public int port(int r) {
        return ports[r];
    }

    /** The client's Axis2 context: ServiceClients on it with bftws engaged call the group. */
    public ConfigurationContext clientContext() {
        return client.context();
    }

    /** Replica r's Total Order Manager; fails if r is stopped. */
    public TotalOrderManager manager(int r) {
        EmbeddedAxis2Server s = replicas[r];
        BftwsReplica replica = s == null ? null : BftwsRuntime.replica(s.context());
        if (replica == null) {
            throw new IllegalStateException("replica " + r + " is not running");
        }
        return replica.manager();
    }

    /** Replica r's Axis2 context; fails if r is stopped. */
    public ConfigurationContext context(int r) {
        if (replicas[r] == null) {
            throw new IllegalStateException("replica " + r + " is not running");
        }
        return replicas[r].context();
    }

    /** Stops replica r (a crash: its state is gone; its endpoint stays in the group's list). */
    public void stop(int r) throws Exception {
        EmbeddedAxis2Server s = replicas[r];
        replicas[r] = null;
        if (s != null) {
            s.close();
        }
    }

    /** Starts replica r again at its endpoint from a fresh, empty directory: it must catch up by state transfer. */
    public void restartEmpty(int r) throws Exception {
        if (replicas[r] != null) {
            throw new IllegalStateException("replica " + r + " is running");
        }
        startReplica(r, work.resolve("replica" + r + "-restart" + (++restarts)));
    }

    private void startReplica(int r, Path dir) throws Exception {
        Path xml = setup.axis2Xml(dir.resolve("conf"), "axis2-replica.xml", groupParams
                + configuration.memberParameters(r, ports.length, keys)
                + (signing == null ? "" : signing.replicaParams(r))
                + (journal == null || r >= n ? "" : GroupLauncher.journalParameters(dir.resolve("data"), journal)));
        replicas[r] = EmbeddedAxis2Server.start(setup.server(dir.resolve("repository"), xml, serviceAar), ports[r]);
    }

    private void startClient(int port, String replyEndpoint) throws Exception {
        Path xml = setup.axis2Xml(work.resolve("client/conf"), "axis2-client.xml", groupParams + replyEndpoint
                + GroupLauncher.clientParameters(clientKey, keys)
                + (signing == null ? "" : signing.clientParams()) + GroupLauncher.httpReceiver(0));
        client = closer.register(EmbeddedAxis2Server.start(setup.client(work.resolve("client/repository"), xml),
                port));
    }

    /** Stops the client and every running replica; every stop is attempted. */
    @Override
    public void close() throws Exception {
        for (int r = 0; r < replicas.length; r++) {
            EmbeddedAxis2Server s = replicas[r];
            replicas[r] = null;
            if (s != null) {
                closer.register(s);
            }
        }
        closer.close();
    }
}
