package org.bftws.module.order;

import org.bftws.core.engine.Engine;

/**
 * What the replica's state machine looked like after one step of the ordering thread, for readers on other
 * threads (the MBean, the status line, tests). Core's {@link Engine} is not thread-safe and belongs to the
 * ordering thread alone (see {@link TotalOrderManager}), so that thread copies these values after each step and
 * publishes the copy through a volatile field: a reader sees one consistent step, never half of one.
 *
 * @param view             the current view v (Castro-Liskov §4.1)
 * @param primary          the primary of {@code view}, v mod n; {@link #NO_PRIMARY} with asynchronous ordering
 * @param active           false while a view change is in progress (§4.4: the replica accepts only
 *                         view-change, new-view and checkpoint messages then)
 * @param lastExecuted     the highest sequence number executed
 * @param stableCheckpoint the last stable checkpoint, the low watermark h (§4.3)
 * @param pendingRequests  client requests received and not yet executed
 * @param logSize          slots in the message log (between the watermarks); with asynchronous ordering, the
 *                         messages buffered for rounds this replica has not reached yet
 * @param clientTable      sequences in the client table, tombstones included (bounded by
 *                         {@code bftws.clientTableRetention})
 * @param nanoTime         {@link System#nanoTime()} when the step ended
 */
public record ReplicaSnapshot(long view, int primary, boolean active, long lastExecuted, long stableCheckpoint,
        int pendingRequests, int logSize, int clientTable, long nanoTime) {

    /** Before the first step: view 0, nothing executed. */
    static ReplicaSnapshot initial(long nanoTime) {
        return new ReplicaSnapshot(0, 0, true, 0, 0, 0, 0, 0, nanoTime);
    }

    /** {@link #primary()} of an asynchronous group: it has none, and view 0 throughout (no view change). */
    public static final int NO_PRIMARY = -1;

    /** The state of {@code engine} of a group of {@code n}; call it on the ordering thread only. */
    static ReplicaSnapshot of(Engine engine, int n, long nanoTime) {
        return new ReplicaSnapshot(engine.view(), engine.hasPrimary() ? (int) (engine.view() % n) : NO_PRIMARY,
                engine.isActive(), engine.lastExecuted(), engine.stableCheckpoint(), engine.pendingRequests(),
                engine.logSize(), engine.clientTableEntries(), nanoTime);
    }
}
