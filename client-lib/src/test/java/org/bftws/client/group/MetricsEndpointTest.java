package org.bftws.client.group;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.bftws.module.testing.Conditions;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TemporaryFolder;
import org.junit.rules.Timeout;

/**
 * Every replica of a {@link LaunchedGroup} (journaled, CT randomness) serves {@code GET /metrics} on its HTTP
 * port in Prometheus's text format, and the values follow the calls a client makes: requests ordered and
 * executed, coin shares for randomized calls, journal writes, phase latencies.
 */
public class MetricsEndpointTest {
    private static final int N = LaunchedGroup.N;
    private static final long WAIT_MS = 60_000;

    private final TemporaryFolder tmp = new TemporaryFolder();
    private final LaunchedGroup group = new LaunchedGroup(tmp);

    @Rule
    public final RuleChain rules = RuleChain.outerRule(tmp).around(group);

    @Rule
    public final Timeout timeout = Timeout.seconds(180);

    @Test
    public void metricsFollowTheCallsOnEveryReplica() throws Exception {
        group.randomness("ct").journaled("os").start();
        int[] ports = group.ports();
        for (int r = 0; r < N; r++) {
            MetricsScrape idle = MetricsScrape.of(MetricsScrape.url(ports[r]));
            assertEquals(0, idle.value("bftws_requests_ordered_total"), 0);
            assertEquals(0, idle.value("bftws_view"), 0);
            assertEquals(N, idle.value("bftws_replicas"), 0);
            assertEquals(0, idle.value("bftws_ordering_stopped"), 0);
        }
        PrintStream out = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        DemoClient client = group.client("client");
        for (DemoClient.Call c : client.run("metrics", 3, 1, out)) {
            assertTrue(c.sent() + " vs " + c.voted(), c.correct());
        }
        DemoClient.RandomCall deal = client.deal();
        assertTrue(deal.voted() + " / " + deal.random(), deal.correct());
        long executed = group.manager(0).lastExecuted();
        MetricsScrape primary = awaitExecuted(ports[0], executed);
        double ordered = primary.value("bftws_requests_ordered_total");
        assertTrue("3 echo calls and 1 deal: " + ordered, ordered >= 4);
        // f+1 replicas executed each voted request; any one of them may have caught up by state transfer instead
        awaitExecutedRequests(ports, 4);
        assertTrue(primary.value("bftws_batches_committed_total") >= 1);
        // replica 0 may execute a later batch between the reading of `executed` and the scrape (the voted replies
        // came from f+1 replicas, not necessarily from it): the scrape lies between the two readings
        double lastExecuted = primary.value("bftws_last_executed_sequence");
        assertTrue(executed + " <= " + lastExecuted, lastExecuted >= executed);
        assertTrue(lastExecuted + " <= now", lastExecuted <= group.manager(0).lastExecuted());
        assertTrue("the randomized call tossed the coin", primary.value("bftws_coin_shares_made_total") >= 1);
        assertEquals("BA's agreed sets, not CT's", 0, primary.value("bftws_randomness_agreed_batches_total"), 0);
        assertTrue("journaled", primary.value("bftws_journal_writes_total") >= 1);
        assertTrue(primary.value("bftws_signatures_total{kind=\"PRE_PREPARE\"}") >= 1);
        for (String phase : new String[] {"queue", "step", "agreement", "execution"}) {
            assertTrue(phase, primary.value("bftws_phase_duration_seconds_count{phase=\"" + phase + "\"}") >= 1);
            assertEquals(phase, primary.value("bftws_phase_duration_seconds_count{phase=\"" + phase + "\"}"),
                    primary.value("bftws_phase_duration_seconds_bucket{phase=\"" + phase + "\",le=\"+Inf\"}"), 0);
        }
        for (int r = 1; r < N; r++) {
            // a backup may have caught up by state transfer rather than ordering each batch itself
            MetricsScrape backup = awaitExecuted(ports[r], executed);
            assertTrue(backup.value("bftws_requests_ordered_total") + backup.value("bftws_state_transfers_total") > 0);
        }

        for (DemoClient.Call c : client.run("more", 5, 1, out)) {
            assertTrue(c.sent() + " vs " + c.voted(), c.correct());
        }
        MetricsScrape after = awaitExecuted(ports[0], group.manager(0).lastExecuted());
        assertTrue("5 more requests ordered", after.value("bftws_requests_ordered_total") >= ordered + 5);
        awaitExecutedRequests(ports, 9);
    }

    /** Scrapes every replica until f+1 of them show at least {@code requests} ordered requests executed. */
    private static void awaitExecutedRequests(int[] ports, int requests) throws Exception {
        Conditions.await("f+1 replicas executed " + requests + " requests", WAIT_MS, () -> {
            int replicas = 0;
            for (int port : ports) {
                try {
                    replicas += MetricsScrape.of(MetricsScrape.url(port)).value("bftws_requests_executed_total")
                            >= requests ? 1 : 0;
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            }
            return replicas >= (ports.length - 1) / 3 + 1;
        });
    }

    /** Scrapes replica {@code port} until it shows {@code seq} executed. */
    private static MetricsScrape awaitExecuted(int port, long seq) throws Exception {
        MetricsScrape[] last = new MetricsScrape[1];
        Conditions.await("replica at " + port + " shows seq " + seq + " executed", WAIT_MS, () -> {
            try {
                last[0] = MetricsScrape.of(MetricsScrape.url(port));
            } catch (Exception e) {
                throw new AssertionError(e);
            }
            return last[0].value("bftws_last_executed_sequence") >= seq;
        });
        return last[0];
    }
}
