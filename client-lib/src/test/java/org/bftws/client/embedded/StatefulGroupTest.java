package org.bftws.client.embedded;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMFactory;
import org.apache.axis2.client.ServiceClient;
import org.bftws.client.GroupClients;
import org.bftws.client.group.GroupLauncher;
import org.bftws.client.group.LaunchedGroup;
import org.bftws.module.BftwsRuntime;
import org.bftws.module.client.GroupClientRuntime;
import org.bftws.module.order.TotalOrderManager;
import org.bftws.module.testing.Conditions;
import org.junit.After;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TemporaryFolder;
import org.junit.rules.Timeout;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameter;
import org.junit.runners.Parameterized.Parameters;

/**
 * A stateful service (a counter whose state is reached through {@code StatefulService}, or through its own
 * {@code get_state}/{@code set_state} operations: one run each) replicated by the four replicas of a
 * {@link LaunchedGroup}, beside the demo group's services, called by a plain ServiceClient with bftws
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

    /** The test's counter, deployed beside the demo group's services: a sibling of the group endpoint. */
    private static final String SERVICE = "StatefulCounter";
    private static final String ENDPOINT = GroupLauncher.GROUP_ENDPOINT.substring(0,
            GroupLauncher.GROUP_ENDPOINT.lastIndexOf('/') + 1) + SERVICE;
    private static final int N = LaunchedGroup.N;
    private static final long WAIT_MS = 20_000;
    /**
     * Short timeouts (ticks of 20 ms) keep the view change quick; small checkpoint interval and log window make
     * the restarted replica fall below the low watermark after a few calls. The client has them too.
     */
    private static final String FAST = GroupLauncher.param("bftws.checkpointInterval", "4")
            + GroupLauncher.param("bftws.logWindow", "8") + GroupLauncher.param("bftws.retransmitTicks", "5")
            + GroupLauncher.param("bftws.viewChangeTimeoutTicks", "25")
            + GroupLauncher.param("bftws.clientRetransmitTicks", "10");

    private final TemporaryFolder tmp = new TemporaryFolder();
    private final LaunchedGroup group = new LaunchedGroup(tmp).randomness("none").parameters(FAST)
            .clientParameters(FAST);

    @Rule
    public final RuleChain rules = RuleChain.outerRule(tmp).around(group);

    @Rule
    public final Timeout timeout = Timeout.seconds(80);

    /** The group's replicas (null where stopped). */
    private Axis2Server[] servers;
    private ServiceClient client;
    private long expected;

    @After
    public void stopAll() throws Exception {
        if (client != null) {
            client.cleanup();
        }
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
        group.stop(lagging);
        for (int i = 11; i <= 24; i++) {
            add(i);
        }
        // Same endpoint, empty state: as after a crash that lost the disk. What it missed is below the
        // others' low watermark now, so only state transfer can bring it back.
        group.start(lagging, "replica" + lagging + "-restarted");
        for (int i = 25; i <= 28; i++) {
            add(i);
        }
        await("the restarted replica installs a checkpoint and catches up", () -> manager(lagging).lastExecuted()
                == manager(0).lastExecuted());
        await("the restarted replica's service holds the group's total",
                () -> CounterBase.totalOf(servers[lagging].context()) == expected);
        assertNull(manager(lagging).failure());

        // The primary of view 0 stops: replicas 1, 2 and the restarted 3 must form every quorum now.
        group.stop(0);
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
        servers = group.service(counterAar(tmp.newFolder("aar").toPath(), serviceClass)).start().replicas();
        client = GroupClients.create(group.client("client").context(), ENDPOINT, CounterBase.ACTION, WAIT_MS);
    }

    /**
     * StatefulCounter.aar: only META-INF/services.xml; the class comes from the test class path (the archive's
     * class loader delegates to its parent). Deployed with the repository, so it exists before the replica
     * can receive anything.
     */
    private static Path counterAar(Path dir, Class<?> serviceClass) throws IOException {
        StringBuilder xml = new StringBuilder("<service name=\"" + SERVICE + "\">\n"
                + "  <parameter name=\"ServiceClass\">" + serviceClass.getName() + "</parameter>\n");
        for (String op : serviceClass == OperationStateCounter.class ? List.of("add", "get_state", "set_state")
                : List.of("add")) {
            xml.append("  <operation name=\"").append(op).append("\">\n")
                    .append("    <messageReceiver class=\"org.apache.axis2.receivers.RawXMLINOutMessageReceiver\"/>\n")
                    .append("    <actionMapping>urn:bftws:test:counter:").append(op).append("</actionMapping>\n")
                    .append("  </operation>\n");
        }
        xml.append("</service>\n");
        Path aar = dir.resolve(SERVICE + ".aar");
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
}
