package org.bftws.client.embedded;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.bftws.client.group.DemoClient;
import org.bftws.client.group.GroupLauncher;
import org.bftws.client.group.LaunchedGroup;
import org.bftws.core.config.GroupConfig;
import org.bftws.module.testing.Conditions;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.FixMethodOrder;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TemporaryFolder;
import org.junit.rules.Timeout;
import org.junit.runners.MethodSorters;

/**
 * BFT-WS §3.3.3, configuration III, over real HTTP on 127.0.0.1: four agreement replicas (ids 0..3) only order,
 * three execution nodes (ids 4..6, Yin et al.'s execution cluster) execute the echo and counter services and
 * reply; the client sends its requests to the agreement replicas (WS-RM) and to the execution nodes' control
 * ports, and votes on the execution nodes' replies. In this order: replies come from execution nodes only; an
 * execution node stopped, the other two still answer; then the primary stopped, a view change among the
 * agreement replicas keeps the group live. Checkpoints every 4 sequence numbers, so the execution nodes'
 * checkpoint votes release the batches the agreement replicas hold for them along the way.
 */
@FixMethodOrder(MethodSorters.NAME_ASCENDING)
public class ConfigurationThreeGroupTest {
    private static final int N = LaunchedGroup.N;
    private static final int MEMBERS = N + LaunchedGroup.EXECUTION_NODES;
    private static final long WAIT_MS = 20_000;
    private static final TemporaryFolder TMP = new TemporaryFolder();
    private static final LaunchedGroup GROUP = new LaunchedGroup(TMP).randomness("none")
            .configuration(GroupLauncher.Configuration.III)
            .parameters(GroupLauncher.param(GroupConfig.CHECKPOINT_INTERVAL.name(), "4")
                    + GroupLauncher.param(GroupConfig.LOG_WINDOW.name(), "8"));

    @ClassRule
    public static final RuleChain RULES = RuleChain.outerRule(TMP).around(GROUP);

    @Rule
    public final Timeout timeout = Timeout.seconds(180);

    private static DemoClient client;
    /** The client's core id: the first client key no execution node signs with. */
    private static int clientId;
    private static long counter;

    @BeforeClass
    public static void startGroupAndClient() throws Exception {
        GROUP.start();
        client = GROUP.client("client");
        clientId = N + GroupLauncher.Configuration.III.clientKey(MEMBERS) - 1;
    }

    @Test
    public void a_repliesComeFromTheExecutionNodesOnly() throws Exception {
        assertNull("agreement replica 0 has no echo service, only the stand-in", GROUP.replica(0).context()
                .getAxisConfiguration().getService("Echo").getOperation(ReplicaProbe.echo()));
        calls("a", 4);
        for (int e = N; e < MEMBERS; e++) {
            int id = e;
            Conditions.await("execution node " + e + " replied to every call", WAIT_MS,
                    () -> GROUP.manager(id).repliesSent(clientId) >= 8);
            assertTrue(GROUP.manager(e).orderingMode().startsWith("execution node"));
        }
        Conditions.await("the execution nodes' checkpoint released the batches the replicas held", WAIT_MS,
                () -> GROUP.manager(0).stableCheckpoint() >= 4);
        for (int r = 0; r < N; r++) {
            assertEquals("agreement replica " + r + " answers no client", 0, GROUP.manager(r).repliesSent(clientId));
            assertTrue(GROUP.manager(r).orderingMode().startsWith("PBFT AGREEMENT"));
        }
        assertNoFailure();
    }

    @Test
    public void b_anExecutionNodeStoppedLeavesTwoToAnswer() throws Exception {
        GROUP.stop(MEMBERS - 1);
        calls("b", 3);
        assertNoFailure();
    }

    @Test
    public void c_thePrimaryStoppedAViewChangeKeepsTheGroupLive() throws Exception {
        GROUP.stop(0);
        calls("c", 3);
        assertTrue("a view change replaced the primary", GROUP.manager(1).view() >= 1);
        for (int r = 1; r < N; r++) {
            assertEquals(0, GROUP.manager(r).repliesSent(clientId));
        }
        assertNoFailure();
    }

    /** {@code n} echo calls and {@code n} counter increments, each voted reply checked by the demo client. */
    private static void calls(String label, int n) throws Exception {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(log, true, StandardCharsets.UTF_8);
        boolean echoed = client.run("c3-" + label, n, 2, out).stream().allMatch(DemoClient.Call::correct);
        assertTrue(log.toString(StandardCharsets.UTF_8), echoed);
        assertTrue(log.toString(StandardCharsets.UTF_8), client.runCounter(n, counter, out));
        counter += (long) n * (n + 1) / 2;
    }

    private static void assertNoFailure() {
        for (int m = 0; m < MEMBERS; m++) {
            if (GROUP.replicas()[m] != null) {
                assertNull("member " + m, GROUP.manager(m).failure());
            }
        }
    }
}
