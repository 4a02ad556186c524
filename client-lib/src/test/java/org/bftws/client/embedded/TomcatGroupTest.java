package org.bftws.client.embedded;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.transport.http.AxisServletListener;
import org.bftws.client.group.DemoClient;
import org.bftws.client.group.GroupLauncher;
import org.bftws.client.group.GroupLauncher.Container;
import org.bftws.client.group.LaunchedGroup;
import org.bftws.module.BftwsRuntime;
import org.bftws.module.order.BftwsReplica;
import org.bftws.module.testing.Conditions;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TemporaryFolder;
import org.junit.rules.Timeout;

/**
 * Replicas deployed in a servlet container: four replicas, each an embedded Tomcat 9 running Axis2's
 * AxisServlet over a web application laid out as docs/installing.md's "Into an existing Axis2 web application"
 * says (WEB-INF/conf/axis2.xml with the bftws.* parameters, WEB-INF/modules/bftws.mar and addressing.mar,
 * WEB-INF/services/echo.aar), on free 127.0.0.1 ports. An ordinary ServiceClient with bftws engaged
 * ({@link DemoClient}) calls echo through the group endpoint and gets voted replies; every replica executes
 * the same requests in one order; then a backup stops and a new client, itself an Axis2 web application in
 * Tomcat, is still served by the other three.
 */
public class TomcatGroupTest {
    private static final int N = LaunchedGroup.N;
    private static final int CALLS = 5;
    private static final long WAIT_MS = 30_000;

    private final TemporaryFolder tmp = new TemporaryFolder();
    private final LaunchedGroup group = new LaunchedGroup(tmp);

    @Rule
    public final RuleChain rules = RuleChain.outerRule(tmp).around(group);

    @Rule
    public final Timeout timeout = Timeout.seconds(180);

    private final ReplicaProbe[] probes = new ReplicaProbe[N];

    @Test
    public void fourReplicasInTomcatServeAServiceClientAlsoWithOneBackupDown() throws Exception {
        GroupLauncher.Layout layout = group.layout();
        int[] ports = group.ports();
        group.inTomcat().start();
        for (int r = 0; r < N; r++) {
            assertServedByTheServlet(r, ports[r]);
        }

        PrintStream out = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        try (DemoClient client = DemoClient.connect(ports, layout, tmp.newFolder("client1").toPath())) {
            assertVoted(client.run("tomcat", CALLS, 3, out), "tomcat");
        }
        awaitSameOrder(CALLS, N);
        for (int r = 0; r < N; r++) {
            BftwsReplica replica = BftwsRuntime.replica(group.replica(r).context());
            assertTrue("replica " + r + " executed ordered batches", replica.manager().lastExecuted() >= 1);
            assertNull("replica " + r + " ordering failure", replica.manager().failure());
        }

        group.stop(N - 1); // a backup (the primary of view 0 is replica 0); AxisServlet.destroy stops bftws
        // An undeployed web application must leave no thread behind (its class loader would leak).
        // Stopping waits for every pool to terminate; a worker is reported ended an instant before its thread
        // returns, so allow that instant (a leak would stay).
        Conditions.await("no thread of replica 3 alive after its web application stopped", WAIT_MS,
                () -> liveThreads("-r" + (N - 1)).isEmpty());
        // The second client is itself served by AxisServlet: its replies arrive at a control port in Tomcat.
        try (DemoClient client = DemoClient.connect(Container.TOMCAT, ports, layout, tmp.newFolder("client2").toPath())) {
            assertVoted(client.run("three", CALLS, 2, out), "three");
        }
        awaitSameOrder(2 * CALLS, N - 1);
    }

