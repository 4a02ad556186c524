package org.bftws.module.order;

import java.lang.management.ManagementFactory;
import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import javax.management.InstanceNotFoundException;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;

import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.bftws.module.Threads;
import org.bftws.module.transport.MulticastSender;

/**
 * One replica's {@link ReplicaStatusMBean}, registered with the platform MBeanServer while the replica runs, and
 * its status line, logged every {@code bftws.statusLogSeconds} (docs/operating.md). Reads only what the ordering
 * thread published ({@link TotalOrderManager#snapshot()}, the evidence counts) and the Multicast Sender's own
 * thread-safe state, so any thread may read it.
 */
public final class ReplicaStatus implements ReplicaStatusMBean, AutoCloseable {
    private static final Logger LOG = LogManager.getLogger(ReplicaStatus.class);
    public static final String DOMAIN = "org.bftws";

    /** Registered by this class loader's replicas, so a replica unregisters only its own MBean. */
    private static final Map<ObjectName, ReplicaStatus> REGISTERED = new ConcurrentHashMap<>();

    private final URI groupEndpoint;
    private final int id;
    private final List<URI> replicaControl;
    private final TotalOrderManager manager;
    private final MulticastSender sender;
    private final String orderingMode;
    private final ObjectName name;
    private ScheduledExecutorService statusLog;

    /**
     * @param replicaControl        control-port URL of every replica, by id (how the sender knows them)
     * @param requestsOnControlPort whether clients' requests are taken on the control port (ordering alone)
     *                              rather than only as WS-RM application messages
     */
    public ReplicaStatus(URI groupEndpoint, int id, List<URI> replicaControl, TotalOrderManager manager,
            MulticastSender sender, boolean requestsOnControlPort) {
        this.groupEndpoint = groupEndpoint;
        this.id = id;
        this.replicaControl = List.copyOf(replicaControl);
        this.manager = manager;
        this.sender = sender;
        this.orderingMode = manager.orderingMode() + (requestsOnControlPort ? ", client requests on the control port"
                : ", client requests via WS-RM");
        this.name = objectName(groupEndpoint, id);
    }

    /** {@code org.bftws:type=Replica,group="ENDPOINT",id=N}. */
    public static ObjectName objectName(URI groupEndpoint, int id) {
        try {
            return new ObjectName(DOMAIN + ":type=Replica,group=" + ObjectName.quote(String.valueOf(groupEndpoint))
                    + ",id=" + id);
        } catch (MalformedObjectNameException e) {
            throw new IllegalArgumentException("no MBean name for " + groupEndpoint, e);
        }
    }

    public ObjectName name() {
        return name;
    }

