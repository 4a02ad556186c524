package org.bftws.module.transport;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.Collection;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.bftws.module.RateLimitedLog;
import org.bftws.module.Threads;
import org.bftws.module.transport.Destination.Outgoing;
import org.bftws.module.transport.HttpPoster.Outcome;

/**
 * The Multicast Sender (BFT-WS paper §3.3.1.2): sends a control message to one endpoint or to several, as SOAP
 * one-way HTTP POSTs. "A message to be multicast is kept in the buffer until the acknowledgement from all
 * destinations have been collected, or a predefined retransmission limit has been exceeded": each destination
 * holds its own reference to the message ({@link Destination}) until it answered the POST or was given up, so
 * the message is released when the last destination let go of it.
 *
 * <p>{@link #send} never blocks (the Total Order Manager's thread calls it): it buffers and returns. A pool of
 * named threads posts, up to {@link MulticastSettings#window} POSTs in flight per destination (a window of one
 * POST at a time capped a replica over an emulated WAN at one message per round trip and peer); a failed POST
 * is retransmitted after a doubling backoff, on a timer, not by a sleeping thread. A destination that exhausts
 * the retransmission limit is marked down and probed (see {@link Destination}). Memory is bounded per
 * destination; beyond it the oldest waiting messages are dropped, since PBFT retransmits what matters
 * (Castro-Liskov §4.2, {@code bftws.retransmitTicks}) and the newest messages are the ones that move it on.
 */
public final class MulticastSender implements AutoCloseable {
    private static final Logger LOG = LogManager.getLogger(MulticastSender.class);
    private static final RateLimitedLog REFUSAL_LOG = new RateLimitedLog(LOG);

    /**
     * Messages one lane posts before it yields its thread, so busy destinations cannot starve the others when
     * destinations (a replica's clients) outnumber threads.
     */
    private static final int DRAIN_BATCH = 32;
    /** Idle pool threads end after this, so a quiet sender (or one whose peers are down) holds no thread. */
    private static final long IDLE_THREAD_SECONDS = 30;
    /**
     * A destination sent nothing for this long is dropped, with its state and its buffer (a new message makes
     * a new one; its pooled HTTP connections close after {@link HttpPoster}'s idle time): a replica replies to
     * every client's own address, and short-lived clients would otherwise each leave one behind for good.
     * One minute: far above PBFT's retransmission period, so a peer replica or a client between calls keeps
     * its destination, and a replica that served a million clients a day holds about a minute's worth.
     */
    public static final long IDLE_DESTINATION_MILLIS = 60_000;

    private final String name;
    private final MulticastSettings settings;
    private final HttpPoster poster;
    private final ThreadPoolExecutor pool;
    private final ScheduledThreadPoolExecutor timer;
    private final ConcurrentHashMap<URI, Destination> destinations = new ConcurrentHashMap<>();
    private final SenderCounters counters = new SenderCounters();
    private final AtomicLong lastSweep = new AtomicLong(System.nanoTime());
    private final long idleNanos;
    private volatile boolean closed;
    /** The fault hook's delay ({@link #delayEverySend}); 0: messages are buffered when sent. */
    private volatile long delayMillis;

    /**
     * @param name         thread-name prefix, e.g. {@code bftws-send-r2}
     * @param destinations about the number of peers: the pool has a window's worth of threads for each, so one
     *                     dead peer does not delay the others
     */
    public MulticastSender(String name, int destinations, MulticastSettings settings) {
        this(name, destinations, settings, IDLE_DESTINATION_MILLIS);
    }

