package org.bftws.module.order;

import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import org.apache.axis2.AxisFault;
import org.apache.axis2.context.ConfigurationContext;
import org.bftws.core.replication.ConfidentialConfig;
import org.bftws.core.replication.ConfidentialOperations;
import org.bftws.core.replication.RandomizedOperations;
import org.bftws.core.pbft.RandomnessConfig;
import org.bftws.core.pbft.ReadOnlyOperations;
import org.bftws.module.config.BftwsConfig;
import org.bftws.module.config.BftwsKeys;
import org.bftws.module.config.ReplicaEndpoint;
import org.bftws.module.http.HttpRoutes;
import org.bftws.module.journal.JournalStore;
import org.bftws.module.keys.GroupKeyMaterial;
import org.bftws.module.random.RandomnessSetup;
import org.bftws.module.transport.ControlMessage;
import org.bftws.module.transport.ControlGuard;
import org.bftws.module.transport.ControlPort;
import org.bftws.module.transport.MulticastSender;

/**
 * One replica's ordering machinery inside an Axis2 instance: the {@link MulticastSender}, the
 * {@link TotalOrderManager} and the {@link ControlPort} that feeds it, wired from a validated
 * {@link BftwsConfig}, and its {@link ReplicaStatus} (the JMX MBean and the status line). Keys are passed in:
 * loading them from {@code bftws.keys.*} waits for the keygen tool's file format. Closing stops them in the
 * reverse order.
 */
public final class BftwsReplica implements AutoCloseable {
    /**
     * Received control messages queued before more are dropped: a few log windows' worth of a group's
     * messages, far more than the normal case holds, small enough to bound memory under a flood.
     */
    public static final int INBOUND_CAPACITY = 4096;

    private final MulticastSender sender;
    private final TotalOrderManager manager;
    private final ControlPort port;
    private final ControlPortClientFilter filter;
    private final ReplicaStatus status;
    private final HttpRoutes routes;

    private BftwsReplica(MulticastSender sender, TotalOrderManager manager, ControlPort port,
            ControlPortClientFilter filter, ReplicaStatus status, HttpRoutes routes) {
        this.sender = sender;
        this.manager = manager;
        this.port = port;
        this.filter = filter;
        this.status = status;
        this.routes = routes;
    }

    /**
     * Ordering alone, with no service endpoint in front: clients post their signed core requests to the
     * control port (OrderingOverHttpTest wires replicas so, to measure ordering without Axis2 invocation).
     */
    public static BftwsReplica start(ConfigurationContext context, BftwsConfig config, GroupKeyMaterial keys,
            ReplicatedService service) throws AxisFault {
        // asynchronous and hybrid ordering toss the group's coin in their agreements: CT whatever the key says
        RandomnessConfig randomness = config.ordering().tossesCoin()
                ? RandomnessSetup.of(config, keys, RandomizedOperations.AS_FLAGGED) : RandomnessConfig.none();
        return start(context, config, keys, service, randomness, ReadOnlyOperations.NONE, true);
    }

    /**
     * A replica whose randomized requests get collective random numbers as {@code randomness} says, and that
     * executes the read-only requests {@code readOnly} allows without ordering (Castro-Liskov §5.1.3; they
     * come on the control port, with no message number of a WS-RM sequence). Unless
     * {@code requestsOnControlPort}, clients' ordered requests are taken only as WS-RM application messages at
     * the service endpoint ({@link #deliverClientRequest}), and refused on the control port. {@code keys}: this
     * replica's signer, the group's verifier and, with {@code bftws.authentication=macs}, its authenticators.
     */
    public static BftwsReplica start(ConfigurationContext context, BftwsConfig config, GroupKeyMaterial keys,
            ReplicatedService service, RandomnessConfig randomness, ReadOnlyOperations readOnly,
            boolean requestsOnControlPort) throws AxisFault {
        return start(context, config, keys, service, randomness, readOnly, ConfidentialOperations.NONE,
                requestsOnControlPort, manager -> { });
    }