    /**
     * As an installed Axis2 web application runs: AxisServlet, Axis2, Sandesha2 and bftws are loaded by each
     * application's own class loader from its WEB-INF/lib (docs/installing.md: installation into an existing Axis2 web
     * application), so the four replicas share no class with each other or with the client. With replica 3
     * stopped, every request needs all three others (2f+1 commits), so the second client's voted replies show
     * that the remaining replicas order together.
     */
    @Test
    public void fourInstalledWebApplicationsFormAGroup() throws Exception {
        GroupLauncher.Layout layout = group.layout();
        int[] ports = group.ports();
        group.installedInTomcat().start();
        for (int r = 0; r < N; r++) {
            assertNull("replica " + r + ": Axis2 classes are the web application's own", group.replica(r).context());
        }
        PrintStream out = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        try (DemoClient client = DemoClient.connect(ports, layout, tmp.newFolder("client1").toPath())) {
            assertVoted(client.run("installed", CALLS, 3, out), "installed");
        }
        group.stop(N - 1);
        try (DemoClient client = DemoClient.connect(ports, layout, tmp.newFolder("client2").toPath())) {
            assertVoted(client.run("three", CALLS, 2, out), "three");
        }
    }

    /** A wrong bftws.* value stops the web application's start-up, and the failure names the key. */
    @Test
    public void aWrongParameterStopsTheWebApplicationNamingTheKey() throws Exception {
        Path dir = tmp.newFolder("bad").toPath();
        Path xml = TestRepositories.replicaXmlWith(dir.resolve("conf"),
                "<parameter name=\"bftws.tickMillis\">soon</parameter>");
        TomcatAxis2Server.webApplication(dir.resolve("webapp"), xml)
                .module(TestRepositories.artifacts().resolve("modules/bftws.mar"))
                .module(TestRepositories.artifacts().resolve("modules/addressing.mar"))
                .build();
        try (TomcatAxis2Server s = TomcatAxis2Server.start(dir.resolve("webapp"), 0, dir.resolve("tomcat"))) {
            fail("the web application started despite bftws.tickMillis=soon, on port " + s.port());
        } catch (IOException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("bftws.tickMillis"));
        }
    }

    /** The servlet transport replaced SimpleHTTPServer; bftws runs inside the servlet's Axis2 instance. */
    private void assertServedByTheServlet(int r, int port) throws Exception {
        Axis2Server s = group.replica(r);
        assertTrue(s instanceof TomcatAxis2Server);
        assertEquals(port, s.port());
        ConfigurationContext context = s.context();
        assertNotNull("replica " + r + ": AxisServlet published its Axis2 context", context);
        assertTrue("replica " + r + ": http is the servlet's listener",
                context.getAxisConfiguration().getTransportIn("http").getReceiver() instanceof AxisServletListener);
        assertNotNull("replica " + r + " runs the ordering machinery", BftwsRuntime.replica(context));
        Path deployed = Path.of(context.getAxisConfiguration().getRepository().toURI());
        assertTrue("replica " + r + " deployed from WEB-INF: " + deployed,
                deployed.endsWith("WEB-INF") && Files.isRegularFile(deployed.resolve("conf/axis2.xml")));
        probes[r] = new ReplicaProbe().installOn(
                context.getAxisConfiguration().getService("Echo").getOperation(ReplicaProbe.echo()));
    }

    private static void assertVoted(List<DemoClient.Call> calls, String label) {
        assertEquals(CALLS, calls.size());
        for (int c = 0; c < calls.size(); c++) {
            DemoClient.Call call = calls.get(c);
            assertTrue(call.sent() + " vs " + call.voted(), call.correct());
            assertEquals(label + "-call" + (c + 1) + "-item0", call.voted().get(0));
        }
    }

    /** Every running replica executed {@code count} requests, in replica 0's order. */
    private void awaitSameOrder(int count, int running) throws InterruptedException {
        for (int r = 0; r < running; r++) {
            int id = r;
            Conditions.await("replica " + r + " executed " + count, WAIT_MS, () -> probes[id].executed().size() >= count);
        }
        List<String> order = probes[0].executed();
        assertEquals(count, order.size());
        assertEquals("distinct request ids", count, order.stream().distinct().count());
        for (int r = 1; r < running; r++) {
            assertEquals("replica " + r + " executed replica 0's order", order, probes[r].executed());
        }
    }

    /** Names of live bftws threads whose name contains {@code marker} (bftws-order-r3, bftws-send-r3-1, ...). */
    private static List<String> liveThreads(String marker) {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).map(Thread::getName)
                .filter(n -> n.startsWith("bftws-") && (n.endsWith(marker) || n.contains(marker + "-"))).sorted().toList();
    }
}
