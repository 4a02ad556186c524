package org.bftws.client.group;

import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import org.bftws.module.order.JournalRecovery;
import org.bftws.module.order.TotalOrderManager;
import org.bftws.module.testing.Conditions;

/**
 * A replica of a journaled group (docs/journal.md) stopped once every replica holds a stable checkpoint and
 * started again on its data directory, for the loopback tests of each engine: it must recover from its journal
 * at a checkpoint, not start empty.
 */
final class JournalRestart {
    private static final long WAIT_MS = 60_000;

    private JournalRestart() {
    }

    /**
     * Waits until every replica executed what replica 0 did and holds a stable checkpoint at or above {@code
     * min}, then stops replica {@code r}, which started on an empty data directory and recovered nothing.
     */
    static void stopOnceCheckpointed(LaunchedGroup group, int r, long min) throws Exception {
        Conditions.await("every replica executed the last call and has a stable checkpoint", WAIT_MS, () -> {
            for (int i = 0; i < LaunchedGroup.N; i++) {
                TotalOrderManager m = group.manager(i);
                if (m.lastExecuted() != group.manager(0).lastExecuted() || m.stableCheckpoint() < min) {
                    return false;
                }
            }
            return true;
        });
        assertNull("started on an empty data directory, it recovered nothing", group.manager(r).recoveredFromJournal());
        group.stop(r);
    }

    /** Starts replica r again on its data directory: it recovered from its journal at a checkpoint ≥ min. */
    static CounterGroupTest.ValueProbe start(LaunchedGroup group, int r, long min) throws Exception {
        CounterGroupTest.ValueProbe probe = CounterGroupTest.ValueProbe.on(group.start(r, "restarted"));
        JournalRecovery recovery = group.manager(r).recoveredFromJournal();
        assertNotNull("it recovered from its journal", recovery);
        assertTrue("at a stable checkpoint: " + recovery, recovery.stableCheckpoint() >= min);
        return probe;
    }
}
