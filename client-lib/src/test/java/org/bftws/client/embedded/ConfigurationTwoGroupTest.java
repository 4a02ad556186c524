package org.bftws.client.embedded;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMFactory;
import org.apache.axiom.om.OMNamespace;
import org.apache.axis2.client.ServiceClient;
import org.bftws.client.GroupClients;
import org.bftws.client.group.GroupLauncher;
import org.bftws.client.group.LaunchedGroup;
import org.bftws.core.config.GroupConfig;
import org.bftws.module.testing.Conditions;
import org.junit.AfterClass;
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
 * BFT-WS §3.3.2, configuration II, over real HTTP on 127.0.0.1: four replicas order, replicas 1, 2 and 3
 * execute the echo service; replica 0, the primary of view 0, only orders and deploys no service (the module's
 * stand-in takes the clients' WS-RM messages). A plain ServiceClient with bftws engaged gets voted replies.
 * In this order: replies come from the executing replicas only and replica 0 executes nothing; an executing
 * replica stopped, the other two still answer; restarted empty, it catches up by state transfer from the
 * executing replicas; then the agreement-only primary stopped, a view change keeps the group live.
 */
@FixMethodOrder(MethodSorters.NAME_ASCENDING)
public class ConfigurationTwoGroupTest {
    private static final int N = LaunchedGroup.N;
    /** The client's core id: client-1's key is node n. */
    private static final int CLIENT = N;
    private static final long WAIT_MS = 20_000;
    private static final TemporaryFolder TMP = new TemporaryFolder();
    private static final LaunchedGroup GROUP = new LaunchedGroup(TMP).randomness("none")
            .configuration(GroupLauncher.Configuration.II)
            .parameters(GroupLauncher.param(GroupConfig.CHECKPOINT_INTERVAL.name(), "4")
                    + GroupLauncher.param(GroupConfig.LOG_WINDOW.name(), "8"));

    @ClassRule
    public static final RuleChain RULES = RuleChain.outerRule(TMP).around(GROUP);

    @Rule
    public final Timeout timeout = Timeout.seconds(120);

    private static final ReplicaProbe[] probes = new ReplicaProbe[N];
    private static ServiceClient client;
    private static int call;

    @BeforeClass
    public static void startGroupAndClient() throws Exception {
        GROUP.start();
        for (int r = 1; r < N; r++) {
            probes[r] = probe(r);
        }
        client = GroupClients.create(GROUP.client("client").context(), GroupLauncher.GROUP_ENDPOINT,
                GroupLauncher.ECHO_ACTION, WAIT_MS);
    }

    @AfterClass
    public static void stopClient() throws Exception {
        if (client != null) {
            client.cleanup();
        }
    }

    private static ReplicaProbe probe(int r) throws Exception {
        return new ReplicaProbe().installOn(GROUP.replica(r).context().getAxisConfiguration().getService("Echo")
                .getOperation(ReplicaProbe.echo()));
    }

    @Test
    public void a_repliesComeFromTheExecutingReplicasOnly() throws Exception {
        assertNull("replica 0 has no echo service, only the stand-in", GROUP.replica(0).context()
                .getAxisConfiguration().getService("Echo").getOperation(ReplicaProbe.echo()));
        echo(6);
        for (int r = 1; r < N; r++) {
            int id = r;
            // or, having trailed when a checkpoint became stable, caught up by state transfer (§4.3)
            Conditions.await("replica " + r + " executed every call", WAIT_MS, () -> probes[id].executed().size() == call
                    || GROUP.manager(id).statesTransferred() > 0
                            && GROUP.manager(id).lastExecuted() >= GROUP.manager(0).lastExecuted());
            assertTrue("replica " + r + " replied", GROUP.manager(r).repliesSent(CLIENT) >= call - 1);
        }
        assertEquals("the agreement-only replica answers no client", 0, GROUP.manager(0).repliesSent(CLIENT));
        assertTrue("it orders: its log moved on", GROUP.manager(0).lastExecuted() >= 1);
        assertEquals("PBFT AGREEMENT", GROUP.manager(0).orderingMode().substring(0, "PBFT AGREEMENT".length()));
        assertNull(GROUP.manager(0).failure());
    }

    @Test
    public void b_anExecutingReplicaStoppedLeavesTwoToAnswer() throws Exception {
        GROUP.stop(3);
        echo(6);
        assertEquals(0, GROUP.manager(0).repliesSent(CLIENT));
    }

    @Test
    public void c_theExecutingReplicaRestartedEmptyCatchesUpByStateTransfer() throws Exception {
        GROUP.start(3, "replica3-restarted");
        probes[3] = probe(3);
        echo(8);
        Conditions.await("replica 3 reached the group's stable checkpoint", WAIT_MS,
                () -> GROUP.manager(3).stableCheckpoint() >= 4
                        && GROUP.manager(3).lastExecuted() >= GROUP.manager(1).stableCheckpoint());
        echo(1);
        Conditions.await("replica 3 executes again", WAIT_MS, () -> !probes[3].executed().isEmpty());
        assertNull(GROUP.manager(3).failure());
    }

    @Test
    public void d_theAgreementOnlyPrimaryStoppedAViewChangeKeepsTheGroupLive() throws Exception {
        GROUP.stop(0);
        echo(3);
        assertTrue("a view change replaced the primary", GROUP.manager(1).view() >= 1);
        for (int r = 1; r < N; r++) {
            assertNull(GROUP.manager(r).failure());
        }
    }

    /** {@code calls} echo calls through the group, one after the other. */
    private static void echo(int calls) throws Exception {
        for (int i = 0; i < calls; i++) {
            echo();
        }
    }

    /** One echo call through the group; the voted reply must echo the request. */
    private static void echo() throws Exception {
        int c = ++call;
        OMFactory f = OMAbstractFactory.getOMFactory();
        OMNamespace ns = f.createOMNamespace(GroupLauncher.ECHO_NS, "e");
        OMElement request = f.createOMElement("echo", ns);
        OMElement item = f.createOMElement("item", ns);
        item.setText("c2-call" + c);
        request.addChild(item);
        OMElement reply = client.sendReceive(request);
        List<String> got = new ArrayList<>();
        Iterator<OMElement> it = reply.getChildElements();
        while (it.hasNext()) {
            got.add(it.next().getText());
        }
        assertEquals("voted reply", List.of("c2-call" + c), got);
    }
}