    /** As above, dropping destinations idle for {@code idleMillis} (tests shorten it). */
    MulticastSender(String name, int destinations, MulticastSettings settings, long idleMillis) {
        this.idleNanos = TimeUnit.MILLISECONDS.toNanos(idleMillis);
        if (destinations < 1) {
            throw new IllegalArgumentException("destinations must be positive");
        }
        this.name = name;
        this.settings = settings;
        int threads = destinations * settings.window();
        this.poster = new HttpPoster(Math.max(16, threads), settings.window(), (int) settings.timeout().toMillis(),
                counters);
        this.pool = new ThreadPoolExecutor(threads, threads, IDLE_THREAD_SECONDS, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), named(name));
        pool.allowCoreThreadTimeOut(true);
        this.timer = new ScheduledThreadPoolExecutor(1, named(name + "-timer"));
        timer.setKeepAliveTime(IDLE_THREAD_SECONDS, TimeUnit.SECONDS);
        timer.allowCoreThreadTimeOut(true); // it stays while a retransmission or probe is pending
        timer.setRemoveOnCancelPolicy(true);
    }

    /** With the default window and retransmission; {@code capacity} messages wait per destination. */
    public MulticastSender(String name, int destinations, int capacity, Duration timeout) {
        this(name, destinations, MulticastSettings.defaults().withBuffer(capacity, timeout));
    }

    /**
     * A fault hook for experiments, off unless called: from now on every message is buffered {@code millis}
     * after {@link #send} (on the timer, so {@code send} still returns at once), in the order sent. A replica
     * whose sender does so is a slow replica, or one behind a slow link: the slow primary of the attack on
     * PBFT's timeouts (a primary answering just under the view-change timeout slows the group without being
     * replaced; Amir et al., "Byzantine replication under attack", DSN 2008) that the asynchronous ordering
     * mode is meant to withstand. 0 turns it off.
     */
    public void delayEverySend(long millis) {
        if (millis < 0) {
            throw new IllegalArgumentException("a delay cannot be negative: " + millis);
        }
        delayMillis = millis;
    }

    /** Buffers {@code m} for {@code to}; returns at once. */
    public void send(URI to, OutboundSoap m) {
        long delay = delayMillis;
        if (delay > 0) {
            schedule(() -> buffer(to, m), delay);
        } else {
            buffer(to, m);
        }
    }

    private void buffer(URI to, OutboundSoap m) {
        if (closed) {
            return;
        }
        retireIdleDestinations();
        Destination d = destinations.computeIfAbsent(to, u -> new Destination(u, settings, counters));
        if (d.offer(m, m.estimatedEnvelopeBytes())) {
            startLane(d);
        }
    }

    /**
     * Drops the destinations idle for the idle time, at most twice per idle time, on a sending thread (no
     * timer thread stays for it). A message offered to one just dropped is still sent by it.
     */
    void retireIdleDestinations() {
        long now = System.nanoTime();
        long last = lastSweep.get();
        if (now - last < idleNanos / 2 || !lastSweep.compareAndSet(last, now)) {
            return;
        }
        if (destinations.values().removeIf(d -> d.retireIfIdle(now, idleNanos))) {
            poster.closeIdle(TimeUnit.NANOSECONDS.toMillis(idleNanos));
        }
    }

    /** True while a destination for {@code to} is held. */
    boolean holds(URI to) {
        return destinations.containsKey(to);
    }

    /** Destinations held: those sent to within about the idle time. */
    public int destinations() {
        return destinations.size();
    }

    /** Buffers {@code m} for each of {@code to}; the envelope is built once and shared. */
    public void send(Collection<URI> to, OutboundSoap m) {
        for (URI u : to) {
            send(u, m);
        }
    }

    private void startLane(Destination d) {
        try {
            pool.execute(() -> lane(d));
        } catch (RejectedExecutionException e) {
            // closed meanwhile: the destination's state no longer matters
        }
    }

    /** Posts {@code d}'s messages while the window and the buffer allow, then yields to other destinations. */
    private void lane(Destination d) {
        for (int i = 0; i < DRAIN_BATCH; i++) {
            if (closed) {
                return;
            }
            Outgoing o = d.next();
            if (o == null) {
                return;
            }
            o.attempts++;
            settle(d, o, poster.post(d.uri, o.message));
        }
        startLane(d); // keeps its claim; goes to the back of the pool's queue (fairness between destinations)
    }

    private void settle(Destination d, Outgoing o, Outcome outcome) {
        if (outcome == Outcome.FAILED) {
            counters.failedPosts.incrementAndGet();
            afterFailure(d, o, d.failed(o));
            return;
        }
        (outcome == Outcome.ACKNOWLEDGED ? counters.acknowledged : counters.refused).incrementAndGet();
        if (outcome == Outcome.REFUSED) {
            refusal(d.uri);
        }
        if (d.answered()) {
            LOG.info("{}: {} answers again", name, d.uri);
            while (d.claimLane()) {
                startLane(d);
            }
        }
    }

    private void afterFailure(Destination d, Outgoing o, Destination.AfterFailure next) {
        switch (next) {
            case RETRANSMIT -> schedule(() -> {
                if (d.retransmissionDue(o)) {
                    startLane(d);
                }
            }, settings.backoffMillis(o.attempts));
            case WENT_DOWN -> {
                LOG.info("{}: {} is down after {} retransmissions; probing it every {} ms (PBFT retransmits)", name,
                        d.uri, settings.retransmissions(), settings.probeMillis());
                scheduleProbe(d);
            }
            case PROBE_FAILED -> scheduleProbe(d);
            case GAVE_UP -> {
            }
        }
    }

    private void scheduleProbe(Destination d) {
        schedule(() -> {
            if (d.probeTime()) {
                startLane(d);
            }
        }, settings.probeMillis());
    }

    private void schedule(Runnable task, long millis) {
        try {
            timer.schedule(task, millis, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            // closed meanwhile
        }
    }

    /**
     * A destination that answers with a SOAP fault received the message (the paper's acknowledgement) and
     * refused it; sending it again would be refused again. Logged once per destination and interval.
     */
    private void refusal(URI to) {
        REFUSAL_LOG.info("refused by " + to, "{}: {} refused a message (SOAP fault or HTTP 4xx); {} refused so far",
                name, to, counters.refused.get());
    }

    /** Messages acknowledged with HTTP 2xx. */
    public long sent() {
        return counters.acknowledged.get();
    }

    /** Messages a destination refused (SOAP fault, 4xx): received, not retransmitted. */
    public long refused() {
        return counters.refused.get();
    }

    /** Waiting messages dropped because a destination's buffer was full. */
    public long dropped() {
        return counters.dropped.get();
    }

    /** HTTP POSTs started, retransmissions included. */
    public long posts() {
        return counters.posts.get();
    }

    /** Bytes of the SOAP envelopes posted (bodies only: HTTP headers and the responses are not counted). */
    public long postedBytes() {
        return counters.postedBytes.get();
    }

    /** POSTs that failed (each retransmission counts). */
    public long failed() {
        return counters.failedPosts.get();
    }

    /** Messages released unacknowledged: retransmission limit exceeded, or the destination was down. */
    public long givenUp() {
        return counters.givenUp.get();
    }

    /** True if {@code to} is marked down (or being probed) after exceeding the retransmission limit. */
    public boolean isDown(URI to) {
        Destination d = destinations.get(to);
        return d != null && d.state() != Destination.State.UP;
    }

    /** Messages held for {@code to}: waiting for a window slot, or sent and not yet acknowledged. */
    public int held(URI to) {
        Destination d = destinations.get(to);
        return d == null ? 0 : d.held();
    }

    /** Estimated bytes of the messages waiting for {@code to} (not counting the window's). */
    public long waitingBytes(URI to) {
        Destination d = destinations.get(to);
        return d == null ? 0 : d.waitingBytes();
    }

    /** Stops sending and waits (bounded) for its threads; buffered messages are discarded. */
    @Override
    public void close() {
        closed = true;
        timer.shutdownNow();
        pool.shutdownNow();
        try {
            poster.close(); // also unblocks a thread waiting on a slow peer
        } catch (IOException e) {
            LOG.debug("{}: closing connections: {}", name, e.toString());
        }
        Threads.stop(pool);
        Threads.stop(timer);
        destinations.clear();
    }

    private static ThreadFactory named(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
