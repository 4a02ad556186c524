package org.bftws.client.group;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

import org.apache.axis2.AxisFault;
import org.bftws.client.group.CounterGroupTest.ValueProbe;
import org.bftws.module.journal.JournalStore;
import org.bftws.module.order.JournalRecovery;
import org.bftws.module.order.TotalOrderManager;
import org.bftws.module.testing.Conditions;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TemporaryFolder;
import org.junit.rules.Timeout;

/**
 * Restart with state (docs/journal.md): the demo group of {@link GroupLauncher} over loopback HTTP, each replica
 * with a journal in its data directory. A backup is stopped after the counter has been checkpointed, the group
 * goes on without it, and it is started again on the same data directory: it recovers from its journal at the
 * stable checkpoint it had, installs none by state transfer, catches up, and then computes the same counter
 * values the group votes — it executed none of the increments below its checkpoint again.
 */
public class JournaledRestartTest {
    private static final long WAIT_MS = 60_000;
    /**
     * Checkpoint every 8 batches (one increment is one batch here), window 16: the backup stops at checkpoint 8
     * after 10 increments, misses 2 and is back for 2 more, all below the next checkpoint, so the normal
     * protocol's retransmission, not state transfer, must bring what it missed.
     */
    private static final String FAST = GroupLauncher.param("bftws.checkpointInterval", "8")
            + GroupLauncher.param("bftws.logWindow", "16") + GroupLauncher.param("bftws.retransmitTicks", "5")
            + GroupLauncher.param("bftws.clientRetransmitTicks", "10");

    private final TemporaryFolder tmp = new TemporaryFolder();
    private final LaunchedGroup group = new LaunchedGroup(tmp);

    @Rule
    public final RuleChain rules = RuleChain.outerRule(tmp).around(group);

    @Rule
    public final Timeout timeout = Timeout.seconds(180);

    private DemoClient client;
    private long expected;

    @Test
    public void aBackupRestartedOnItsDataDirectoryRecoversFromItsJournalAndCatchesUp() throws Exception {
        group.parameters(FAST).journaled("os").start();
        client = group.client("client");
        for (int amount = 1; amount <= 10; amount++) {
            increment(amount);
        }
        int backup = LaunchedGroup.N - 1; // replica 0 is the primary of view 0
        TotalOrderManager before = group.manager(backup);
        await("every replica executed the last increment and has a stable checkpoint", () -> {
            for (int r = 0; r < LaunchedGroup.N; r++) {
                TotalOrderManager m = group.manager(r);
                if (m.lastExecuted() != group.manager(0).lastExecuted() || m.stableCheckpoint() < 8) {
                    return false;
                }
            }
            return true;
        });
        assertNull("a replica started on an empty data directory recovers nothing", before.recoveredFromJournal());
        long checkpoint = before.stableCheckpoint();
        group.stop(backup);
        assertTrue(Files.size(group.dataDir(backup).resolve(JournalStore.FILE)) > 0);

        for (int amount = 11; amount <= 12; amount++) {
            increment(amount); // ordered by the other three while the backup is down
        }
        ValueProbe probe = ValueProbe.on(group.start(backup, "replica3-restarted"));
        TotalOrderManager restarted = group.manager(backup);
        JournalRecovery recovery = restarted.recoveredFromJournal();
        assertNotNull("the restarted replica recovered from its journal", recovery);
        assertEquals("at the stable checkpoint it had when it stopped", checkpoint, recovery.stableCheckpoint());
        assertTrue("with records above the checkpoint too: " + recovery, recovery.records() > 1);

        List<Long> voted = new ArrayList<>();
        for (int amount = 13; amount <= 14; amount++) {
            voted.add(increment(amount));
        }
        await("the restarted replica catches up",
                () -> restarted.lastExecuted() == group.manager(0).lastExecuted());
        long last = voted.get(voted.size() - 1);
        await("the restarted replica executed the last increment", () -> probe.values().contains(last));
        List<Long> computed = probe.values();
        assertEquals("the restarted replica's own values for the increments after its restart", voted,
                computed.subList(computed.size() - voted.size(), computed.size()));
        assertTrue("it did not execute every increment again: computed " + computed, computed.size() < 14);
        assertEquals("it needed no state transfer", 0, restarted.statesTransferred());
        assertNull(restarted.failure());
        assertEquals(expected, client.readCounter().value());
    }

    /** Adds {@code amount} through the group; the voted (f+1 matching) value must be the running total. */
    private long increment(long amount) throws AxisFault {
        expected += amount;
        long value = client.increment(amount).value();
        assertEquals("voted value after adding " + amount, expected, value);
        return value;
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        Conditions.await(what, WAIT_MS, condition);
    }
}
