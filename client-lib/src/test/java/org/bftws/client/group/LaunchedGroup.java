package org.bftws.client.group;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;

import org.bftws.client.embedded.EmbeddedAxis2Server;
import org.bftws.core.keys.KeyGen;
import org.bftws.module.BftwsRuntime;
import org.bftws.module.order.TotalOrderManager;
import org.junit.rules.ExternalResource;
import org.junit.rules.TemporaryFolder;

/**
 * A test's demo group as scripts/start-group makes it, in one JVM: keys from {@link KeyGen} (4 replicas, 1
 * client), four {@link GroupLauncher} replicas on free loopback ports; stopped, with the test's clients,
 * after each test. Use inside the {@link TemporaryFolder} it writes to
 * ({@code RuleChain.outerRule(tmp).around(group)}).
 */
final class LaunchedGroup extends ExternalResource {
    static final int N = 4;

    private final TemporaryFolder tmp;
    private final EmbeddedAxis2Server[] replicas = new EmbeddedAxis2Server[N];
    private final List<DemoClient> clients = new ArrayList<>();
    private GroupLauncher.Layout layout;
    private int[] ports;

    LaunchedGroup(TemporaryFolder tmp) {
        this.tmp = tmp;
    }

    /** Generates the keys and picks the ports; no replica runs yet. */
    GroupLauncher.Layout layout() throws IOException {
        if (layout == null) {
            Path keys = tmp.newFolder("keys").toPath();
            ByteArrayOutputStream log = new ByteArrayOutputStream();
            assertEquals(log.toString(), 0, KeyGen.run(new String[] {"--out", keys.toString(), "--replicas",
                String.valueOf(N), "--clients", "1"}, new SecureRandom(), new PrintStream(log), new PrintStream(log)));
            layout = new GroupLauncher.Layout(Path.of(System.getProperty("bftws.test.artifacts")),
                    Path.of(System.getProperty("bftws.conf")), keys);
            ports = GroupLauncher.freePorts(N);
        }
        return layout;
    }

    int[] ports() throws IOException {
        layout();
        return ports;
    }

    /** Starts all replicas with {@code extra} parameters, signing as {@code security} says. */
    void start(String extra, GroupSecurity security) throws IOException {
        for (int r = 0; r < N; r++) {
            start(r, "replica" + r, extra, security);
        }
    }

    /** (Re)starts replica {@code r} with an empty state in a fresh directory named {@code dirName}. */
    EmbeddedAxis2Server start(int r, String dirName, String extra, GroupSecurity security) throws IOException {
        replicas[r] = GroupLauncher.start(r, ports(), layout(), tmp.newFolder(dirName).toPath(),
                GroupLauncher.RANDOMNESS_DEFAULT, extra, security);
        return replicas[r];
    }

    /** Stops replica {@code r} (as a crash would: its state is gone). */
    void stop(int r) throws Exception {
        replicas[r].close();
        replicas[r] = null;
    }

    EmbeddedAxis2Server replica(int r) {
        assertNotNull("replica " + r + " is running", replicas[r]);
        return replicas[r];
    }

    TotalOrderManager manager(int r) {
        return BftwsRuntime.replica(replica(r).context()).manager();
    }

    /** A demo client of this group, closed after the test; its repository in a fresh directory. */
    DemoClient client(String dirName, GroupSecurity security) throws IOException {
        DemoClient c = DemoClient.connect(GroupLauncher.Container.AXIS2, ports(), layout(),
                tmp.newFolder(dirName).toPath(), security);
        clients.add(c);
        return c;
    }

    @Override
    protected void after() {
        try {
            for (DemoClient c : clients) {
                c.close();
            }
            EmbeddedAxis2Server.closeAll(replicas);
        } catch (Exception e) {
            throw new IllegalStateException("stopping the launched group", e);
        }
    }
}
