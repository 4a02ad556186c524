package org.bftws.client.group;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import javax.management.MBeanServer;

import org.bftws.core.crypto.Ed25519;
import org.bftws.core.message.Kind;
import org.bftws.core.message.Signed;
import org.bftws.core.message.Vote;
import org.bftws.module.config.BftwsKeys;
import org.bftws.module.testing.Conditions;
import org.bftws.module.transport.ControlMessage;
import org.bftws.module.transport.ControlPort;
import org.bftws.module.transport.MulticastSender;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TemporaryFolder;
import org.junit.rules.Timeout;

/**
 * Each replica's {@code org.bftws:type=Replica} MBean (docs/operating.md), read as an operator reads it: through
 * the platform MBeanServer of the JVM the four replicas of a {@link LaunchedGroup} run in. Its attributes follow
 * the voted calls, count evidence against the peer that forged a message and name it as the log does, show a
 * stopped peer as down, and {@link GroupStatus} turns them into the rows scripts/group-status prints.
 */
public class ReplicaStatusTest {
    private static final int N = LaunchedGroup.N;
    private static final long WAIT_MS = 60_000;
    private static final MBeanServer SERVER = ManagementFactory.getPlatformMBeanServer();

    private final TemporaryFolder tmp = new TemporaryFolder();
    private final LaunchedGroup group = new LaunchedGroup(tmp);

    @Rule
    public final RuleChain rules = RuleChain.outerRule(tmp).around(group);

    @Rule
    public final Timeout timeout = Timeout.seconds(180);

    @Test
    public void theMBeansFollowCallsCountForgedMessagesAndShowAStoppedPeerDown() throws Exception {
        // status lines every second: the key is accepted
        group.randomness("none").parameters(GroupLauncher.param(BftwsKeys.STATUS_LOG_SECONDS, 1)).start();
        for (int r = 0; r < N; r++) {
            assertEquals(r, ReplicaMBeans.attribute(r, "ReplicaId"));
            assertEquals(N, ReplicaMBeans.attribute(r, "Replicas"));
            assertEquals(0L, ReplicaMBeans.attribute(r, "View"));
            assertEquals(0, ReplicaMBeans.attribute(r, "Primary"));
            assertEquals(true, ReplicaMBeans.attribute(r, "Active"));
            assertEquals(GroupLauncher.GROUP_ENDPOINT, ReplicaMBeans.attribute(r, "GroupEndpoint"));
            assertTrue((String) ReplicaMBeans.attribute(r, "OrderingMode"), ((String) ReplicaMBeans.attribute(r, "OrderingMode"))
                    .contains("client requests via WS-RM"));
        }

        PrintStream out = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        DemoClient client = group.client("client");
        for (DemoClient.Call c : client.run("status", 3, 1, out)) {
            assertTrue(c.sent() + " vs " + c.voted(), c.correct());
        }
        long executed = group.manager(0).lastExecuted();
        assertTrue("the primary executed the calls", executed > 0);
        for (int r = 0; r < N; r++) {
            int replica = r;
            Conditions.await("replica " + r + "'s MBean shows seq " + executed + " executed", WAIT_MS,
                    () -> (Long) ReplicaMBeans.attribute(replica, "LastExecuted") >= executed);
            assertEquals(0L, ReplicaMBeans.attribute(r, "EvidenceTotal"));
            assertArrayEquals(new int[0], (int[]) ReplicaMBeans.attribute(r, "PeersDown"));
        }

        forgedPrepare(0, 1);
        Conditions.await("replica 0 counts the forged prepare as evidence", WAIT_MS,
                () -> (Long) ReplicaMBeans.attribute(0, "EvidenceTotal") == 1L);
        assertEquals(Map.of(1, 1L), ReplicaMBeans.attribute(0, "EvidenceByNode"));
        assertEquals(Map.of("bad signature on PREPARE", 1L), ReplicaMBeans.attribute(0, "EvidenceByKind"));
        assertEquals("as logged, naming the forger", "evidence against replica 1 (" + controlUri(1)
                + "): bad signature on PREPARE", ReplicaMBeans.attribute(0, "LastEvidence"));
        String status = (String) ReplicaMBeans.attribute(0, "StatusLine");
        assertTrue(status, status.startsWith("replica 0: view 0 (primary 0, active), executed "));
        assertTrue(status, status.endsWith(", pending 0, evidence 1 {1=1}, peers down []"));

        List<GroupStatus.Row> rows = rows();
        String table = GroupStatus.table(rows);
        assertEquals(table, String.join("  ", GroupStatus.HEADER), table.lines().findFirst().orElseThrow()
                .replaceAll(" +", "  "));
        assertEquals(table, N + 1, table.lines().count());
        for (GroupStatus.Row row : rows) {
            assertEquals("active", row.state());
            assertEquals(0L, (long) row.view());
            assertTrue(row.executed() >= executed);
            assertEquals(row.id() == 0 ? 1L : 0L, (long) row.evidence());
        }

        group.stop(N - 1);
        assertFalse("a stopped replica's MBean is unregistered", SERVER.isRegistered(ReplicaMBeans.name(N - 1)));
        assertEquals("unreachable", GroupStatus.read(SERVER, N - 1, "x").state());
        for (DemoClient.Call c : client.run("three", 2, 1, out)) {
            assertTrue(c.sent() + " vs " + c.voted(), c.correct());
        }
        Conditions.await("replica 0's Multicast Sender marks replica 3 down", WAIT_MS,
                () -> ((int[]) ReplicaMBeans.attribute(0, "PeersDown")).length == 1);
        assertArrayEquals(new int[] {N - 1}, (int[]) ReplicaMBeans.attribute(0, "PeersDown"));
        assertTrue(GroupStatus.table(rows()), GroupStatus.table(rows()).lines().skip(1).findFirst().orElseThrow()
                .endsWith("[3]"));
    }

    /** A PREPARE that claims {@code claimed} as its sender, signed with some other key, posted to replica {@code to}. */
    private void forgedPrepare(int to, int claimed) throws Exception {
        byte[] vote = new Vote(0, 1, new byte[32]).encode();
        byte[] forged = Signed.sign(Kind.PREPARE, claimed, vote, Ed25519.signer(Ed25519.generate(new SecureRandom())))
                .encode();
        try (MulticastSender sender = new MulticastSender("forger", 1, 4, Duration.ofSeconds(5))) {
            sender.send(controlUri(to), new ControlMessage(forged, null));
            Conditions.await("the forged prepare is delivered", WAIT_MS, () -> sender.sent() == 1);
        }
    }

    private URI controlUri(int r) throws Exception {
        return ControlPort.controlUri(URI.create(GroupLauncher.serviceUrl(group.ports()[r], "Echo")));
    }

    private List<GroupStatus.Row> rows() throws Exception {
        List<GroupStatus.Row> rows = new ArrayList<>();
        for (int r = 0; r < N; r++) {
            if (group.replicas()[r] != null) {
                rows.add(GroupStatus.read(SERVER, r, GroupLauncher.serviceUrl(group.ports()[r], "Echo")));
            }
        }
        return rows;
    }

}
