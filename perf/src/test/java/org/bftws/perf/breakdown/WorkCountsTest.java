package org.bftws.perf.breakdown;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.util.function.BooleanSupplier;

import org.bftws.core.message.Kind;
import org.bftws.module.metrics.PhaseTrace;
import org.bftws.perf.echo.BftwsMode;
import org.bftws.perf.echo.EchoMode;
import org.bftws.perf.echo.EchoPayload;
import org.bftws.perf.echo.EchoSetup;
import org.bftws.perf.echo.ReplicaGroup;
import org.bftws.perf.echo.ServiceClientCaller;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * The breakdown's counters count what happens: four replicas and a client on loopback HTTP (the perf suite's
 * {@link ReplicaGroup}), one client calling one request at a time, so every batch holds one request. Each
 * message is then verified exactly once where it is received (the all-to-all count of {@link WorkRows} for a
 * batch of 1): a client request once per replica although it arrives twice at a backup (from the client and
 * inside the pre-prepare), and the first request of a client too, whose reply address the replicas learn.
 * The group runs with {@code bftws.authentication=signatures}, whose counts these are; with macs commits and
 * most prepares are never verified ({@code core}'s MacAuthenticationTest, {@code scripts/bench-engine}).
 */
public class WorkCountsTest {
    @ClassRule
    public static final TemporaryFolder TMP = new TemporaryFolder();
    private static final int N = 4;
    private static final int F = 1;
    private static final EchoPayload PAYLOAD = EchoPayload.bytes(1024);

    private static ReplicaGroup group;
    private static final GroupCounts.Batches BATCHES = new GroupCounts.Batches();

    @BeforeClass
    public static void startGroup() throws Exception {
        group = ReplicaGroup.start(EchoSetup.fromSystemProperties().withAuthentication("signatures"), TMP.getRoot().toPath(), N,
                EchoSetup.fromSystemProperties().echoAar(), "Echo", BftwsMode.GROUP, "");
        group.manager(0).addEventListener(BATCHES);
    }

    @AfterClass
    public static void stopGroup() throws Exception {
        PhaseTrace.stop();
        PhaseTrace.clear();
        if (group != null) {
            group.close();
        }
    }

    @Test
    public void everyMessageOfABatchOfOneIsVerifiedOnceWhereItArrives() throws Exception {
        int calls = 8;
        GroupCounts before = GroupCounts.of(group, BATCHES);
        long repliesBefore = repliesRouted();
        try (EchoMode.Caller caller = ServiceClientCaller.ofGroup(group.clientContext(), BftwsMode.GROUP)) {
            for (int i = 0; i < calls; i++) {
                assertEquals(1, caller.echo(PAYLOAD));
            }
        }
        // late messages (the last commits, the replies after the vote, a reply resent to a retransmission) are
        // still on their way: the counts are read together once every reply signed has been routed, the routed
        // count unchanged across the snapshot, and the replicas' POSTs have gone out
        GroupCounts[] settled = new GroupCounts[1];
        long[] routed = new long[1];
        await("every replica's commits of the calls were checked and every reply signed was routed", () -> {
            long first = repliesRouted() - repliesBefore;
            GroupCounts d = GroupCounts.of(group, BATCHES).minus(before);
            routed[0] = repliesRouted() - repliesBefore;
            settled[0] = d;
            return routed[0] == first && first >= (long) N * calls && d.replicaVerified(Kind.COMMIT) >= 12L * calls
                    && d.replicaSigned(Kind.REPLY) == first
                    && d.replicaPosts() >= Math.round(WorkRows.replicaPosts(N, 1)) * calls; // POSTs counted once sent
        });
        GroupCounts d = settled[0];
        assertEquals("one request per batch", calls, d.batches());
        assertEquals(1.0, d.meanBatch(), 0);
        for (Kind k : new Kind[] {Kind.REQUEST, Kind.PRE_PREPARE, Kind.PREPARE, Kind.COMMIT}) {
            assertEquals(k + " verified at the replicas, each once where it arrives",
                    Math.round(WorkRows.allToAll(k, N, 1) * calls), d.replicaVerified(k));
            assertTrue(k + " at least the protocol's minimum", d.replicaVerified(k) >= WorkRows.minimumVerify(k, N, 1, 1, false)
                    * calls);
        }
        assertEquals("requests: one check per replica (4), not one more inside the pre-prepare", N * calls,
                d.replicaVerified(Kind.REQUEST));
        // A retransmitted request that a replica has executed is answered from its reply cache with a new
        // one-entry certificate (the first call's may be, while a replica's Sandesha2 lacks the new sequence).
        long replies = routed[0];
        assertTrue("a reply from every replica per call", replies >= (long) N * calls);
        // The client checks a reply only while its call awaits the vote: f+1 matching ones per call, plus
        // at most the replies resent; the N-f-1 that arrive after the vote are not checked at all.
        assertTrue("the client checks the f+1 replies its vote needs: " + d.clientVerified(Kind.REPLY),
                d.clientVerified(Kind.REPLY) >= (long) (F + 1) * calls);
        assertTrue("the client leaves replies after the vote unchecked: " + d.clientVerified(Kind.REPLY) + " of "
                + replies, d.clientVerified(Kind.REPLY) <= replies - (long) (N - F - 1) * calls);
        assertEquals("the client signs each request once", calls, d.clientSigned(Kind.REQUEST));
        assertEquals(calls, d.replicaSigned(Kind.PRE_PREPARE));
        assertEquals((N - 1) * calls, d.replicaSigned(Kind.PREPARE));
        assertEquals(N * calls, d.replicaSigned(Kind.COMMIT));
        assertEquals("one reply certificate per replica and batch, one per reply resent", replies,
                d.replicaSigned(Kind.REPLY));
        assertTrue("the ordering threads re-asked about what the HTTP workers verified", d.preVerifiedHits() > 0);
        assertTrue("a request to every replica (more only if retransmitted)", d.clientPosts() >= (long) N * calls);
        assertTrue("pre-prepare, prepares, commits and replies", d.replicaPosts()
                >= Math.round(WorkRows.replicaPosts(N, 1)) * calls);
        assertTrue("the envelopes carry at least the 1 KB payload", d.clientBytes() >= 1024L * N * calls);
    }

    @Test
    public void theTracedPartsOfEveryCallAddUpToNoMoreThanItsLatency() throws Exception {
        int calls = 5;
        long slowest = 0;
        try (EchoMode.Caller caller = ServiceClientCaller.ofGroup(group.clientContext(), BftwsMode.GROUP)) {
            caller.echo(PAYLOAD); // the sequence is created before tracing
            PhaseTrace.start();
            for (int i = 0; i < calls; i++) {
                long t0 = System.nanoTime();
                caller.echo(PAYLOAD);
                slowest = Math.max(slowest, System.nanoTime() - t0);
            }
        } finally {
            PhaseTrace.stop();
        }
        Phases phases = new Phases(N);
        assertEquals("every call traced from invoke to vote", calls, phases.addAll());
        double total = 0;
        for (String phase : Phases.PARTS.keySet()) {
            for (int i = 0; i < Phases.PARTS.get(phase).size(); i++) {
                assertTrue(phase + " part " + i + " not negative", phases.meanMs(phase, i) >= 0);
            }
            total += phases.meanMs(phase);
        }
        assertTrue("some time measured", total > 0);
        assertTrue("the parts of the mean call fit in the slowest call", total <= slowest / 1e6);
        assertTrue("ordering took time on the critical path", phases.meanMs("commit") > 0);
        PhaseTrace.clear();
    }

    /** Replies the replicas' ordering threads handed to the sender for the client (node n), resent ones included. */
    private static long repliesRouted() {
        long sum = 0;
        for (int r = 0; r < N; r++) {
            sum += group.manager(r).repliesSent(N);
        }
        return sum;
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail("timed out waiting until " + what);
            }
            Thread.sleep(5); // polling interval of the condition, not a guess at how long something takes
        }
    }
}
