package org.bftws.module.transport;

import java.net.URI;
import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The Multicast Sender's buffer for one destination (BFT-WS paper §3.3.1.2): the messages not yet sent, the
 * messages sent and not yet acknowledged, and whether the destination is up. It decides; the sender's threads
 * act (post, schedule a retransmission or a probe). Every method is synchronized and quick: it is called by
 * the ordering thread (through {@code send}), by the pool's lanes and by the timer.
 *
 * <p><b>Window.</b> At most {@code window} messages are outstanding (sent and neither acknowledged nor given
 * up: in flight, waiting out a backoff, or due again); new ones are started in FIFO order. With a window of 1
 * the destination therefore receives its messages in the order they were sent (a failed message is
 * retransmitted before the next is sent). With a larger window, concurrent POSTs may be processed in any
 * order and a retransmitted message arrives after later ones: PBFT needs no FIFO channels (Castro-Liskov §2
 * assumes the network may reorder), the replica orders by sequence number.
 *
 * <p><b>Down.</b> A message that failed its first POST and every retransmission marks the destination down:
 * everything buffered for it is released, at most the newest message is kept, and once per probe interval
 * that one message is posted alone (a probe) until one is answered. So a dead destination holds one message
 * and, while a probe is in flight, one thread; PBFT's own retransmission brings it up to date once it is back.
 */
final class Destination {
    enum State { UP, DOWN, PROBING }

    /** What to do after a failed POST. */
    enum AfterFailure { RETRANSMIT, WENT_DOWN, PROBE_FAILED, GAVE_UP }

    /** One message on its way to this destination. */
    static final class Outgoing {
        final OutboundSoap message;
        final int bytes;
        /** POSTs made so far. */
        int attempts;

        Outgoing(OutboundSoap message, int bytes) {
            this.message = message;
            this.bytes = bytes;
        }
    }

    final URI uri;
    private final MulticastSettings settings;
    private final SenderCounters counters;
    private final ArrayDeque<Outgoing> waiting = new ArrayDeque<>();
    /** Outstanding messages whose backoff ended: posted again before any new message. */
    private final ArrayDeque<Outgoing> due = new ArrayDeque<>();
    private long waitingBytes;
    private int outstanding;
    /** Lane tasks claimed (running or queued on the pool); at most the window. */
    private int lanes;
    private State state = State.UP;
    private long lastOffer = System.nanoTime();
    /** Down, and the probe interval passed while nothing waited: the next message is a probe at once. */
    private boolean probeDue;
    private boolean probeTaken;

    Destination(URI uri, MulticastSettings settings, SenderCounters counters) {
        this.uri = uri;
        this.settings = settings;
        this.counters = counters;
    }

    /**
     * Buffers {@code m}, dropping the oldest waiting messages beyond the limits (the newest are the ones that
     * move the protocol on, and PBFT retransmits what matters, Castro-Liskov §4.2).
     *
     * @return true if the caller must start a lane
     */
    synchronized boolean offer(OutboundSoap m, int bytes) {
        lastOffer = System.nanoTime();
        waiting.add(new Outgoing(m, bytes));
        waitingBytes += bytes;
        if (state != State.UP) {
            dropWaitingBeyond(1, counters.givenUp);
            if (state == State.DOWN && probeDue) {
                return startProbe();
            }
            return false;
        }
        dropWaitingBeyond(settings.bufferMessages(), counters.dropped);
        return claimLane();
    }

    /** The next message a lane posts, or null: the lane ends (its claim is returned). */
    synchronized Outgoing next() {
        Outgoing o = null;
        if (state == State.UP) {
            o = due.poll();
            if (o == null && outstanding < settings.window()) {
                o = takeWaiting();
            }
        } else if (state == State.PROBING && !probeTaken) {
            probeTaken = true;
            o = takeWaiting();
        }
        if (o == null) {
            lanes--;
        }
        return o;
    }

