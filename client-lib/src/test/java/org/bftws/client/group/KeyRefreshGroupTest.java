package org.bftws.client.group;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import javax.management.JMX;
import javax.management.MBeanServer;
import javax.management.ObjectName;

import org.bftws.core.keys.GroupKeys;
import org.bftws.core.keys.KeyEpochFiles;
import org.bftws.core.keys.KeyFiles;
import org.bftws.module.BftwsRuntime;
import org.bftws.module.config.BftwsKeys;
import org.bftws.module.order.KeyRefresh;
import org.bftws.module.order.KeyRefreshMBean;
import org.bftws.module.testing.Conditions;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TemporaryFolder;
import org.junit.rules.Timeout;

/**
 * The proactive refresh of a group's generated keys over loopback HTTP: four replicas without a dealer generate
 * their keys, then refresh them while a client keeps calling the demo's randomized and confidential operations.
 * Afterwards every replica's share file changed, group.pub (what clients hold) did not, epoch 1's verification
 * keys are in group.vk, and the calls still succeed, also after every replica restarted on its refreshed keys.
 * The refresh is asked for as an operator does, through each replica's KeyRefresh MBean, or by the replicas
 * themselves every N stable checkpoints ({@code bftws.keys.refreshEveryCheckpoints}).
 */
public class KeyRefreshGroupTest {
    private static final int N = LaunchedGroup.N;
    private static final long WAIT_MS = 300_000;

    private final TemporaryFolder tmp = new TemporaryFolder();
    private final LaunchedGroup group = new LaunchedGroup(tmp).withoutDealer().journaled("os");

    @Rule
    public final RuleChain rules = RuleChain.outerRule(tmp).around(group);

    @Rule
    public final Timeout timeout = Timeout.seconds(900);

