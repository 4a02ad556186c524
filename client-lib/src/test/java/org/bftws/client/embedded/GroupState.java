package org.bftws.client.embedded;

import static org.junit.Assert.assertEquals;

import org.bftws.module.BftwsRuntime;
import org.bftws.module.testing.Conditions;

/**
 * What a bad input must not change, snapshot on every replica: the requests the service executed (a
 * {@link ReplicaProbe} on its operation) and the Total Order Manager's last executed sequence number.
 */
final class GroupState {
    private static final long WAIT_MS = 30_000;

    private final int[] executedRequests;
    private final long[] lastExecuted;

    private GroupState(int[] executedRequests, long[] lastExecuted) {
        this.executedRequests = executedRequests;
        this.lastExecuted = lastExecuted;
    }

    /** The state of every replica once they all executed the same requests (stragglers caught up). */
    static GroupState of(Axis2Server[] replicas, ReplicaProbe[] probes) throws InterruptedException {
        int[] executed = new int[probes.length];
        long[] seq = new long[replicas.length];
        awaitAlike(replicas, probes);
        for (int r = 0; r < replicas.length; r++) {
            executed[r] = probes[r].executed().size();
            seq[r] = lastExecuted(replicas[r]);
        }
        return new GroupState(executed, seq);
    }

    /** Waits until every replica's service executed {@code more} requests beyond this snapshot. */
    void awaitExecuted(ReplicaProbe[] probes, int more) throws InterruptedException {
        for (int r = 0; r < probes.length; r++) {
            int replica = r;
            Conditions.await("replica " + r + " executed " + more + " more", WAIT_MS,
                    () -> probes[replica].executed().size() >= executedRequests[replica] + more);
        }
    }

    /** Exactly {@code more} requests executed on every replica since this snapshot (after waiting for them). */
    void assertExecutedRequests(String what, ReplicaProbe[] probes, int more) throws InterruptedException {
        awaitExecuted(probes, more);
        for (int r = 0; r < probes.length; r++) {
            assertEquals(what + ": requests executed by replica " + r, executedRequests[r] + more,
                    probes[r].executed().size());
        }
    }

    /**
     * After one correct call: every replica executed exactly that request, in exactly one more sequence
     * number (a bad input neither executed nor took a place in the order).
     */
    void assertOnlyOneMoreExecuted(String what, Axis2Server[] replicas, ReplicaProbe[] probes)
            throws InterruptedException {
        assertExecutedRequests(what, probes, 1);
        for (int r = 0; r < replicas.length; r++) {
            Axis2Server replica = replicas[r];
            long expected = lastExecuted[r] + 1;
            Conditions.await("replica " + r + " recorded seq " + expected, WAIT_MS,
                    () -> lastExecuted(replica) >= expected);
            assertEquals(what + ": executed sequence number of replica " + r, expected, lastExecuted(replica));
        }
    }

    private static void awaitAlike(Axis2Server[] replicas, ReplicaProbe[] probes) throws InterruptedException {
        Conditions.await("every replica executed the same requests", WAIT_MS, () -> {
            for (int r = 1; r < probes.length; r++) {
                if (probes[r].executed().size() != probes[0].executed().size()
                        || lastExecuted(replicas[r]) != lastExecuted(replicas[0])) {
                    return false;
                }
            }
            return true;
        });
    }

    private static long lastExecuted(Axis2Server replica) {
        return BftwsRuntime.replica(replica.context()).manager().lastExecuted();
    }
}
