package org.bftws.client.group;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import org.bftws.core.config.GroupConfig;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TemporaryFolder;
import org.junit.rules.Timeout;

/**
 * Short-lived clients against a group on loopback HTTP, as scripts/bench-clients drives them ({@link
 * ShortLivedClients#serve}): many more clients than the client table's retention allows for, each a new sequence
 * with a fresh client UUID, two echo calls and its terminate, eight at a time. Every voted reply is the client's
 * own text, and every replica's client table (its {@code ClientTableEntries} MBean attribute, read as an operator
 * reads it) stays within what the pruning rule allows: the sequences that ordered within the retention, plus those
 * idle since the last pruning (docs/engine.md, "Bounding the client table"). The Multicast Sender holds one
 * destination per peer and per client listener, not per sequence. Both ordering modes.
 */
public class ShortLivedClientsGroupTest {
    private static final int N = LaunchedGroup.N;
    /** The smallest retention bftws.clientTableRetention takes (64), so a few hundred clients cross it. */
    private static final int RETENTION = 64;
    /** A table pruned every RETENTION / 16 ordered requests holds at most this many sequences. */
    private static final int BOUND = RETENTION + RETENTION / 16;
    private static final int CLIENTS = 3 * BOUND;
    private static final int CALLS = 2;
    private static final int PARALLEL = 8;

    private final TemporaryFolder tmp = new TemporaryFolder();
    private final LaunchedGroup group = new LaunchedGroup(tmp);

    @Rule
    public final RuleChain rules = RuleChain.outerRule(tmp).around(group);

    @Rule
    public final Timeout timeout = Timeout.seconds(420);

    @Test
    public void pbftKeepsEveryReplicasClientTableBoundedAcrossManyShortLivedClients() throws Exception {
        serveAndCheck("pbft");
    }

    @Test
    public void asyncKeepsEveryReplicasClientTableBoundedAcrossManyShortLivedClients() throws Exception {
        serveAndCheck("async");
    }

    private void serveAndCheck(String ordering) throws Exception {
        String mode = GroupLauncher.orderingParameters(ordering);
        group.parameters(mode + GroupLauncher.param(GroupConfig.CLIENT_TABLE_RETENTION, RETENTION))
                .clientParameters(mode).start();
        DemoClient client = group.client("client");
        int failed = ShortLivedClients.serve(client.context(), 1, CLIENTS, CALLS, PARALLEL);
        assertEquals(ordering + ": clients whose voted echo was not their own text", 0, failed);
        for (int r = 0; r < N; r++) {
            int entries = (Integer) ReplicaMBeans.attribute(r, "ClientTableEntries");
            assertTrue(ordering + ": replica " + r + "'s client table holds " + entries + " sequences after "
                    + CLIENTS + " clients, over the bound " + BOUND, entries <= BOUND);
            int destinations = (Integer) ReplicaMBeans.attribute(r, "SenderDestinations");
            assertTrue(ordering + ": replica " + r + "'s Multicast Sender holds " + destinations
                    + " destinations for " + (N - 1) + " peers and one client listener", destinations <= N);
        }
    }
}
