package org.bftws.client.group;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;

import org.bftws.core.engine.Event;
import org.bftws.module.order.ReplicaSnapshot;
import org.bftws.module.order.TotalOrderManager;
import org.bftws.module.testing.Conditions;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TemporaryFolder;
import org.junit.rules.Timeout;

/**
 * {@code bftws.ordering=async} over loopback HTTP: the demo group of {@link LaunchedGroup} (echo, dealer, id
 * generator, counter) with every replica and the client on SINTRA's atomic broadcast (core's AsyncReplica).
 * The same services, sequences, Voter, CT coins and checkpoints answer as under PBFT; a replica that stops does
 * not stop the others and nothing changes view, because there is no primary and no timer decides anything
 * (SINTRA §2); a replica restarted empty catches up by state transfer (Castro-Liskov §4.3, PBFT's Checkpoints).
 */
public class AsyncGroupTest {
    private static final int N = LaunchedGroup.N;
    private static final int F = (N - 1) / 3;
    private static final long WAIT_MS = 60_000;
    /** The demo client's core node id: client-1.key after the n replicas. */
    private static final int CLIENT = N;
    private static final String ASYNC = GroupLauncher.orderingParameters("async");

    private final TemporaryFolder tmp = new TemporaryFolder();
    private final LaunchedGroup group = new LaunchedGroup(tmp);

    @Rule
    public final RuleChain rules = RuleChain.outerRule(tmp).around(group);

    @Rule
    public final Timeout timeout = Timeout.seconds(240);

    private final List<List<Event>> events = new ArrayList<>();
    private DemoClient client;
    private long counter;

