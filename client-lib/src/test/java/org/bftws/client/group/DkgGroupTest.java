package org.bftws.client.group;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.bftws.core.keys.GroupCertificate;
import org.bftws.core.keys.GroupKeys;
import org.bftws.core.keys.GroupMembers;
import org.bftws.core.keys.KeyFiles;
import org.bftws.core.keys.MemberFiles;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TemporaryFolder;
import org.junit.rules.Timeout;

/**
 * A group without a trusted dealer over loopback HTTP: four replicas with their own keys only
 * ({@code keygen --replica}, members.pub) and {@code bftws.keys.mode=dkg} run the distributed key generation over
 * their PBFT ordering at first start; every one writes the same group.pub with a certificate of 2f+1
 * signatures that checks against the replicas' public keys. Right after the key generation, with no restart,
 * a client with that group.pub gets the demo's randomized dealer and id generator and the confidential echo
 * served with the generated keys (they serve every request ordered after the key generation's last
 * operation); replicas restarted afterwards load the keys from their data directories and serve them too.
 */
public class DkgGroupTest {
    private static final int N = LaunchedGroup.N;
    private static final long WAIT_MS = 240_000;

    private final TemporaryFolder tmp = new TemporaryFolder();
    private final LaunchedGroup group = new LaunchedGroup(tmp).withoutDealer().journaled("os");

    @Rule
    public final RuleChain rules = RuleChain.outerRule(tmp).around(group);

    @Rule
    public final Timeout timeout = Timeout.seconds(600);

    @Test
    public void theGroupGeneratesItsKeysAndServesRandomizedAndConfidentialCallsWithThem() throws Exception {
        group.start();
        group.awaitCertified(WAIT_MS);
        Path keys = group.layout().keys();
        GroupMembers members = MemberFiles.readMembers(keys.resolve(MemberFiles.MEMBERS_FILE));
        Set<String> texts = new HashSet<>();
        for (int r = 0; r < N; r++) {
            Path pub = group.dataDir(r).resolve(KeyFiles.GROUP_FILE);
            texts.add(Files.readString(pub));
            GroupKeys checked = GroupCertificate.verify(pub, group.dataDir(r).resolve(GroupCertificate.FILE),
                    members.replicaKeys(), members.f());
            assertEquals(members.scheme(), checked.scheme());
            assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(
                    group.dataDir(r).resolve(KeyFiles.replicaFileName(r + 1)))));
            assertNull(group.manager(r).failure());
        }
        assertEquals("every replica wrote the same group.pub", 1, texts.size());
        // a client takes group.pub from any one replica once its certificate checks
        Files.copy(group.dataDir(2).resolve(KeyFiles.GROUP_FILE), keys.resolve(KeyFiles.GROUP_FILE));
        DemoClient now = group.client("client-no-restart");
        assertEquals(List.of("plain"), now.echo(List.of("plain")).voted());
        served(now);
        for (int r = 0; r < N; r++) {
            group.stop(r);
        }
        for (int r = 0; r < N; r++) {
            group.start(r, "replica" + r + "-restarted");
        }
        served(group.client("client-after-restart"));
    }

    /** The randomized and confidential operations, answered with the generated keys' coins and decryptions. */
    private static void served(DemoClient client) throws Exception {
        for (int i = 0; i < 2; i++) {
            DemoClient.RandomCall deal = client.deal();
            assertTrue(deal.voted() + " / " + deal.random(), deal.correct());
            DemoClient.RandomCall id = client.nextId();
            assertTrue(id.voted() + " / " + id.random(), id.correct());
        }
        assertEquals(List.of("sealed-bid", "7"), client.echoConfidential(List.of("sealed-bid", "7")).voted());
        assertEquals(List.of("plain"), client.echo(List.of("plain")).voted());
    }
}
