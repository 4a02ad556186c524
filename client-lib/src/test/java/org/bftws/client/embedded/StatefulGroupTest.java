package org.bftws.client.embedded;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMFactory;
import org.apache.axis2.addressing.EndpointReference;
import org.apache.axis2.client.Options;
import org.apache.axis2.client.ServiceClient;
import org.bftws.core.keys.KeyFiles;
import org.bftws.core.keys.KeyGen;
import org.bftws.module.BftwsRuntime;
import org.bftws.module.client.GroupClientRuntime;
import org.bftws.module.order.TotalOrderManager;
import org.bftws.module.testing.Conditions;
import org.junit.After;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.junit.rules.Timeout;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameter;
import org.junit.runners.Parameterized.Parameters;

/**
 * A stateful service (a counter whose state is reached through {@code StatefulService}, or through its own
 * {@code get_state}/{@code set_state} operations: one run each) replicated by four
 * embedded Axis2 replicas with {@code bftws.replicated=true}, called by a plain ServiceClient with bftws
 * engaged. Checkpoints every 4 batches run get_state through the Total Order Invoker and become stable only
 * if the states agree (paper §3.3.1.8); a backup restarted empty gets the stable checkpoint by state transfer
 * and installs it with set_state; then the primary stops, the others change view, and the restarted replica
 * is needed for every quorum from then on.
 */
@RunWith(Parameterized.class)
public class StatefulGroupTest {
    @Parameters(name = "{0}")
    public static List<Object[]> services() {
        return List.of(new Object[] {"StatefulService", StatefulCounter.class},
                new Object[] {"get_state/set_state operations", OperationStateCounter.class});
    }

    @Parameter(0)
    public String how;

    @Parameter(1)
    public Class<? extends CounterBase> serviceClass;

    private static final String GROUP = "http://counter.group.example/axis2/services/Counter";
    private static final int N = 4;
    private static final long WAIT_MS = 20_000;

    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();

    @Rule
    public final Timeout timeout = Timeout.seconds(80);

    private final EmbeddedAxis2Server[] servers = new EmbeddedAxis2Server[N];
    private final int[] ports = new int[N];
    private EmbeddedAxis2Server clientServer;
    private ServiceClient client;
    private String groupParams;
    private Path keys;
    private Path aar;
    private long expected;

    @After
    public void stopAll() throws Exception {
        if (client != null) {
            client.cleanup();
        }
        EmbeddedAxis2Server.closeAll(clientServer);
        EmbeddedAxis2Server.closeAll(servers);
    }

    @Test
    public void checkpointsStateTransferAndViewChangeWithAStatefulService() throws Exception {
        startGroup();
        for (int i = 1; i <= 10; i++) {
            add(i);
        }
        for (int r = 0; r < N; r++) {
            int id = r;
            // get_state at seq 4 and 8; stable only if 2f+1 replicas captured the same state
            await("replica " + r + " has a stable checkpoint at 8", () -> manager(id).stableCheckpoint() >= 8);
            await("replica " + r + " executed all 10", () -> CounterBase.totalOf(servers[id].context()) == expected);
        }

        if (serviceClass == OperationStateCounter.class) {
            // The state operations are the Total Order Manager's: a client cannot overwrite the state.
            client.getOptions().setAction("urn:bftws:test:counter:set_state");
            try {
                OMFactory f = OMAbstractFactory.getOMFactory();
                OMElement forged = f.createOMElement("state", f.createOMNamespace(CounterBase.NAMESPACE, "c"));
                forged.setText("1000000");
                client.sendReceive(forged);
                fail("a client called set_state through the group");
            } catch (org.apache.axis2.AxisFault e) {
                assertTrue(e.getMessage(), e.getMessage().contains("reserved"));
            } finally {
                client.getOptions().setAction(CounterBase.ACTION);
            }
        }

        int lagging = N - 1;
        servers[lagging].close();
        servers[lagging] = null;
        for (int i = 11; i <= 24; i++) {
            add(i);
        }
        // Same endpoint, empty state: as after a crash that lost the disk. What it missed is below the
        // others' low watermark now, so only state transfer can bring it back.
        servers[lagging] = startReplica(lagging, tmp.newFolder("replica" + lagging + "-restarted").toPath());
        for (int i = 25; i <= 28; i++) {
            add(i);
        }
        await("the restarted replica installs a checkpoint and catches up", () -> manager(lagging).lastExecuted()
                == manager(0).lastExecuted());
        await("the restarted replica's service holds the group's total",
                () -> CounterBase.totalOf(servers[lagging].context()) == expected);
        assertNull(manager(lagging).failure());

        // The primary of view 0 stops: replicas 1, 2 and the restarted 3 must form every quorum now.
        servers[0].close();
        servers[0] = null;
        for (int i = 29; i <= 32; i++) {
            add(i);
        }
        for (int r = 1; r < N; r++) {
            int id = r;
            await("replica " + r + " executed everything in view 1", () -> manager(id).view() >= 1
                    && CounterBase.totalOf(servers[id].context()) == expected);
            assertNull(manager(r).failure());
        }
        // The restarted replica missed the client's CreateSequence: its Sandesha2 has no such sequence and refuses
        // the client's application messages (UnknownSequence), yet it executed the sequence's ordered requests,
        // learned from the pre-prepares.
        String sequence = GroupClientRuntime.sequenceId(client.getServiceContext());
        assertNull(RmSequences.bean(servers[lagging].context(), sequence));
        assertNotNull(RmSequences.bean(servers[1].context(), sequence));
    }