    @Test
    public void echoCounterAndRandomizedCallsAreAnsweredByFPlusOneMatchingReplies() throws Exception {
        start();
        RandomProbe[] dealer = new RandomProbe[N];
        for (int r = 0; r < N; r++) {
            dealer[r] = RandomProbe.on(group.replica(r).context().getAxisConfiguration(), "Dealer", "deal");
            TotalOrderManager m = group.manager(r);
            assertTrue(m.orderingMode(), m.orderingMode().startsWith("asynchronous"));
        }
        DemoClient.Call echo = client.echo(List.of("ordered", "without", "a", "primary"));
        assertEquals(echo.sent(), echo.voted());
        for (int amount = 1; amount <= 3; amount++) {
            increment(amount);
        }
        assertEquals("read (ordered like any request)", counter, client.readCounter().value());
        List<String> randoms = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            DemoClient.RandomCall deal = client.deal();
            assertTrue(deal.voted() + " / " + deal.random(), deal.correct());
            randoms.add(deal.random());
            DemoClient.RandomCall id = client.nextId();
            assertTrue(id.voted() + " / " + id.random(), id.correct());
            randoms.add(id.random());
        }
        assertEquals("every call drew a fresh coin", randoms.size(), new HashSet<>(randoms).size());
        await("every replica dealt twice", () -> RandomProbe.allSeen(dealer, 2));
        for (int r = 1; r < N; r++) {
            assertEquals("replica " + r + " shuffled with the same coins", dealer[0].seen(), dealer[r].seen());
        }
        int answered = 0;
        for (int r = 0; r < N; r++) {
            answered += group.manager(r).repliesSent(CLIENT) > 0 ? 1 : 0;
            ReplicaSnapshot s = group.manager(r).snapshot();
            assertEquals("no primary", ReplicaSnapshot.NO_PRIMARY, s.primary());
            assertEquals(0, s.view());
        }
        assertTrue("replies from " + answered + " replicas", answered >= F + 1);
    }

    @Test
    public void theOthersGoOnWithoutAStoppedReplicaAndNothingChangesView() throws Exception {
        start();
        increment(1);
        int stopped = 0; // PBFT's first primary: here it is a replica like the others
        group.stop(stopped);
        for (int amount = 2; amount <= 8; amount++) {
            increment(amount);
        }
        DemoClient.Call echo = client.echo(List.of("still", "served"));
        assertEquals(echo.sent(), echo.voted());
        DemoClient.RandomCall deal = client.deal();
        assertTrue(deal.voted() + " / " + deal.random(), deal.correct());
        for (int r = 0; r < N; r++) {
            if (r == stopped) {
                continue;
            }
            TotalOrderManager m = group.manager(r);
            assertNull(m.failure());
            assertEquals(0, m.view());
            for (Event e : events.get(r)) {
                assertTrue("replica " + r + ": " + e, !(e instanceof Event.ViewChangeStarted)
                        && !(e instanceof Event.ViewEntered));
            }
        }
    }

    @Test
    public void aReplicaRestartedEmptyCatchesUpByStateTransfer() throws Exception {
        start();
        EmptyRestart.catchesUp(group, () -> N - 1, this::increment);
        assertEquals(counter, client.readCounter().value());
    }

    /**
     * Restart with state under async (docs/journal.md): with a journal in each replica's data directory, a
     * replica stopped after a checkpoint and started again on its directory recovers from its journal at that
     * checkpoint, reaches the others' last executed request while no call is made (their newer checkpoint by
     * state transfer, the rounds above it through its status asks), and then
     * counts: with another replica stopped, the calls still need it (n − f = 3 of 4).
     */
    @Test
    public void aReplicaRestartedOnItsDataDirectoryRecoversCatchesUpIdleAndCounts() throws Exception {
        group.journaled("os");
        start();
        for (int amount = 1; amount <= 10; amount++) {
            increment(amount);
        }
        int backup = N - 1;
        JournalRestart.stopOnceCheckpointed(group, backup, 8);
        for (int amount = 11; amount <= 13; amount++) {
            increment(amount); // ordered by the other three while it is down, past their next checkpoint
        }
        CounterGroupTest.ValueProbe probe = JournalRestart.start(group, backup, 8);
        TotalOrderManager restarted = group.manager(backup);
        await("it reaches the others' last executed request with no call made",
                () -> restarted.lastExecuted() == group.manager(0).lastExecuted());
        group.stop(0);
        List<Long> voted = new ArrayList<>();
        for (int amount = 14; amount <= 16; amount++) {
            voted.add(increment(amount)); // replicas 1, 2 and the restarted 3: each call needs it
        }
        long last = voted.get(voted.size() - 1);
        await("the restarted replica executed the last increment", () -> probe.values().contains(last));
        List<Long> computed = probe.values();
        assertEquals("its values for the calls after its restart", voted,
                computed.subList(computed.size() - voted.size(), computed.size()));
        assertNull(restarted.failure());
        assertEquals(counter, client.readCounter().value());
    }

    /**
     * WS-Security signing (Rampart on the client↔replica WS-RM messages) is unchanged under async, and with
     * {@code bftws.randomness.algorithm=none} randomized operations still get their round's CT coin: the
     * asynchronous engine holds the group's coin for its agreements.
     */
    @Test
    public void signedCallsAndRandomnessNoneWorkAsUnderPbft() throws Exception {
        group.security(GroupSecurity.RAMPART).randomness("none");
        start();
        DemoClient.Call echo = client.echo(List.of("signed", "async"));
        assertEquals(echo.sent(), echo.voted());
        DemoClient.RandomCall deal = client.deal();
        assertTrue(deal.voted() + " / " + deal.random(), deal.correct());
        assertEquals(3, increment(3));
        for (int r = 0; r < N; r++) {
            assertTrue(group.manager(r).orderingMode(), group.manager(r).orderingMode().contains("randomness CT"));
        }
    }

    private void start() throws Exception {
        group.parameters(ASYNC + LaunchedGroup.FAST_CHECKPOINTS).clientParameters(ASYNC).start();
        for (int r = 0; r < N; r++) {
            List<Event> log = new CopyOnWriteArrayList<>();
            group.manager(r).addEventListener((e, t) -> log.add(e));
            events.add(log);
        }
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
