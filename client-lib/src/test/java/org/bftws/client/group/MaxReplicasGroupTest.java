package org.bftws.client.group;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.util.List;

import org.bftws.module.testing.Conditions;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TemporaryFolder;
import org.junit.rules.Timeout;

/**
 * A group of four replicas with {@code bftws.maxReplicas} = 7 on replicas and client alike, over real HTTP on
 * 127.0.0.1: the client's key file {@code client-1.key} is node 7, not node n = 4 (ids 4..6 stay free for
 * replicas a grown epoch adds, docs/design/reconfiguration.md). Echo, the counter and a randomized call (the
 * id generator, CT coin) get voted replies, and the replicas address their replies to node 7 and to no id
 * below it.
 */
public class MaxReplicasGroupTest {
    private static final int N = LaunchedGroup.N;
    private static final int MAX_REPLICAS = 7;
    private static final long WAIT_MS = 30_000;
    private static final String MAX = GroupLauncher.param("bftws.maxReplicas", String.valueOf(MAX_REPLICAS));

    private final TemporaryFolder tmp = new TemporaryFolder();
    private final LaunchedGroup group = new LaunchedGroup(tmp).parameters(MAX).clientParameters(MAX);

    @Rule
    public final RuleChain rules = RuleChain.outerRule(tmp).around(group);

    @Rule
    public final Timeout timeout = Timeout.seconds(150);

    @Test
    public void clientsNumberedFromMaxReplicasCallEchoTheCounterAndARandomizedOperation() throws Exception {
        group.start();
        DemoClient client = group.client("client");

        DemoClient.Call echo = client.echo(List.of("from", "node", "seven"));
        assertTrue("voted echo " + echo.voted(), echo.correct());

        long before = client.readCounter().value();
        long expected = before;
        for (long amount = 1; amount <= 3; amount++) {
            expected += amount;
            assertEquals("voted counter after adding " + amount, expected, client.increment(amount).value());
        }
        assertEquals(expected, client.readCounter().value());

        DemoClient.RandomCall id = client.nextId();
        assertTrue(id.voted() + " / " + id.random(), id.correct());
        assertEquals("the id is the agreed number's first 128 bits", id.random().substring(0, 32), id.voted().get(0));

        // 1 echo, 5 counter calls and 1 id: every correct replica answered node 7 for each, unless it caught up by
        // state transfer instead of executing them all
        int calls = 7;
        for (int r = 0; r < N; r++) {
            int replica = r;
            Conditions.await("replica " + r + " answered client node " + MAX_REPLICAS, WAIT_MS,
                    () -> group.manager(replica).repliesSent(MAX_REPLICAS) >= calls
                            || group.manager(replica).statesTransferred() > 0);
            for (int node = N; node < MAX_REPLICAS; node++) {
                assertEquals("replies to node " + node + ", kept for added replicas", 0,
                        group.manager(r).repliesSent(node));
            }
            assertNull(group.manager(r).failure());
        }
    }
}