    /**
     * As above, the requests {@code confidential} names ordered as ciphertexts and opened with the group's
     * TDH2 key before execution (SINTRA §2.6), with this replica's decryption share from {@code keys}.
     * {@code beforeStart} gets the Total Order Manager before it replays the journal (services that install keys
     * at the seq of the batch they execute need it from the first replayed batch on).
     */
    public static BftwsReplica start(ConfigurationContext context, BftwsConfig config, GroupKeyMaterial keys,
            ReplicatedService service, RandomnessConfig randomness, ReadOnlyOperations readOnly,
            ConfidentialOperations confidential, boolean requestsOnControlPort,
            Consumer<TotalOrderManager> beforeStart) throws AxisFault {
        if (!config.isReplica()) {
            throw new IllegalArgumentException("not a replica configuration");
        }
        if (config.administrators() != null) {
            // Core's epoch engine (EpochReplica) is not wired into the Total Order Manager and the Multicast
            // Sender yet: running today's fixed group would silently ignore every reconfiguration.
            throw new AxisFault(BftwsKeys.RECONFIG_ADMINISTRATORS.name() + ": this module does not run"
                    + " reconfigurable groups yet (docs/status.md); unset it to run a fixed group");
        }
        int id = config.replicaId();
        List<URI> control = new ArrayList<>();
        for (ReplicaEndpoint r : config.replicas()) {
            control.add(ControlPort.controlUri(r.endpoint()));
        }
        Map<Integer, URI> executionControl = new HashMap<>();
        for (ReplicaEndpoint e : config.executionNodes()) {
            executionControl.put(e.id(), ControlPort.controlUri(e.endpoint()));
        }
        // A window's worth of threads per peer, so a dead peer's timeouts delay nobody else's messages.
        MulticastSender sender = new MulticastSender("bftws-send-r" + id, config.n() + executionControl.size(),
                config.multicast());
        EngineOptions engine = new EngineOptions(config.group(), id, keys.signer(), keys.verifier(), randomness)
                .ordering(config.ordering()).readOnly(readOnly).macs(keys.macs())
                .replicatedClients(config.replicatedClients());
        if (config.dataDir() != null) {
            engine.journal(openJournal(config, sender));
        }
        // Configuration III's execution nodes hold no decryption share and agreement replicas execute nothing:
        // confidential operations are not offered there, and a sealed request is refused by the In Handler.
        // A replica of a group without a dealer has no TDH2 share before its key generation (DkgBootstrap).
        if (confidential != ConfidentialOperations.NONE && config.group().executionNodes().isEmpty()
                && keys.group() != null) {
            engine.confidential(new ConfidentialConfig(keys.group().encryption(), keys.decryption(),
                    RandomnessSetup.groupId(config), confidential));
        }
        if (keys.pending() != null) {
            // the key generation's outcome is installed at the seq that delivered it (DkgBootstrap), and so is
            // each refresh's (KeyRefresh)
            engine.changingKeys(keys.keysPending() && config.group().executionNodes().isEmpty() ? confidential : null);
        }
        TotalOrderManager manager = new TotalOrderManager(engine, control, service, sender, config.tickMillis(),
                INBOUND_CAPACITY, config.controlMaxBytes());
        manager.executionNodeControl(executionControl);
        ControlPortClientFilter filter = requestsOnControlPort ? null
                : new ControlPortClientFilter(manager, config.clientBase(),
                        node -> keys.pending() != null && keys.pending().replicaOf(node) >= 0);
        ControlPort port;
        try {
            port = ControlPort.deploy(context, filter == null ? manager : filter, config.controlMaxBytes(),
                    ControlGuard.NONE, config.controlDirectBodyBytes());
        } catch (AxisFault | RuntimeException e) {
            sender.close();
            throw e;
        }
        port.refuse(manager.transportRefusal());
        beforeStart.accept(manager);
        manager.start();
        ReplicaStatus status = new ReplicaStatus(config.groupEndpoint(), id, control, manager, sender,
                requestsOnControlPort);
        status.start(config.statusLogSeconds());
        // GET /metrics on the replica's HTTP port (RoutingHttpServer), in Prometheus's text format.
        HttpRoutes routes = HttpRoutes.of(context);
        routes.unregister(ReplicaMetrics.PATH); // a replica restarted in this Axis2 instance replaces its own
        routes.register(ReplicaMetrics.PATH, new ReplicaMetrics(status, manager, sender, control, keys.counts(),
                filter == null ? () -> 0 : filter::refused));
        return new BftwsReplica(sender, manager, port, filter, status, routes);
    }

    /** The journal in {@code bftws.dataDir}; a directory that cannot be used stops start-up, naming it. */
    private static JournalStore openJournal(BftwsConfig config, MulticastSender sender) throws AxisFault {
        try {
            return JournalStore.open(config.dataDir(), config.journalDurability());
        } catch (IOException | RuntimeException e) {
            sender.close();
            throw new AxisFault("bftws.dataDir " + config.dataDir() + ": cannot open the replica's journal: " + e, e);
        }
    }

    /**
     * A client request that arrived as a WS-RM application message its Sandesha2 accepted (paper §3.3.1.4:
     * the In Handler stores it for ordering): Sandesha2 knew the sequence and recorded the number.
     */
    public void deliverClientRequest(ControlMessage request) {
        manager.deliver(request);
    }

    /** Client requests refused so far on the control port (they must come through Sandesha2). */
    public long refusedRequests() {
        return filter == null ? 0 : filter.refused();
    }

    public TotalOrderManager manager() {
        return manager;
    }

    public MulticastSender sender() {
        return sender;
    }

    public ControlPort port() {
        return port;
    }

    /** What this replica shows operators, also registered as its MBean while it runs. */
    public ReplicaStatus status() {
        return status;
    }

    @Override
    public void close() throws AxisFault {
        routes.unregister(ReplicaMetrics.PATH);
        status.close();
        try {
            port.undeploy();
        } finally {
            manager.close();
            sender.close();
        }
    }
}
