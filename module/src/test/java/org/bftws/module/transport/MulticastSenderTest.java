package org.bftws.module.transport;

import static org.bftws.module.transport.LoopbackControlServer.message;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.bftws.module.testing.Conditions;
import org.junit.After;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.Timeout;

/**
 * The Multicast Sender's buffering contract (BFT-WS paper §3.3.1.2), against real loopback HTTP servers:
 * {@code send} never waits for a destination, a stalled destination delays no other one, a window of W puts W
 * POSTs in flight to a slow destination, the buffer stays within its limits by dropping its oldest waiting
 * messages, and close ends every thread.
 */
public class MulticastSenderTest {
    @Rule
    public final Timeout timeout = Timeout.seconds(60);

    /** How long a test waits for a condition on the senders and servers. */
    static final long WAIT_MS = 20_000;

    private final List<LoopbackControlServer> servers = new ArrayList<>();

    @After
    public void stop() {
        servers.forEach(LoopbackControlServer::close);
    }

    /** Long POST timeout (a held POST must not time out), no retransmission worth waiting for. */
    static MulticastSettings settings(int window, int bufferBytes, int bufferMessages) {
        return new MulticastSettings(window, 3, 100, bufferBytes, bufferMessages, Duration.ofSeconds(30));
    }

    @Test
    public void windowOfOneStalledDestinationDropsItsOldestAndDelaysNobodyElse() throws Exception {
        LoopbackControlServer slow = server();
        LoopbackControlServer fast = server();
        slow.hold();
        int capacity = 10;
        try (MulticastSender sender = new MulticastSender("test-send", 2, settings(1, 1 << 20, capacity))) {
            sender.send(slow.uri(), message(0));
            Conditions.await("the first message is in flight, held by the slow server", WAIT_MS,
                    () -> slow.inProgress.get() == 1);
            for (long i = 1; i <= 100; i++) {
                sender.send(slow.uri(), message(i)); // would hang here if send waited for the destination
            }
            for (long i = 1; i <= 5; i++) {
                sender.send(fast.uri(), message(i));
                assertEquals("fast destination got message " + i + " while the slow one stalls", (Long) i,
                        fast.next());
            }
            slow.open();
            assertEquals((Long) 0L, slow.next());
            for (long i = 100 - capacity + 1; i <= 100; i++) {
                assertEquals("slow destination: the newest messages, in order", (Long) i, slow.next());
            }
            assertEquals(100 - capacity, sender.dropped());
            assertEquals(1 + capacity, slow.posts.get());
        }
    }

    /**
     * The slow-replica fault hook: every message leaves at least the delay after {@code send}, which still
     * returns at once, and in the order sent; a delay of 0 turns it off.
     */
    @Test
    public void theSendDelayHookSendsEveryMessageLateAndInOrder() throws Exception {
        LoopbackControlServer server = server();
        long delayMillis = 500;
        try (MulticastSender sender = new MulticastSender("test-send", 1, settings(1, 1 << 20, 100))) {
            sender.delayEverySend(delayMillis);
            long sent = System.nanoTime();
            for (long i = 1; i <= 5; i++) {
                sender.send(server.uri(), message(i));
            }
            for (long i = 1; i <= 5; i++) {
                assertEquals("message " + i + ", in order", (Long) i, server.next());
                long waited = (System.nanoTime() - sent) / 1_000_000;
                assertTrue("message " + i + " arrived " + waited + " ms after send", waited >= delayMillis);
            }
            sender.delayEverySend(0);
            sender.send(server.uri(), message(6));
            assertEquals((Long) 6L, server.next());
        }
    }