    @Test
    public void anOperatorsRefreshRenewsEveryShareWhileClientsCallAndKeepsTheGroupKey() throws Exception {
        DemoClient client = generated();
        byte[] groupPub = Files.readAllBytes(group.dataDir(0).resolve(KeyFiles.GROUP_FILE));
        List<byte[]> sharesBefore = new ArrayList<>();
        for (int r = 0; r < N; r++) {
            sharesBefore.add(Files.readAllBytes(share(r)));
        }
        try (Calls calls = new Calls(client)) {
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            List<KeyRefreshMBean> operator = new ArrayList<>();
            for (int r = 0; r < N; r++) {
                Set<ObjectName> names = server.queryNames(new ObjectName("org.bftws:type=KeyRefresh,id=" + r + ",*"),
                        null);
                assertEquals("replica " + r + "'s KeyRefresh MBean", 1, names.size());
                KeyRefreshMBean mbean = JMX.newMBeanProxy(server, names.iterator().next(), KeyRefreshMBean.class);
                assertEquals(0, mbean.getEpoch());
                String answer = mbean.requestRefresh(0);
                assertTrue(answer, answer.contains("epoch 1"));
                operator.add(mbean);
            }
            awaitEpoch(1);
            // the same command arriving late asks for no second refresh
            String late = operator.get(3).requestRefresh(0);
            assertTrue(late, late.contains("no vote"));
            // calls that started after every replica installed the refreshed keys
            int after = calls.done();
            Conditions.await("calls served with the refreshed keys", WAIT_MS, () -> calls.done() >= after + 4);
            calls.check();
        }
        for (int r = 0; r < N; r++) {
            Path data = group.dataDir(r);
            assertArrayEquals("group.pub unchanged", groupPub, Files.readAllBytes(data.resolve(KeyFiles.GROUP_FILE)));
            assertFalse("replica " + r + "'s share changed", Arrays.equals(sharesBefore.get(r),
                    Files.readAllBytes(share(r))));
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(share(r))));
            assertEquals(1, KeyEpochFiles.read(data).epoch());
            GroupKeys certified = KeyFiles.readGroup(data.resolve(KeyFiles.GROUP_FILE));
            GroupKeys current = KeyEpochFiles.readGroup(data);
            assertTrue(KeyFiles.sameGroupKeys(certified, current));
            assertFalse("epoch 1's verification keys differ", Arrays.equals(
                    certified.threshold().verificationKeyEncoding(r + 1),
                    current.threshold().verificationKeyEncoding(r + 1)));
            KeyFiles.readReplica(share(r), current); // the new share checks against epoch 1's keys
            assertNull(group.manager(r).failure());
            KeyRefresh refresh = BftwsRuntime.refresh(group.replica(r).context());
            assertTrue(refresh.lastRefreshMillis() >= 0);
            System.out.printf("refresh: replica %d: %d ms, %d bytes ordered%n", r, refresh.lastRefreshMillis(),
                    refresh.lastRefreshBytes());
        }
        served(client);
        for (int r = 0; r < N; r++) {
            group.stop(r);
        }
        for (int r = 0; r < N; r++) {
            group.start(r, "replica" + r + "-restarted");
        }
        for (int r = 0; r < N; r++) {
            assertEquals(1, BftwsRuntime.refresh(group.replica(r).context()).getEpoch());
        }
        served(group.client("client-after-restart"));
    }

    @Test
    public void theReplicasRefreshEveryNStableCheckpoints() throws Exception {
        group.parameters(GroupLauncher.param(BftwsKeys.KEYS_REFRESH_EVERY_CHECKPOINTS, 2));
        DemoClient client = generated();
        try (Calls calls = new Calls(client)) {
            awaitEpoch(2);
            int after = calls.done();
            Conditions.await("calls served after two refreshes", WAIT_MS, () -> calls.done() >= after + 4);
            calls.check();
        }
        served(client);
    }

    /** Starts the group, waits for its certified keys, gives a client group.pub; that client. */
    private DemoClient generated() throws Exception {
        group.start();
        group.awaitCertified(WAIT_MS);
        Files.copy(group.dataDir(1).resolve(KeyFiles.GROUP_FILE),
                group.layout().keys().resolve(KeyFiles.GROUP_FILE));
        DemoClient client = group.client("client");
        served(client);
        return client;
    }

    private void awaitEpoch(long epoch) throws InterruptedException {
        Conditions.await("every replica refreshed its keys to epoch " + epoch, WAIT_MS, () -> {
            for (int r = 0; r < N; r++) {
                if (BftwsRuntime.refresh(group.replica(r).context()).getEpoch() < epoch) {
                    return false;
                }
            }
            return true;
        });
    }

    private Path share(int r) {
        return group.dataDir(r).resolve(KeyFiles.replicaFileName(r + 1));
    }

    /** The randomized and confidential operations, answered with the keys in use. */
    static void served(DemoClient client) throws Exception {
        DemoClient.RandomCall deal = client.deal();
        assertTrue(deal.voted() + " / " + deal.random(), deal.correct());
        DemoClient.RandomCall id = client.nextId();
        assertTrue(id.voted() + " / " + id.random(), id.correct());
        assertEquals(List.of("sealed-bid", "7"), client.echoConfidential(List.of("sealed-bid", "7")).voted());
    }

    /** A client thread calling randomized and confidential operations until closed; any failure is kept. */
    private static final class Calls implements AutoCloseable {
        private final AtomicBoolean stop = new AtomicBoolean();
        private final AtomicInteger done = new AtomicInteger();
        private final List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
        private final Thread thread;

        Calls(DemoClient client) {
            thread = new Thread(() -> {
                while (!stop.get()) {
                    try {
                        served(client);
                        done.incrementAndGet();
                    } catch (Throwable t) {
                        failures.add(t);
                        return;
                    }
                }
            }, "refresh-test-calls");
            thread.start();
        }

        int done() {
            check();
            return done.get();
        }

        void check() {
            if (!failures.isEmpty()) {
                throw new AssertionError("a call failed", failures.get(0));
            }
        }

        @Override
        public void close() throws InterruptedException {
            stop.set(true);
            thread.join(WAIT_MS);
            check();
        }
    }
}
