package org.bftws.client.group;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.apache.axis2.AxisFault;
import org.apache.axis2.context.ConfigurationContext;
import org.bftws.client.embedded.EmbeddedAxis2Server;
import org.bftws.module.BftwsRuntime;
import org.bftws.module.config.BftwsConfig;
import org.bftws.module.config.SecurityMode;
import org.junit.After;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.junit.rules.Timeout;

/**
 * What scripts/start-group and scripts/demo do, in one JVM: four {@link GroupLauncher} replicas on free
 * loopback ports read from a group file, keys from {@code KeyGen}, and {@link DemoClient} calling echo through
 * the group endpoint; then a backup replica stops and a new client is still served. And what
 * {@code scripts/start-group --security rampart} does: generated X.509 keystores, replicas and client signing
 * their CreateSequence exchange with Rampart, an unsigned client refused.
 */
public class GroupLauncherTest {
    private static final int N = 4;

    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();

    @Rule
    public final Timeout timeout = Timeout.seconds(120);

    private final EmbeddedAxis2Server[] replicas = new EmbeddedAxis2Server[N];

    @After
    public void stop() throws Exception {
        for (EmbeddedAxis2Server s : replicas) {
            if (s != null) {
                s.close();
            }
        }
    }

    @Test
    public void fourLaunchedReplicasServeTheDemoClientAlsoWithOneBackupDown() throws Exception {
        GroupLauncher.Layout layout = new LaunchedGroup(tmp).layout(); // keys from KeyGen; replicas started here

        int[] free = GroupLauncher.freePorts(N);
        StringBuilder groupFile = new StringBuilder("# id port\n");
        for (int r = 0; r < N; r++) {
            groupFile.append(r).append(' ').append(free[r]).append('\n');
        }
        Path group = tmp.getRoot().toPath().resolve("group");
        Files.writeString(group, groupFile);
        int[] ports = GroupLauncher.readGroup(group);
        assertEquals(N, ports.length);

        for (int r = 0; r < N; r++) {
            replicas[r] = GroupLauncher.start(r, ports, layout, tmp.newFolder("replica" + r).toPath());
            assertEquals(ports[r], replicas[r].port());
            assertTrue("replica " + r + " is replicated", BftwsRuntime.replica(replicas[r].context()) != null);
        }

        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(printed, true, StandardCharsets.UTF_8);
        try (DemoClient client = DemoClient.connect(ports, layout, tmp.newFolder("client1").toPath())) {
            List<DemoClient.Call> calls = client.run("all4", 3, 3, out);
            assertEquals(3, calls.size());
            for (DemoClient.Call c : calls) {
                assertTrue(c.sent() + " vs " + c.voted(), c.correct());
                assertEquals(List.of("all4-call" + (calls.indexOf(c) + 1) + "-item0",
                        "all4-call" + (calls.indexOf(c) + 1) + "-item1",
                        "all4-call" + (calls.indexOf(c) + 1) + "-item2"), c.voted());
            }
        }
        assertTrue(printed.toString(), printed.toString().contains("echo 3: voted reply [all4-call3-item0"));

        replicas[N - 1].close(); // a backup (the primary of view 0 is replica 0)
        replicas[N - 1] = null;
        try (DemoClient client = DemoClient.connect(ports, layout, tmp.newFolder("client2").toPath())) {
            for (DemoClient.Call c : client.run("three", 3, 2, out)) {
                assertTrue(c.sent() + " vs " + c.voted(), c.correct());
            }
        }
    }

    @Test
    public void withRampartLaunchedReplicasServeOnlyASigningClient() throws Exception {
        LaunchedGroup group = new LaunchedGroup(tmp);
        try {
            GroupSecurity.keystores(group.layout().keys(), N); // as scripts/start-group does before the replicas
            group.start("", GroupSecurity.RAMPART);
            for (int r = 0; r < N; r++) {
                ConfigurationContext context = group.replica(r).context();
                assertEquals(SecurityMode.RAMPART, ((BftwsConfig) context.getProperty(BftwsRuntime.CONFIG_PROPERTY))
                        .security());
                assertTrue("replica " + r + "'s main service is under Rampart",
                        context.getAxisConfiguration().getService("Echo").isEngaged("rampart"));
            }
            ByteArrayOutputStream printed = new ByteArrayOutputStream();
            PrintStream out = new PrintStream(printed, true, StandardCharsets.UTF_8);
            DemoClient signed = group.client("signed", GroupSecurity.RAMPART);
            assertTrue(printed.toString(), signed.runCounter(3, 0L, out));
            for (DemoClient.Call c : signed.run("signed", 2, 2, out)) {
                assertTrue(c.sent() + " vs " + c.voted(), c.correct());
            }
            assertTrue(printed.toString(), printed.toString().contains("client: counter now 6"));
            try {
                group.client("unsigned", GroupSecurity.NONE).readCounter();
                fail("a client without WS-Security was served by a rampart group");
            } catch (AxisFault expected) {
                // its CreateSequence is refused by every replica, so it has no sequence to send on
                assertTrue(expected.getMessage(), expected.getMessage().contains("Missing wsse:Security header"));
            }
        } finally {
            group.after();
        }
    }
}
