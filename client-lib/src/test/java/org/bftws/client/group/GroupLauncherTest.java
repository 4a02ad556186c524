package org.bftws.client.group;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.List;

import org.bftws.client.embedded.EmbeddedAxis2Server;
import org.bftws.core.keys.KeyGen;
import org.bftws.module.BftwsRuntime;
import org.junit.After;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.junit.rules.Timeout;

/**
 * What scripts/start-group and scripts/demo do, in one JVM: four {@link GroupLauncher} replicas on free
 * loopback ports read from a group file, keys from {@link KeyGen}, and {@link DemoClient} calling echo through
 * the group endpoint; then a backup replica stops and a new client is still served.
 */
public class GroupLauncherTest {
    private static final int N = 4;

    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();

    @Rule
    public final Timeout timeout = Timeout.seconds(60);

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
        Path keys = tmp.newFolder("keys").toPath();
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        assertEquals(log.toString(), 0, KeyGen.run(new String[] {"--out", keys.toString(), "--replicas", "4",
                "--clients", "1"}, new SecureRandom(), new PrintStream(log), new PrintStream(log)));
        GroupLauncher.Layout layout = new GroupLauncher.Layout(Path.of(System.getProperty("bftws.test.artifacts")),
                Path.of(System.getProperty("bftws.conf")), keys);

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
}
