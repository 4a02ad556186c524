package org.bftws.client.group;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.List;

import org.bftws.core.config.GroupConfig;
import org.bftws.core.crypto.threshold.ThresholdScheme;
import org.bftws.core.keys.GroupKeys;
import org.bftws.core.keys.KeyEpochFiles;
import org.bftws.core.keys.KeyFileException;
import org.bftws.core.keys.KeyFiles;
import org.bftws.core.keys.ReplicaKeys;
import org.bftws.module.BftwsRuntime;
import org.bftws.module.order.KeyRefresh;
import org.bftws.module.testing.Conditions;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TemporaryFolder;
import org.junit.rules.Timeout;

/**
 * A replica down during a proactive refresh recovers its share over loopback HTTP: four replicas without a dealer
 * generate their keys; replica 3 stops; the other three refresh to epoch 1 (Herzberg-Jarecki-Krawczyk-Yung 1995,
 * §3) and go on ordering plain calls past several checkpoints, so that replica 3, restarted from its journal,
 * catches up by state transfer. The checkpoint it installs carries the group's epoch and verification keys; its share being of
 * epoch 0, it asks, and the replicas redistribute the keys to the same members (Desmedt-Jajodia 1997) to epoch 2:
 * replica 3's share file changes (0600), its share checks against epoch 2's verification keys and combines with
 * another's to the group's coin, every replica's KeyRefresh MBean reports epoch 2, and with another replica
 * stopped, the ordering needing replica 3, randomized and confidential calls still succeed. When a peer still
 * holds the refresh's batches as replica 3 returns, it executes them and runs the refresh itself instead (no ask,
 * every replica at epoch 1); its share then changes, checks and combines alike, and the same calls succeed.
 */
public class KeyRecoveryGroupTest {
    private static final int N = LaunchedGroup.N;
    private static final long WAIT_MS = 300_000;
    private static final int DOWN = 3;
    private static final int CHECKPOINT_INTERVAL = GroupConfig.CHECKPOINT_INTERVAL.defaultValue();

    private final TemporaryFolder tmp = new TemporaryFolder();
    /**
     * The default checkpoint interval and log window: smaller ones would let a replica slowed by a loaded machine
     * fall behind the key generation by state transfer, which leaves it without keys (not built).
     */
    private final LaunchedGroup group = new LaunchedGroup(tmp).withoutDealer().journaled("os");

    @Rule
    public final RuleChain rules = RuleChain.outerRule(tmp).around(group);

    @Rule
    public final Timeout timeout = Timeout.seconds(900);

