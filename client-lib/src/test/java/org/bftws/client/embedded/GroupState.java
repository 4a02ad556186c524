package org.bftws.client.embedded;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import org.bftws.module.BftwsRuntime;
import org.bftws.module.order.TotalOrderManager;
import org.bftws.module.testing.Conditions;

/**
 * What a bad input must not change, snapshot on every replica: the requests the service executed (a
 * {@link ReplicaProbe} on its operation), the Total Order Manager's last executed sequence number and its
 * state transfers. A correct replica that trails the others when a checkpoint becomes stable may catch up by
 * state transfer (Castro-Liskov §4.3) and then never runs the requests the installed state covers: such a
 * replica is checked by its sequence number and for not running more than expected, the others request by
 * request.
 */
final class GroupState {
    private static final long WAIT_MS = 30_000;

    private final int[] executedRequests;
    private final long[] lastExecuted;
    private final long[] statesTransferred;

    private GroupState(int[] executedRequests, long[] lastExecuted, long[] statesTransferred) {
        this.executedRequests = executedRequests;
        this.lastExecuted = lastExecuted;
        this.statesTransferred = statesTransferred;
    }

    /** The state of every replica once they all executed the same requests (stragglers caught up). */
    static GroupState of(Axis2Server[] replicas, ReplicaProbe[] probes) throws InterruptedException {
        int[] executed = new int[probes.length];
        long[] seq = new long[replicas.length];
        long[] transfers = new long[replicas.length];
        awaitAlike(replicas, probes);
        for (int r = 0; r < replicas.length; r++) {
            executed[r] = probes[r].executed().size();
            seq[r] = manager(replicas[r]).lastExecuted();
            transfers[r] = manager(replicas[r]).statesTransferred();
        }
        return new GroupState(executed, seq, transfers);
    }

    /**
     * Waits until every replica's service executed {@code more} requests beyond this snapshot, or, at a
     * replica that transferred state since, until it reached the sequence number of the furthest replica.
     */
    void awaitExecuted(Axis2Server[] replicas, ReplicaProbe[] probes, int more) throws InterruptedException {
        for (int r = 0; r < probes.length; r++) {
            int replica = r;
            Conditions.await("replica " + r + " executed " + more + " more", WAIT_MS,
                    () -> probes[replica].executed().size() >= executedRequests[replica] + more
                            || transferredSince(replicas, replica) && reachedTheFurthest(replicas, replica));
        }
    }

    /**
     * Exactly {@code more} requests executed on every replica since this snapshot (after waiting for them); at
     * most that many at one that transferred state since.
     */
    void assertExecutedRequests(String what, Axis2Server[] replicas, ReplicaProbe[] probes, int more)
            throws InterruptedException {
        awaitExecuted(replicas, probes, more);
        for (int r = 0; r < probes.length; r++) {
            int executed = probes[r].executed().size();
            if (transferredSince(replicas, r)) {
                assertTrue(what + ": requests executed by replica " + r + " (state transferred): " + executed,
                        executed <= executedRequests[r] + more);
            } else {
                assertEquals(what + ": requests executed by replica " + r, executedRequests[r] + more, executed);
            }
        }
    }

    /**
     * After one correct call: every replica executed exactly that request, in exactly one more sequence
     * number (a bad input neither executed nor took a place in the order).
     */
    void assertOnlyOneMoreExecuted(String what, Axis2Server[] replicas, ReplicaProbe[] probes)
            throws InterruptedException {
        assertExecutedRequests(what, replicas, probes, 1);
        for (int r = 0; r < replicas.length; r++) {
            Axis2Server replica = replicas[r];
            long expected = lastExecuted[r] + 1;
            Conditions.await("replica " + r + " recorded seq " + expected, WAIT_MS,
                    () -> manager(replica).lastExecuted() >= expected);
            assertEquals(what + ": executed sequence number of replica " + r, expected, manager(replica).lastExecuted());
        }
    }

    private boolean transferredSince(Axis2Server[] replicas, int r) {
        return manager(replicas[r]).statesTransferred() > statesTransferred[r];
    }

    /** Replica r executed as far as the furthest running replica (stopped ones, null, left out). */
    static boolean reachedTheFurthest(Axis2Server[] replicas, int r) {
        long furthest = 0;
        for (Axis2Server replica : replicas) {
            if (replica != null) {
                furthest = Math.max(furthest, manager(replica).lastExecuted());
            }
        }
        return manager(replicas[r]).lastExecuted() >= furthest;
    }

    /**
     * Every replica at one sequence number, and every replica that never transferred state with the same
     * number of executed requests.
     */
    private static void awaitAlike(Axis2Server[] replicas, ReplicaProbe[] probes) throws InterruptedException {
        Conditions.await("every replica executed the same requests", WAIT_MS, () -> {
            int executed = -1;
            for (int r = 0; r < probes.length; r++) {
                TotalOrderManager m = manager(replicas[r]);
                if (m.lastExecuted() != manager(replicas[0]).lastExecuted()) {
                    return false;
                }
                if (m.statesTransferred() == 0) {
                    if (executed >= 0 && probes[r].executed().size() != executed) {
                        return false;
                    }
                    executed = probes[r].executed().size();
                }
            }
            return true;
        });
    }

    static TotalOrderManager manager(Axis2Server replica) {
        return BftwsRuntime.replica(replica.context()).manager();
    }
}
