package org.bftws.client.group;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BooleanSupplier;

import org.bftws.module.BftwsRuntime;
import org.bftws.module.order.TotalOrderManager;
import org.bftws.module.testing.Conditions;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TemporaryFolder;
import org.junit.rules.Timeout;

/**
 * {@code bftws.ordering=hybrid} over loopback HTTP: the demo group of {@link LaunchedGroup} (echo, dealer, id
 * generator, counter) on core's HybridReplica (docs/design/hybrid.md). A leader's fast lane orders while it is
 * timely; when epoch 0's leader (replica 0) stops, the others switch, agree on where its lane ended with
 * SINTRA's multi-valued agreement (BDT's Transformer) and go on under the next leader, and the client's calls
 * are answered throughout by f+1 matching replies, randomized ones with the same coin at every replica. A
 * leader slow under the timeout is replaced, a replica restarted empty catches up by state transfer, and one
 * restarted on its data directory recovers from its journal.
 */
public class HybridGroupTest {
    private static final int N = LaunchedGroup.N;
    private static final int F = (N - 1) / 3;
    private static final long WAIT_MS = 60_000;
    private static final String HYBRID = GroupLauncher.orderingParameters("hybrid");
    /** The slow leader's delay on every message: well under the default view-change timeout of 4 s. */
    private static final long SLOW_MILLIS = 1_500;

    private final TemporaryFolder tmp = new TemporaryFolder();
    private final LaunchedGroup group = new LaunchedGroup(tmp);

    @Rule
    public final RuleChain rules = RuleChain.outerRule(tmp).around(group);

    @Rule
    public final Timeout timeout = Timeout.seconds(240);

    private DemoClient client;
    private long counter;

    @Test
    public void theLeaderStopsTheOthersFallBackAndGoOnUnderTheNextLeader() throws Exception {
        start();
        RandomProbe[] dealer = new RandomProbe[N];
        for (int r = 0; r < N; r++) {
            dealer[r] = RandomProbe.on(group.replica(r).context().getAxisConfiguration(), "Dealer", "deal");
            String mode = group.manager(r).orderingMode();
            assertTrue(mode, mode.startsWith("hybrid") && mode.contains("randomness CT"));
        }
        DemoClient.Call first = client.echo(List.of("ordered", "on", "the", "fast", "lane"));
        assertEquals(first.sent(), first.voted());
        increment(1);
        DemoClient.RandomCall call = client.deal();
        assertTrue(call.voted() + " / " + call.random(), call.correct());
        // a replica may skip the call by state transfer: those that executed it used the same coin
        await("f+1 replicas dealt", () -> Arrays.stream(dealer).filter(p -> !p.seen().isEmpty()).count() >= F + 1);
        List<RandomProbe> dealt = Arrays.stream(dealer).filter(p -> !p.seen().isEmpty()).toList();
        for (RandomProbe p : dealt) {
            assertEquals("the same coin at every replica that dealt", dealt.get(0).seen(), p.seen());
        }
        // epoch e's leader is replica e mod n; a fallback may already have moved the lane on: stop the current one
        long epoch = currentEpoch();
        int leader = (int) (epoch % N);
        group.stop(leader);
        for (int amount = 2; amount <= 8; amount++) {
            increment(amount);
        }
        DemoClient.Call echo = client.echo(List.of("still", "served"));
        assertEquals(echo.sent(), echo.voted());
        DemoClient.RandomCall deal = client.deal();
        assertTrue(deal.voted() + " / " + deal.random(), deal.correct());
        for (int r = 0; r < N; r++) {
            if (r == leader) {
                continue;
            }
            TotalOrderManager m = group.manager(r);
            // f+1 replies may come before the slowest replica delivered the fallback: wait for it
            await("replica " + r + " left epoch " + epoch + " of the stopped leader", () -> m.view() > epoch);
            assertNull(m.failure());
        }
        assertEquals(counter, client.readCounter().value());
    }

    /**
     * The slow-leader attack (Amir et al., DSN 2008): the leader sends every message late, under the view-change
     * timeout, so PBFT would keep it. The others replace it (the lane is judged against the fallback's measured
     * cost over a window of deliveries, Aardvark's expected-throughput rule), the calls go on, and the slow replica, still running, follows the new epochs.
     */
    @Test
    public void aLeaderSlowUnderTheTimeoutIsReplacedWhileTheCallsGoOn() throws Exception {
        start();
        increment(1);
        long epoch = currentEpoch();
        int leader = (int) (epoch % N);
        BftwsRuntime.replica(group.replica(leader).context()).sender().delayEverySend(SLOW_MILLIS);
        for (int amount = 2; amount <= 6; amount++) {
            increment(amount);
        }
        for (int r = 0; r < N; r++) {
            TotalOrderManager m = group.manager(r);
            await("replica " + r + " left epoch " + epoch + " of the slow leader", () -> m.view() > epoch);
            assertNull(m.failure());
        }
        assertEquals(counter, client.readCounter().value());
    }