    @Test
    public void aReplicaDownDuringARefreshAsksForItsShareWhenItReturnsAndServesWithIt() throws Exception {
        group.start();
        group.awaitCertified(WAIT_MS);
        Files.copy(group.dataDir(1).resolve(KeyFiles.GROUP_FILE), group.layout().keys().resolve(KeyFiles.GROUP_FILE));
        DemoClient client = group.client("client");
        served(client);
        byte[] before = Files.readAllBytes(share(DOWN));

        group.stop(DOWN);
        for (int r = 0; r < N; r++) {
            if (r != DOWN) {
                String answer = refresh(r).requestRefresh(0);
                assertTrue(answer, answer.contains("epoch 1"));
            }
        }
        Conditions.await("the three running replicas refreshed to epoch 1", WAIT_MS,
                () -> refresh(0).getEpoch() >= 1 && refresh(1).getEpoch() >= 1 && refresh(2).getEpoch() >= 1);
        long stableAfterRefresh = group.manager(0).stableCheckpoint();
        // ordered past three more checkpoints: the others forgot the batches replica 3 missed, which therefore
        // comes back by state transfer. Plain calls: until its share is recovered its engine holds epoch 0's keys,
        // so a randomized or confidential request ordered after the checkpoint it installs would stall it (not
        // built: checking the others' coin and decryption shares without a share of its own)
        while (group.manager(0).stableCheckpoint() < stableAfterRefresh + 3 * CHECKPOINT_INTERVAL) {
            assertEquals(List.of("catching", "up"), client.echo(List.of("catching", "up")).voted());
        }

        long restarted = System.nanoTime();
        group.start(DOWN, "replica" + DOWN + "-restarted");
        // Replica 3 comes back by state transfer past the refresh, asks, and the redistribution brings every replica
        // to epoch 2; or, when a peer still held the refresh's batches (a correct replica may catch up by executing
        // them), it runs the refresh itself and all stay at epoch 1: both give it a share of the group's epoch.
        Conditions.await("every replica at one epoch, replica " + DOWN + " with a share of it", WAIT_MS, () -> {
            long epoch = refresh(0).getEpoch();
            for (int r = 0; r < N; r++) {
                if (refresh(r).getEpoch() != epoch || fileEpoch(r) != epoch) {
                    return false;
                }
            }
            return epoch >= 1;
        });
        long toRecover = (System.nanoTime() - restarted) / 1_000_000;
        long epoch = refresh(0).getEpoch();
        for (int r = 0; r < N; r++) {
            assertEquals("replica " + r + "'s epoch", epoch, refresh(r).getEpoch());
            assertNull(group.manager(r).failure());
        }
        if (epoch == 2) {
            assertTrue("replica " + DOWN + " caught up by state transfer", group.manager(DOWN).statesTransferred() > 0);
            System.out.printf("share recovery: replica %d at epoch 2 %d ms after its restart; %d ms from its ask to"
                    + " its share installed; the redistribution: %d ms, %d bytes ordered (at replica 0)%n", DOWN,
                    toRecover, refresh(DOWN).lastRecoveryMillis(), refresh(0).lastRefreshMillis(),
                    refresh(0).lastRefreshBytes());
            assertTrue(refresh(DOWN).lastRecoveryMillis() >= 0);
        } else {
            assertEquals("replica " + DOWN + " ran the refresh itself: epoch 1", 1, epoch);
        }
        Path data = group.dataDir(DOWN);
        assertFalse("replica " + DOWN + "'s share file changed", Arrays.equals(before, Files.readAllBytes(share(DOWN))));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(share(DOWN))));
        GroupKeys current = KeyEpochFiles.readGroup(data);
        assertEquals(KeyFiles.groupText(KeyEpochFiles.readGroup(group.dataDir(0))), KeyFiles.groupText(current));
        assertCombines(current);

        served(client);
        group.stop(1); // replicas 0, 2 and 3 left: the ordering needs replica 3
        served(client);
        served(group.client("client-after-recovery"));
        // it executes them too, randomized and confidential ones included, above the checkpoint it installed: its
        // engine releases shares there once the Total Order Manager confirms that state installed
        long executed = group.manager(0).lastExecuted();
        Conditions.await("replica " + DOWN + " executed up to seq " + executed, WAIT_MS,
                () -> group.manager(DOWN).lastExecuted() >= executed);
    }

    /** The epoch replica {@code r}'s {@code keys.epoch} records; -1 while it is being written. */
    private long fileEpoch(int r) {
        try {
            return KeyEpochFiles.read(group.dataDir(r)).epoch();
        } catch (KeyFileException e) {
            return -1;
        }
    }

    /** Replica 3's recovered coin share and replica 2's give the coin that replicas 0's and 1's give. */
    private void assertCombines(GroupKeys keys) throws Exception {
        ThresholdScheme ts = keys.thresholdScheme();
        byte[] msg = "recovered".getBytes(StandardCharsets.US_ASCII);
        List<ReplicaKeys> k = new java.util.ArrayList<>();
        for (int r = 0; r < N; r++) {
            k.add(KeyFiles.readReplica(share(r), keys));
        }
        byte[] others = ts.combine(keys.threshold(), msg, List.of(ts.share(keys.threshold(), k.get(0).share(), msg),
                ts.share(keys.threshold(), k.get(1).share(), msg))).unique();
        byte[] withRecovered = ts.combine(keys.threshold(), msg, List.of(
                ts.share(keys.threshold(), k.get(DOWN).share(), msg), ts.share(keys.threshold(), k.get(2).share(), msg)))
                .unique();
        assertArrayEquals("the recovered share combines with another to the group's coin", others, withRecovered);
    }

    private static void served(DemoClient client) throws Exception {
        KeyRefreshGroupTest.served(client);
    }

    private KeyRefresh refresh(int r) {
        return BftwsRuntime.refresh(group.replica(r).context());
    }

    private Path share(int r) {
        return group.dataDir(r).resolve(KeyFiles.replicaFileName(r + 1));
    }
}