    /** Adds {@code amount} through the group and checks the voted running total. */
    private void add(long amount) throws Exception {
        OMFactory f = OMAbstractFactory.getOMFactory();
        OMElement request = f.createOMElement("add", f.createOMNamespace(CounterBase.NAMESPACE, "c"));
        request.setText(Long.toString(amount));
        OMElement reply = client.sendReceive(request);
        expected += amount;
        assertEquals("total", reply.getLocalName());
        assertEquals("voted total after adding " + amount, Long.toString(expected), reply.getText());
    }

    private TotalOrderManager manager(int r) {
        assertNotNull("replica " + r + " is running", servers[r]);
        return BftwsRuntime.replica(servers[r].context()).manager();
    }

    private void startGroup() throws Exception {
        keys = tmp.newFolder("keys").toPath();
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        assertEquals(0, KeyGen.run(new String[] {"--out", keys.toString(), "--replicas", "4", "--clients", "1"},
                new SecureRandom(), new PrintStream(log), new PrintStream(log)));
        aar = counterAar(tmp.newFolder("aar").toPath(), serviceClass);
        ServerSocket[] sockets = new ServerSocket[N];
        StringBuilder replicas = new StringBuilder();
        try {
            for (int r = 0; r < N; r++) {
                sockets[r] = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                ports[r] = sockets[r].getLocalPort();
                replicas.append(r).append("=http://127.0.0.1:").append(ports[r]).append("/axis2/services/Counter ");
            }
        } finally {
            for (ServerSocket s : sockets) {
                if (s != null) {
                    s.close();
                }
            }
        }
        // Short timeouts (ticks of 20 ms) keep the view change quick; small checkpoint interval and log window
        // make the restarted replica fall below the low watermark after a few calls.
        groupParams = param("bftws.replicated", "true") + param("bftws.group.endpoint", GROUP)
                + param("bftws.replicas", replicas.toString().trim())
                + param("bftws.keys.public", keys.resolve(KeyFiles.GROUP_FILE).toString())
                + param("bftws.checkpointInterval", "4") + param("bftws.logWindow", "8")
                + param("bftws.retransmitTicks", "5") + param("bftws.viewChangeTimeoutTicks", "25")
                + param("bftws.clientRetransmitTicks", "10");
        for (int r = 0; r < N; r++) {
            servers[r] = startReplica(r, tmp.newFolder("replica" + r).toPath());
        }
        clientServer = EmbeddedAxis2Server.start(TestRepositories.listeningClient(tmp.newFolder("client").toPath(),
                groupParams + param("bftws.role", "client")
                        + param("bftws.keys.private", keys.resolve(KeyFiles.clientFileName(1)).toString())));
        client = new ServiceClient(clientServer.context(), null);
        client.engageModule("bftws");
        Options options = client.getOptions();
        options.setTo(new EndpointReference(GROUP));
        options.setAction(CounterBase.ACTION);
        options.setTimeOutInMilliSeconds(WAIT_MS);
    }

    private EmbeddedAxis2Server startReplica(int r, Path dir) throws Exception {
        Path xml = TestRepositories.replicaXmlWith(dir.resolve("conf"), groupParams
                + param("bftws.replica.id", String.valueOf(r))
                + param("bftws.keys.private", keys.resolve(KeyFiles.replicaFileName(r + 1)).toString()));
        Axis2Repository repo = Axis2Repository.at(dir.resolve("repository")).axis2Xml(xml)
                .module(TestRepositories.artifacts().resolve("modules/bftws.mar"))
                .module(TestRepositories.artifacts().resolve("modules/addressing.mar"))
                .service(aar)
                .build();
        return EmbeddedAxis2Server.start(repo, ports[r]);
    }

    /**
     * counter.aar: only META-INF/services.xml; the class comes from the test class path (the archive's
     * class loader delegates to its parent). Deployed with the repository, so it exists before the replica
     * can receive anything.
     */
    private static Path counterAar(Path dir, Class<?> serviceClass) throws IOException {
        StringBuilder xml = new StringBuilder("<service name=\"Counter\">\n"
                + "  <parameter name=\"ServiceClass\">" + serviceClass.getName() + "</parameter>\n");
        for (String op : serviceClass == OperationStateCounter.class ? List.of("add", "get_state", "set_state")
                : List.of("add")) {
            xml.append("  <operation name=\"").append(op).append("\">\n")
                    .append("    <messageReceiver class=\"org.apache.axis2.receivers.RawXMLINOutMessageReceiver\"/>\n")
                    .append("    <actionMapping>urn:bftws:test:counter:").append(op).append("</actionMapping>\n")
                    .append("  </operation>\n");
        }
        xml.append("</service>\n");
        Path aar = dir.resolve("counter.aar");
        try (OutputStream out = Files.newOutputStream(aar); ZipOutputStream zip = new ZipOutputStream(out)) {
            zip.putNextEntry(new ZipEntry("META-INF/services.xml"));
            zip.write(xml.toString().getBytes(StandardCharsets.UTF_8));
            zip.closeEntry();
        }
        return aar;
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        Conditions.await(what, WAIT_MS, condition);
    }

    private static String param(String name, String value) {
        return "<parameter name=\"" + name + "\">" + value + "</parameter>\n    ";
    }
}
