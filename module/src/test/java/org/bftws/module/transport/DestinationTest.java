package org.bftws.module.transport;

import static org.bftws.module.transport.LoopbackControlServer.message;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;

import java.net.URI;
import java.nio.ByteBuffer;
import java.time.Duration;

import org.bftws.module.transport.Destination.AfterFailure;
import org.bftws.module.transport.Destination.Outgoing;
import org.bftws.module.transport.Destination.State;
import org.junit.Test;

/**
 * One destination's buffer as a state machine, stepped by hand (no threads, no network): the window, the order
 * in which messages and retransmissions are started, the retransmission limit, down and probing (BFT-WS paper
 * §3.3.1.2). The sender's tests run the same machine against real HTTP servers.
 */
public class DestinationTest {
    private static final int RETRANSMISSIONS = 2;

    private final SenderCounters counters = new SenderCounters();

    private Destination destination(int window) {
        return new Destination(URI.create("http://127.0.0.1:1/control"),
                new MulticastSettings(window, RETRANSMISSIONS, 10, 1 << 20, 100, Duration.ofSeconds(1)), counters);
    }

    private static long number(Outgoing o) {
        return ByteBuffer.wrap(((ControlMessage) o.message).signedBytes()).getLong();
    }

    @Test
    public void aWindowOfOneRetransmitsTheHeadBeforeStartingTheNext() {
        Destination d = destination(1);
        assertTrue("the first message starts a lane", d.offer(message(0), 10));
        assertFalse("the window's one lane is claimed", d.offer(message(1), 10));
        Outgoing first = d.next();
        assertEquals(0, number(first));
        first.attempts++;
        assertEquals(AfterFailure.RETRANSMIT, d.failed(first));
        assertNull("message 1 waits while message 0 is outstanding", d.next());
        assertTrue(d.retransmissionDue(first));
        assertSame("the retransmission goes first", first, d.next());
        d.answered();
        assertEquals(1, number(d.next()));
    }

    @Test
    public void aWindowOfWStartsWMessagesInOrderAndRetransmissionsBeforeNewOnes() {
        Destination d = destination(2);
        for (long i = 0; i < 4; i++) {
            d.offer(message(i), 10);
        }
        Outgoing m0 = d.next();
        Outgoing m1 = d.next();
        assertEquals(0, number(m0));
        assertEquals(1, number(m1));
        assertNull("two outstanding: the window is full", d.next());
        assertEquals(4, d.held());
        d.answered(); // message 1 answered first: a larger window does not keep FIFO
        m0.attempts++;
        assertEquals(AfterFailure.RETRANSMIT, d.failed(m0));
        d.retransmissionDue(m0);
        assertSame("the retransmission goes before new messages", m0, d.next());
        assertEquals(2, number(d.next()));
        assertNull("m0 and m2 outstanding: the window is full", d.next());
    }

    @Test
    public void pastTheLimitTheDestinationGoesDownKeepsOnlyTheNewestAndIsProbedWithIt() {
        Destination d = destination(1);
        d.offer(message(0), 10);
        Outgoing m0 = d.next();
        for (int k = 1; k <= RETRANSMISSIONS; k++) {
            m0.attempts++;
            assertEquals(AfterFailure.RETRANSMIT, d.failed(m0));
            d.retransmissionDue(m0);
            assertSame(m0, d.next());
            d.offer(message(k), 10);
        }
        m0.attempts++;
        assertEquals(AfterFailure.WENT_DOWN, d.failed(m0));
        assertNull("the lane ends", d.next());
        assertEquals(State.DOWN, d.state());
        assertEquals("only the newest is kept", 1, d.held());
        assertEquals(RETRANSMISSIONS, counters.givenUp.get()); // message 0 and the older waiting one
        assertFalse("no lane while down", d.offer(message(9), 10));
        assertEquals(1, d.held());
        assertTrue("the probe interval ended: probe", d.probeTime());
        Outgoing probe = d.next();
        assertEquals(9, number(probe));
        assertNull("one probe at a time", d.next());
        assertTrue("answered: up again", d.answered());
        assertEquals(State.UP, d.state());
        assertTrue(d.offer(message(10), 10));
        assertEquals(10, number(d.next()));
    }

    @Test
    public void aFailedProbeLeavesItDownAndAProbeDueWithNothingWaitingStartsAtTheNextMessage() {
        Destination d = destination(1);
        d.offer(message(0), 10);
        Outgoing m0 = d.next();
        m0.attempts = RETRANSMISSIONS + 1;
        assertEquals(AfterFailure.WENT_DOWN, d.failed(m0));
        assertNull("the lane ends", d.next());
        assertFalse("nothing to probe with yet", d.probeTime());
        assertTrue("the next message is the probe, at once", d.offer(message(1), 10));
        Outgoing probe = d.next();
        probe.attempts++;
        assertEquals(AfterFailure.PROBE_FAILED, d.failed(probe));
        assertEquals(State.DOWN, d.state());
        assertEquals(0, d.held());
    }

    @Test
    public void theByteLimitDropsTheOldestWaitingButNeverTheLastOne() {
        Destination d = new Destination(URI.create("http://127.0.0.1:1/control"),
                new MulticastSettings(1, 0, 10, 100, 100, Duration.ofSeconds(1)), counters);
        d.offer(message(0), 40);
        d.next(); // in flight: not counted against the waiting limit
        d.offer(message(1), 40);
        d.offer(message(2), 40);
        d.offer(message(3), 40);
        assertEquals(80, d.waitingBytes());
        assertEquals(1, counters.dropped.get());
        d.offer(message(4), 500);
        assertEquals("a message above the limit stays, alone", 500, d.waitingBytes());
        assertEquals(3, counters.dropped.get());
    }
}
