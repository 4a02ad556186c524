package org.bftws.module.transport;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;

import org.bftws.module.testing.Conditions;
import org.junit.Test;

/**
 * Destinations of a replica's Multicast Sender (one per client reply address) are dropped once idle and made
 * again when needed: after many short-lived clients the sender holds only the recent ones. The idle time is
 * zero here, so "idle" means "settled" (nothing waiting, in flight or due) and no clock is waited on.
 */
public class IdleDestinationsTest {
    private static final int CLIENTS = 200;
    private static final long WAIT_MS = MulticastSenderTest.WAIT_MS;

    @Test
    public void settledDestinationsAreDroppedAndMadeAgainWhenNeeded() throws Exception {
        MulticastSettings settings = MulticastSenderTest.settings(2, 1 << 20, 100);
        try (LoopbackControlServer server = LoopbackControlServer.accepting();
                MulticastSender sender = new MulticastSender("test-idle", 2, settings, 0)) {
            for (int c = 0; c < CLIENTS; c++) {
                sender.send(client(server, c), LoopbackControlServer.message(c));
                assertTrue("at most the destinations still busy: " + sender.destinations(),
                        sender.destinations() <= c + 1);
            }
            Conditions.await("every reply acknowledged", WAIT_MS, () -> sender.sent() == CLIENTS);
            sender.send(client(server, CLIENTS), LoopbackControlServer.message(CLIENTS));
            assertEquals("all settled destinations dropped", 1, sender.destinations());
            Conditions.await("the last one acknowledged", WAIT_MS, () -> sender.sent() == CLIENTS + 1);
            sender.send(client(server, 0), LoopbackControlServer.message(0)); // an old client calls again
            Conditions.await("a dropped destination is made again", WAIT_MS, () -> sender.sent() == CLIENTS + 2);
            // Every message reached the server, client 0's twice; a loaded machine may add retransmissions (a POST
            // answered after the 100-ms retransmission timeout), so the posts are counted by message, not in all.
            List<Long> got = new ArrayList<>(server.accepted);
            assertEquals("every client's message accepted", CLIENTS + 1, new HashSet<>(got).size());
            assertTrue("the old client's second message accepted too",
                    got.stream().filter(m -> m == 0L).count() >= 2);
        }
    }

    @Test
    public void aDestinationMarkedDownIsDroppedWithItsKeptMessage() throws Exception {
        MulticastSettings settings = new MulticastSettings(1, 1, 1, 1 << 20, 100, Duration.ofSeconds(5));
        URI gone;
        try (ServerSocket s = new ServerSocket(0)) {
            gone = URI.create("http://127.0.0.1:" + s.getLocalPort() + "/control"); // closed below: refuses
        }
        try (LoopbackControlServer server = LoopbackControlServer.accepting();
                MulticastSender sender = new MulticastSender("test-idle-down", 2, settings, 0)) {
            sender.send(gone, LoopbackControlServer.message(1));
            Conditions.await("the gone client is marked down", WAIT_MS, () -> sender.isDown(gone));
            sender.send(gone, LoopbackControlServer.message(2)); // kept while down
            long givenUp = sender.givenUp();
            // Its last lane ends just after it is marked down; then the next sweep drops it.
            Conditions.await("the gone client's destination dropped", WAIT_MS, () -> {
                sender.retireIdleDestinations();
                return !sender.holds(gone);
            });
            assertTrue("its kept message given up", sender.givenUp() >= givenUp + 1);
            sender.send(server.uri(), LoopbackControlServer.message(3));
            assertEquals(1, sender.destinations());
        }
    }

    private static URI client(LoopbackControlServer server, int c) {
        return URI.create(server.uri() + "?client=" + c);
    }
}
