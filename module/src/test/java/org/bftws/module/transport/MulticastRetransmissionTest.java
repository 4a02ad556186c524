package org.bftws.module.transport;

import static org.bftws.module.transport.LoopbackControlServer.message;
import static org.bftws.module.transport.MulticastSenderTest.assertArrived;
import static org.bftws.module.transport.MulticastSenderTest.WAIT_MS;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

import org.bftws.module.testing.Conditions;
import org.junit.After;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.Timeout;

/**
 * Acknowledgement and retransmission (BFT-WS paper §3.3.1.2: a message is "kept in the buffer until the
 * acknowledgement from all destinations have been collected, or a predefined retransmission limit has been
 * exceeded"), against real loopback HTTP servers: a destination that fails the first POSTs gets the message
 * after retransmissions, one that stays down past the limit is given up (and only probed) while the others are
 * unaffected, and a SOAP fault counts as received.
 */
public class MulticastRetransmissionTest {
    @Rule
    public final Timeout timeout = Timeout.seconds(60);

    private static final int RETRANSMISSIONS = 3;
    private static final int RETRANSMIT_MILLIS = 20;

    private final List<LoopbackControlServer> servers = new ArrayList<>();

    @After
    public void stop() {
        servers.forEach(LoopbackControlServer::close);
    }

    private static MulticastSettings settings(int window) {
        return new MulticastSettings(window, RETRANSMISSIONS, RETRANSMIT_MILLIS, 1 << 20, 100, Duration.ofSeconds(10));
    }

    @Test
    public void aDestinationFailingTheFirstPostsGetsEveryMessageInOrderAfterRetransmissions() throws Exception {
        int k = RETRANSMISSIONS; // the most failures one message survives
        LoopbackControlServer flaky = server(new LoopbackControlServer(n -> n < k ? 503 : 202));
        try (MulticastSender sender = new MulticastSender("test-retransmit", 1, settings(1))) {
            for (long i = 0; i < 5; i++) {
                sender.send(flaky.uri(), message(i));
            }
            for (long i = 0; i < 5; i++) {
                assertArrived(flaky, i); // a window of 1 keeps FIFO order through retransmissions
            }
            Conditions.await("all acknowledged", WAIT_MS, () -> sender.sent() == 5);
            assertEquals(k, sender.failed());
            assertEquals(k + 5, flaky.posts.get());
            assertEquals(0, sender.givenUp());
            assertFalse(sender.isDown(flaky.uri()));
        }
    }

    @Test
    public void aDestinationDownPastTheLimitIsGivenUpAndOnlyProbedWhileTheOthersGetEverything() throws Exception {
        LoopbackControlServer live = server(LoopbackControlServer.accepting());
        URI dead = closedPort();
        try (MulticastSender sender = new MulticastSender("test-down", 2, settings(4))) {
            for (long i = 0; i < 20; i++) {
                sender.send(List.of(dead, live.uri()), message(i));
            }
            Set<Long> got = new HashSet<>();
            for (int i = 0; i < 20; i++) {
                got.add(live.next());
            }
            assertEquals("the live destination got every message once", 20, got.size());
            Conditions.await("the dead destination is marked down", WAIT_MS, () -> sender.isDown(dead));
            long failedAtDown = sender.failed();
            assertTrue("at most a window's worth of messages tried the limit, got " + failedAtDown,
                    failedAtDown <= 4L * (RETRANSMISSIONS + 1));
            long start = System.nanoTime();
            for (long i = 20; i < 220; i++) {
                sender.send(dead, message(i));
            }
            Conditions.await("down: all but the newest released", WAIT_MS, () -> sender.held(dead) <= 1);
            long probes = sender.failed() - failedAtDown;
            long elapsed = (System.nanoTime() - start) / 1_000_000;
            long probeMillis = settings(4).probeMillis();
            assertTrue(probes + " failed POSTs in " + elapsed + " ms: probes only, not one per message",
                    probes <= 4 + elapsed / probeMillis + 1);
            assertEquals("the live one was never refused or dropped", 20, live.posts.get());
            assertEquals(0, sender.dropped());
        }
    }

    @Test
    public void aDownDestinationHoldsOnlyItsNewestMessageAndResumesOnceAProbeIsAnswered() throws Exception {
        AtomicBoolean broken = new AtomicBoolean(true);
        LoopbackControlServer back = server(new LoopbackControlServer(n -> broken.get() ? 503 : 202));
        try (MulticastSender sender = new MulticastSender("test-probe", 1, settings(2))) {
            sender.send(back.uri(), message(0));
            Conditions.await("marked down after the limit", WAIT_MS, () -> sender.isDown(back.uri()));
            assertEquals(RETRANSMISSIONS + 1, back.posts.get());
            // A probe may be out (the probe interval can pass during this loop on a loaded machine): it holds
            // the message it carries until answered, beside the newest.
            for (long i = 1; i <= 10; i++) {
                sender.send(back.uri(), message(i));
                assertTrue("down: at most the newest and one probe held", sender.held(back.uri()) <= 2);
            }
            assertTrue("0 and all but the newest of 1..10 (and a probe's) given up", sender.givenUp() >= 9);
            broken.set(false);
            sender.send(back.uri(), message(11));
            // by a probe within the probe interval, or at once if one was due; a probe already out when the
            // destination came back may deliver its older message first
            Long got = back.next();
            if (got != null && got < 11) {
                got = back.next();
            }
            assertEquals("message 11 arrived", Long.valueOf(11), got);
            Conditions.await("up again", WAIT_MS, () -> !sender.isDown(back.uri()));
            sender.send(back.uri(), message(12));
            assertArrived(back, 12);
            assertTrue("nothing older than the newest came through a probe", back.accepted.isEmpty());
        }
    }

    @Test
    public void aSoapFaultCountsAsReceivedAndIsNotRetransmitted() throws Exception {
        LoopbackControlServer refusing = server(new LoopbackControlServer(n -> n == 0
                ? LoopbackControlServer.SOAP_FAULT : 202));
        try (MulticastSender sender = new MulticastSender("test-fault", 1, settings(1))) {
            sender.send(refusing.uri(), message(0));
            sender.send(refusing.uri(), message(1));
            assertArrived(refusing, 1);
            Conditions.await("both answered", WAIT_MS, () -> sender.refused() + sender.sent() == 2);
            assertEquals(1, sender.refused());
            assertEquals(0, sender.failed());
            assertEquals("no retransmission of the refused one", 2, refusing.posts.get());
        }
    }

    private LoopbackControlServer server(LoopbackControlServer s) {
        servers.add(s);
        return s;
    }

    /** A loopback URL nobody listens on: connections are refused at once. */
    private static URI closedPort() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        return URI.create("http://127.0.0.1:" + port + "/control");
    }
}