    /**
     * Without a journal: a replica restarted empty catches up by state transfer (Castro-Liskov §4.3). The
     * checkpoint it installs carries the epoch it was taken in (docs/design/hybrid.md, "Checkpoints carry the
     * epoch"), so it enters the group's epoch at once instead of resolving the fallbacks it missed, and computes
     * the group's values for the calls after it. Calls go on until it has caught up: it learns how far the others
     * are at their next checkpoint (every 4 seqs here).
     */
    @Test
    public void aReplicaRestartedEmptyCatchesUpByStateTransferInTheGroupsEpoch() throws Exception {
        start();
        // a replica that does not lead the current epoch
        TotalOrderManager restarted = EmptyRestart.catchesUp(group, () -> (int) ((currentEpoch() + 1) % N),
                this::increment);
        long epoch = currentEpoch(); // waits for every replica, the restarted one included, in one epoch
        assertEquals("the restarted replica in the group's epoch", epoch, restarted.view());
        assertEquals(counter, client.readCounter().value());
    }

    /**
     * Restart with state under hybrid (docs/journal.md): with a journal in each replica's data directory, a
     * replica that does not lead the current epoch, stopped after a checkpoint and started again on its
     * directory, recovers from its journal at that checkpoint (in the checkpoint's epoch), catches up while the
     * calls go on, and then counts: with the other non-leader stopped, each call's lane quorum (3 of 4) needs it.
     */
    @Test
    public void aReplicaRestartedOnItsDataDirectoryRecoversCatchesUpAndCounts() throws Exception {
        group.journaled("os");
        start();
        for (int amount = 1; amount <= 10; amount++) {
            increment(amount);
        }
        long epoch = currentEpoch();
        int backup = (int) ((epoch + 1) % N);
        int other = (int) ((epoch + 2) % N);
        JournalRestart.stopOnceCheckpointed(group, backup, 4);
        for (int amount = 11; amount <= 13; amount++) {
            increment(amount); // ordered by the other three while it is down
        }
        CounterGroupTest.ValueProbe probe = JournalRestart.start(group, backup, 4);
        TotalOrderManager restarted = group.manager(backup);
        int amount = 14;
        for (; amount <= 60 && restarted.lastExecuted() < group.manager(other).lastExecuted(); amount++) {
            increment(amount); // it learns how far the others are at their next checkpoint, or by their lane
        }
        await("it reaches the others' last executed request",
                () -> restarted.lastExecuted() >= group.manager(other).lastExecuted());
        group.stop(other);
        List<Long> voted = new ArrayList<>();
        for (int k = 0; k < 3; k++, amount++) {
            voted.add(increment(amount)); // the leader, the third replica and the restarted one
        }
        long last = voted.get(voted.size() - 1);
        await("the restarted replica executed the last increment", () -> probe.values().contains(last));
        List<Long> computed = probe.values();
        assertEquals("its values for the calls after the other stopped", voted,
                computed.subList(computed.size() - voted.size(), computed.size()));
        assertNull(restarted.failure());
        assertEquals(counter, client.readCounter().value());
    }

    /**
     * The epoch every replica is in once they agree, the group idle: its leader leads the next calls. The
     * callers then wait for every running replica to go past it, which only a fallback does.
     */
    private long currentEpoch() throws InterruptedException {
        await("the replicas in one epoch", () -> {
            long first = group.manager(0).view();
            for (int r = 1; r < N; r++) {
                if (group.manager(r).view() != first) {
                    return false;
                }
            }
            return true;
        });
        return group.manager(0).view();
    }

    private void start() throws Exception {
        group.parameters(HYBRID + LaunchedGroup.FAST_CHECKPOINTS).clientParameters(HYBRID).start();
        client = group.client("client");
    }

    /** Adds {@code amount} through the group; the voted value must be the running total. */
    private long increment(long amount) throws Exception {
        counter += amount;
        long value = client.increment(amount).value();
        assertEquals("voted value after adding " + amount, counter, value);
        return value;
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        Conditions.await(what, WAIT_MS, condition);
    }
}
