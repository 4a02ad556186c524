package org.bftws.module.order;

import java.util.Map;

/**
 * A replica's state for operators, as the JMX MBean {@code org.bftws:type=Replica,group="ENDPOINT",id=N} of the
 * replica's JVM (docs/operating.md). Every attribute is read from values the ordering thread published, never
 * from core's state machine itself, so reading never disturbs ordering.
 */
public interface ReplicaStatusMBean {
    /** The group endpoint clients address. */
    String getGroupEndpoint();

    int getReplicaId();

    /** n, the group's replicas. */
    int getReplicas();

    /** How this replica orders: protocol, role, randomness, where client requests come in. */
    String getOrderingMode();

    /** The current view (Castro-Liskov §4.1). */
    long getView();

    /** The primary of the current view, view mod n; -1 with asynchronous ordering, which has none. */
    int getPrimary();

    /** False while a view change is in progress (§4.4). */
    boolean isActive();

    /** Why ordering stopped (an internal error: the replica is as good as crashed), or null while it runs. */
    String getOrderingFailure();

    /** The highest sequence number executed. */
    long getLastExecuted();

    /** The last stable checkpoint, the low watermark h (§4.3). */
    long getStableCheckpoint();

    /** Client requests received and not yet executed. */
    int getPendingRequests();

    /** Slots in the message log. */
    int getLogSize();

    /** Milliseconds since the ordering thread last finished a step; ticks make it step every tick when idle. */
    long getMillisSinceLastStep();

    /** Evidence core reported: messages a correct peer would not have sent. */
    long getEvidenceTotal();

    /** The latest evidence as the log shows it, naming the sender, or null if there was none. */
    String getLastEvidence();

    /** Evidence per kind (the text without numbers and details). */
    Map<String, Long> getEvidenceByKind();

    /** Evidence per node id: replicas 0..n-1, clients from n, -1 for an unknown sender. */
    Map<Integer, Long> getEvidenceByNode();

    /** Ids of the peers the Multicast Sender has marked down (retransmission limit exceeded, being probed). */
    int[] getPeersDown();

    /** The stable checkpoint this replica restarted from out of its journal (bftws.dataDir), -1 if none. */
    long getRecoveredFromJournal();

    /** Stable checkpoints installed from other replicas by state transfer since start. */
    long getStatesTransferred();

    /** Received control messages dropped because the ordering queue was full. */
    long getInboundDropped();

    /**
     * Received control messages that claimed a replica but came from another network address, queued with the
     * clients' (0 where the replicas share addresses, as on one host).
     */
    long getInboundMisattributed();

    /**
     * POSTs to the control port refused at the HTTP server, their body unread, because they came from the address
     * of a replica proven faulty (0 where the replicas share addresses, as on one host).
     */
    long getInboundRefused();

    /** Messages the Multicast Sender had acknowledged with HTTP 2xx. */
    long getMessagesSent();

    /** Messages the Multicast Sender released unacknowledged (retransmission limit, destination down). */
    long getMessagesGivenUp();

    /**
     * Sequences in the client table, tombstones included: flat once the group has served more clients than
     * {@code bftws.clientTableRetention} allows for (docs/operating.md, bounds on per-client state).
     */
    int getClientTableEntries();

    /**
     * Addresses the Multicast Sender keeps a destination for: the peers, and the reply addresses of clients that
     * had traffic in the last minute (idle ones are dropped and reopened when needed).
     */
    int getSenderDestinations();

    /** The status line this replica logs every {@code bftws.statusLogSeconds}. */
    String getStatusLine();
}
