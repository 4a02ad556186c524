package org.bftws.client.group;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.bftws.module.order.TotalOrderManager;
import org.bftws.module.testing.Conditions;

/**
 * A replica restarted empty catching up by state transfer (Castro-Liskov §4.3) while a client adds to the demo
 * group's counter, for the engines without a journal in use: six calls, the replica stopped, fourteen calls
 * without it, the replica started again with no state, calls until it has executed every seq the others
 * have, and one more. It executed none of the first twenty, so any value it computes for the later calls shows
 * it got the state; it may also have reached the last calls through the stable checkpoint that covers them,
 * executing none. The calls go on until then because an idle group may resend nothing: a laggard learns how far
 * the others are at their next checkpoint.
 */
final class EmptyRestart {
    /** The restarted replica must catch up before the counter's increments reach this amount. */
    private static final int MAX_AMOUNT = 60;
    private static final long WAIT_MS = 60_000;

    /** Adds an amount through the group and returns the voted value. */
    interface Counter {
        long increment(long amount) throws Exception;
    }

    /** Names the replica to restart, once the first calls are answered. */
    interface Chooser {
        int replica() throws Exception;
    }

    private EmptyRestart() {
    }

    /**
     * Runs the scenario on the replica {@code chooser} names after the first six calls; returns its manager once it
     * computed the group's value for the last call, having installed a checkpoint and failed nothing.
     */
    static TotalOrderManager catchesUp(LaunchedGroup group, Chooser chooser, Counter counter) throws Exception {
        for (int amount = 1; amount <= 6; amount++) {
            counter.increment(amount);
        }
        int backup = chooser.replica();
        group.stop(backup);
        for (int amount = 7; amount <= 20; amount++) {
            counter.increment(amount);
        }
        CounterGroupTest.ValueProbe probe = CounterGroupTest.ValueProbe.on(group.start(backup, "restarted"));
        TotalOrderManager restarted = group.manager(backup);
        List<Long> voted = new ArrayList<>();
        int amount = 21;
        for (; amount <= MAX_AMOUNT && !caughtUp(group, backup); amount++) {
            voted.add(counter.increment(amount));
        }
        // One more call once it has caught up. Its voted reply comes from f+1 replicas that executed it, so the
        // restarted replica has it once it has executed every seq the others have: by executing it, or through a
        // stable checkpoint that covers it (a correct replica may catch up by state transfer instead).
        long last = counter.increment(amount);
        voted.add(last);
        Conditions.await("the restarted replica reached every seq the others executed, the last call's included",
                WAIT_MS, () -> caughtUp(group, backup));
        assertTrue("it installed a checkpoint", restarted.stableCheckpoint() > 0);
        List<Long> computed = probe.values();
        assertTrue("its values are the group's: " + computed + " vs " + voted, voted.containsAll(computed));
        if (computed.contains(last)) {
            assertEquals("its last value is the group's", last, (long) computed.get(computed.size() - 1));
        }
        assertNull(restarted.failure());
        return restarted;
    }

    /** True once replica {@code r} has executed (or installed) every seq the other replicas have executed. */
    private static boolean caughtUp(LaunchedGroup group, int r) {
        for (int other = 0; other < LaunchedGroup.N; other++) {
            if (other != r && group.manager(r).lastExecuted() < group.manager(other).lastExecuted()) {
                return false;
            }
        }
        return true;
    }
}