    /**
     * Registers the MBean (replacing one a replica of the same group and id left behind in this JVM) and, unless
     * {@code statusLogSeconds} is 0, starts logging the status line. A failure to register is logged, not
     * thrown: the replica orders without it.
     */
    public void start(int statusLogSeconds) {
        register();
        if (statusLogSeconds > 0) {
            statusLog = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "bftws-status-r" + id);
                t.setDaemon(true);
                return t;
            });
            statusLog.scheduleAtFixedRate(() -> LOG.info(getStatusLine()), statusLogSeconds, statusLogSeconds,
                    TimeUnit.SECONDS);
        }
    }

    private void register() {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        try {
            synchronized (REGISTERED) {
                if (server.isRegistered(name)) {
                    LOG.warn("replica {}: replacing the MBean {} left registered in this JVM", id, name);
                    unregister(server, name);
                }
                server.registerMBean(this, name);
                REGISTERED.put(name, this);
            }
        } catch (JMException e) {
            LOG.warn("replica {}: MBean {} not registered: {}", id, name, e.toString());
        }
    }

    /** Stops the status line and unregisters the MBean, unless another replica replaced it meanwhile. */
    @Override
    public void close() {
        if (statusLog != null) {
            Threads.stop(statusLog);
        }
        synchronized (REGISTERED) {
            if (REGISTERED.remove(name, this)) {
                unregister(ManagementFactory.getPlatformMBeanServer(), name);
            }
        }
    }

    private static void unregister(MBeanServer server, ObjectName name) {
        try {
            server.unregisterMBean(name);
        } catch (InstanceNotFoundException e) {
            // unregistered already
        } catch (JMException e) {
            LOG.warn("MBean {} not unregistered: {}", name, e.toString());
        }
    }

    // ---------------------------------------------------------------- attributes

    @Override
    public String getGroupEndpoint() {
        return String.valueOf(groupEndpoint);
    }

    @Override
    public int getReplicaId() {
        return id;
    }

    @Override
    public int getReplicas() {
        return replicaControl.size();
    }

    @Override
    public String getOrderingMode() {
        return orderingMode;
    }

    @Override
    public long getView() {
        return manager.snapshot().view();
    }

    @Override
    public int getPrimary() {
        return manager.snapshot().primary();
    }

    @Override
    public boolean isActive() {
        return manager.snapshot().active();
    }

    @Override
    public String getOrderingFailure() {
        Throwable failure = manager.failure();
        return failure == null ? null : failure.toString();
    }

    @Override
    public long getLastExecuted() {
        return manager.snapshot().lastExecuted();
    }

    @Override
    public long getStableCheckpoint() {
        return manager.snapshot().stableCheckpoint();
    }

    @Override
    public int getPendingRequests() {
        return manager.snapshot().pendingRequests();
    }

    @Override
    public int getLogSize() {
        return manager.snapshot().logSize();
    }

    @Override
    public long getMillisSinceLastStep() {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - manager.snapshot().nanoTime());
    }

    @Override
    public long getEvidenceTotal() {
        return manager.evidenceCounts().total();
    }

    @Override
    public String getLastEvidence() {
        return manager.evidenceCounts().last();
    }

    @Override
    public Map<String, Long> getEvidenceByKind() {
        return manager.evidenceCounts().byKind();
    }

    @Override
    public Map<Integer, Long> getEvidenceByNode() {
        return manager.evidenceCounts().byNode();
    }

    @Override
    public int[] getPeersDown() {
        List<Integer> down = new ArrayList<>();
        for (int r = 0; r < replicaControl.size(); r++) {
            if (r != id && sender.isDown(replicaControl.get(r))) {
                down.add(r);
            }
        }
        return down.stream().mapToInt(Integer::intValue).toArray();
    }

    @Override
    public long getRecoveredFromJournal() {
        JournalRecovery r = manager.recoveredFromJournal();
        return r == null ? -1 : r.stableCheckpoint();
    }

    @Override
    public long getStatesTransferred() {
        return manager.statesTransferred();
    }

    @Override
    public long getInboundDropped() {
        return manager.inboundDropped();
    }

    @Override
    public long getInboundMisattributed() {
        return manager.inboundMisattributed();
    }

    @Override
    public long getInboundRefused() {
        return manager.inboundRefused();
    }

    @Override
    public long getMessagesSent() {
        return sender.sent();
    }

    @Override
    public long getMessagesGivenUp() {
        return sender.givenUp();
    }

    @Override
    public int getClientTableEntries() {
        return manager.snapshot().clientTable();
    }

    @Override
    public int getSenderDestinations() {
        return sender.destinations();
    }

    /**
     * One line, e.g. {@code replica 2: view 1 (primary 1, active), executed 96, stable checkpoint 80, pending 0,
     * evidence 3 {0=3}, peers down [0]}: what an operator compares across replicas (docs/operating.md).
     */
    @Override
    public String getStatusLine() {
        ReplicaSnapshot s = manager.snapshot();
        String failure = getOrderingFailure();
        long evidence = getEvidenceTotal();
        String order = s.primary() == ReplicaSnapshot.NO_PRIMARY ? "asynchronous ordering (no primary, "
                : "view " + s.view() + " (primary " + s.primary() + ", ";
        return "replica " + id + ": " + order
                + (failure != null ? "ordering stopped" : s.active() ? "active" : "changing view") + "), executed "
                + s.lastExecuted() + ", stable checkpoint " + s.stableCheckpoint() + ", pending "
                + s.pendingRequests() + ", evidence " + evidence + (evidence == 0 ? "" : " " + getEvidenceByNode())
                + ", peers down " + Arrays.toString(getPeersDown());
    }
}