    @Test
    public void aWindowOfWPutsWPostsInFlightToASlowDestination() throws Exception {
        int window = 3;
        LoopbackControlServer slow = server();
        slow.hold();
        try (MulticastSender sender = new MulticastSender("test-window", 1, settings(window, 1 << 20, 100))) {
            for (long i = 0; i < 20; i++) {
                sender.send(slow.uri(), message(i));
            }
            Conditions.await("W POSTs in flight at once", WAIT_MS, () -> slow.inProgress.get() == window);
            assertEquals("held: W in flight plus the waiting ones", 20, sender.held(slow.uri()));
            slow.open();
            Set<Long> got = new HashSet<>();
            for (int i = 0; i < 20; i++) {
                got.add(slow.next());
            }
            assertEquals("every message arrived once", 20, got.size());
            assertEquals("never more than W at once", window, slow.maxInProgress.get());
            Conditions.await("all acknowledged and released", WAIT_MS,
                    () -> sender.held(slow.uri()) == 0 && sender.sent() == 20);
        }
    }

    @Test
    public void theBufferStaysWithinItsByteLimitKeepingTheNewest() throws Exception {
        int limit = 64 << 10;
        int size = 10_000; // ≈13.7 KB of envelope each: 4 fit in the limit, not 5
        LoopbackControlServer slow = server();
        slow.hold();
        try (MulticastSender sender = new MulticastSender("test-bytes", 1, settings(1, limit, 1000))) {
            sender.send(slow.uri(), message(0, size));
            Conditions.await("the first message is in flight", WAIT_MS, () -> slow.inProgress.get() == 1);
            long most = 0;
            for (long i = 1; i <= 50; i++) {
                sender.send(slow.uri(), message(i, size));
                most = Math.max(most, sender.waitingBytes(slow.uri()));
            }
            assertTrue("waiting bytes " + most + " within " + limit, most <= limit);
            int waiting = sender.held(slow.uri()) - 1;
            assertTrue("several messages fit, got " + waiting, waiting >= 2);
            assertEquals(50 - waiting, sender.dropped());
            slow.open();
            assertEquals((Long) 0L, slow.next());
            for (long i = 50 - waiting + 1; i <= 50; i++) {
                assertEquals("the newest, in order", (Long) i, slow.next());
            }
        }
    }

    @Test
    public void aMessageLargerThanTheByteLimitIsStillSentAlone() throws Exception {
        LoopbackControlServer server = server();
        try (MulticastSender sender = new MulticastSender("test-large", 1, settings(1, 64 << 10, 10))) {
            sender.send(server.uri(), message(7, 200_000));
            assertEquals((Long) 7L, server.next());
            assertEquals(0, sender.dropped());
        }
    }

    @Test
    public void closeEndsEveryThreadEvenWithPostsInFlightAndRetransmissionsPending() throws Exception {
        LoopbackControlServer slow = server();
        LoopbackControlServer broken = new LoopbackControlServer(n -> 503);
        servers.add(broken);
        slow.hold();
        String name = "test-close-" + System.nanoTime();
        MulticastSender sender = new MulticastSender(name, 2, settings(4, 1 << 20, 100));
        for (long i = 0; i < 10; i++) {
            sender.send(slow.uri(), message(i));
            sender.send(broken.uri(), message(i));
        }
        Conditions.await("POSTs held and failed", WAIT_MS, () -> slow.inProgress.get() == 4 && sender.failed() >= 4);
        assertTrue("the sender runs threads", !threadsNamed(name).isEmpty());
        sender.close();
        // close waits for the pools to terminate; a worker that ended its task is reported before its thread
        // has quite returned, so allow that last instant
        Conditions.await("no sender thread survives close", WAIT_MS, () -> threadsNamed(name).isEmpty());
        sender.send(slow.uri(), message(99)); // ignored after close, starts nothing
        assertEquals(List.of(), threadsNamed(name));
    }

    private static List<String> threadsNamed(String prefix) {
        List<String> alive = new ArrayList<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith(prefix) && t.isAlive()) {
                alive.add(t.getName());
            }
        }
        return alive;
    }

    /** Waits (bounded, generously: the machine is shared) for a condition; no sleep stands in for it. */
    private LoopbackControlServer server() throws Exception {
        LoopbackControlServer s = LoopbackControlServer.accepting();
        servers.add(s);
        return s;
    }

    static void assertArrived(LoopbackControlServer s, long i) throws InterruptedException {
        Long got = s.next();
        assertNotNull("message " + i + " arrived", got);
        assertEquals(i, (long) got);
    }
}