    /**
     * A POST was answered (2xx, or a SOAP fault or refusal: the destination has the message either way).
     *
     * @return true if the destination was down or probed: it is up again
     */
    synchronized boolean answered() {
        outstanding--;
        if (state == State.UP) {
            return false;
        }
        state = State.UP;
        probeTaken = false;
        probeDue = false;
        return true;
    }

    /** Decides what follows a failed POST of {@code o} (connection failure, timeout, 5xx without SOAP). */
    synchronized AfterFailure failed(Outgoing o) {
        if (state == State.PROBING) {
            state = State.DOWN;
            probeTaken = false;
            releaseOne();
            return AfterFailure.PROBE_FAILED;
        }
        if (state == State.DOWN) { // sent in the window before the destination went down
            releaseOne();
            return AfterFailure.GAVE_UP;
        }
        if (o.attempts <= settings.retransmissions()) {
            return AfterFailure.RETRANSMIT;
        }
        releaseOne();
        goDown();
        return AfterFailure.WENT_DOWN;
    }

    /**
     * {@code o}'s backoff ended.
     *
     * @return true if the caller must start a lane
     */
    synchronized boolean retransmissionDue(Outgoing o) {
        if (state != State.UP) {
            releaseOne();
            return false;
        }
        due.add(o);
        return claimLane();
    }

    /**
     * The probe interval of a destination marked down ended.
     *
     * @return true if the caller must start the probe's lane
     */
    synchronized boolean probeTime() {
        if (state != State.DOWN) {
            return false;
        }
        if (waiting.isEmpty()) {
            probeDue = true;
            return false;
        }
        return startProbe();
    }

    /** A further lane, if the window and the work allow one (after coming back up). */
    synchronized boolean claimLane() {
        boolean work = !due.isEmpty() || (!waiting.isEmpty() && outstanding < settings.window());
        if (state == State.UP && work && lanes < settings.window()) {
            lanes++;
            return true;
        }
        return false;
    }

    synchronized State state() {
        return state;
    }

    /** Messages held (waiting and outstanding). */
    synchronized int held() {
        return waiting.size() + outstanding;
    }

    synchronized long waitingBytes() {
        return waitingBytes;
    }

    /**
     * True when nothing has been offered for {@code idleNanos}, no lane runs and nothing is in flight or due:
     * the destination may be dropped (a later message makes a new one). A destination marked down gives up its
     * one kept message then: whoever it was (a client gone for good, most often) has been unreachable throughout.
     */
    synchronized boolean retireIfIdle(long now, long idleNanos) {
        if (now - lastOffer < idleNanos || lanes > 0 || outstanding > 0 || !due.isEmpty()
                || state == State.UP && !waiting.isEmpty()) {
            return false;
        }
        counters.givenUp.addAndGet(waiting.size());
        waiting.clear();
        waitingBytes = 0;
        return true;
    }

    private boolean startProbe() {
        probeDue = false;
        state = State.PROBING;
        lanes++;
        return true;
    }

    /** Keeps what is outstanding in flight (it ends by itself); releases the rest but the newest message. */
    private void goDown() {
        state = State.DOWN;
        counters.givenUp.addAndGet(due.size());
        outstanding -= due.size();
        due.clear();
        dropWaitingBeyond(1, counters.givenUp);
    }

    private void releaseOne() {
        outstanding--;
        counters.givenUp.incrementAndGet();
    }

    private Outgoing takeWaiting() {
        Outgoing o = waiting.poll();
        if (o != null) {
            waitingBytes -= o.bytes;
            outstanding++;
        }
        return o;
    }

    /** Drops the oldest waiting messages beyond {@code max} or the byte limit, keeping at least the newest. */
    private void dropWaitingBeyond(int max, AtomicLong counter) {
        while (waiting.size() > 1 && (waiting.size() > max || waitingBytes > settings.bufferBytes())) {
            waitingBytes -= waiting.poll().bytes;
            counter.incrementAndGet();
        }
    }
}
