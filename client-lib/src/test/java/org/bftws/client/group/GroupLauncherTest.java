package org.bftws.client.group;

import static org.junit.Assert.assertArrayEquals;
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
import org.bftws.module.BftwsRuntime;
import org.bftws.module.config.BftwsConfig;
import org.bftws.module.config.SecurityMode;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.RuleChain;
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
    private static final int N = LaunchedGroup.N;

    private final TemporaryFolder tmp = new TemporaryFolder();
    private final LaunchedGroup group = new LaunchedGroup(tmp);

    @Rule
    public final RuleChain rules = RuleChain.outerRule(tmp).around(group);

    @Rule
    public final Timeout timeout = Timeout.seconds(120);

    @Test
    public void fourLaunchedReplicasServeTheDemoClientAlsoWithOneBackupDown() throws Exception {
        GroupLauncher.Layout layout = group.layout();
        StringBuilder groupFile = new StringBuilder("# id port\n");
        for (int r = 0; r < N; r++) {
            groupFile.append(r).append(' ').append(group.ports()[r]).append('\n');
        }
        Path file = tmp.getRoot().toPath().resolve("group");
        Files.writeString(file, groupFile);
        int[] ports = GroupLauncher.readGroup(file);
        assertEquals(N, ports.length);
        assertArrayEquals("the group file's ports", group.ports(), ports);

        group.start();
        for (int r = 0; r < N; r++) {
            assertEquals(ports[r], group.replica(r).port());
            assertTrue("replica " + r + " is replicated", BftwsRuntime.replica(group.replica(r).context()) != null);
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

        group.stop(N - 1); // a backup (the primary of view 0 is replica 0)
        try (DemoClient client = DemoClient.connect(ports, layout, tmp.newFolder("client2").toPath())) {
            for (DemoClient.Call c : client.run("three", 3, 2, out)) {
                assertTrue(c.sent() + " vs " + c.voted(), c.correct());
            }
        }
    }

    @Test
    public void withRampartLaunchedReplicasServeOnlyASigningClient() throws Exception {
        group.security(GroupSecurity.RAMPART).start();
        for (int r = 0; r < N; r++) {
            ConfigurationContext context = group.replica(r).context();
            assertEquals(SecurityMode.RAMPART, ((BftwsConfig) context.getProperty(BftwsRuntime.CONFIG_PROPERTY))
                    .security());
            assertTrue("replica " + r + "'s main service is under Rampart",
                    context.getAxisConfiguration().getService("Echo").isEngaged("rampart"));
        }
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(printed, true, StandardCharsets.UTF_8);
        DemoClient signed = group.client("signed");
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
    }
}
