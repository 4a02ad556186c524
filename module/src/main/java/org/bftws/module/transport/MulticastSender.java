package org.bftws.module.transport;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.http.client.config.RequestConfig;
import org.apache.http.client.methods.CloseableHttpResponse;
import org.apache.http.client.methods.HttpPost;
import org.apache.http.entity.ByteArrayEntity;
import org.apache.http.impl.client.CloseableHttpClient;
import org.apache.http.impl.client.HttpClients;
import org.apache.http.util.EntityUtils;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.bftws.module.Threads;

/**
 * The Multicast Sender (paper §3.3.1.2): sends a control message to one endpoint or to several, as SOAP
 * one-way HTTP POSTs, on a small pool of named threads. {@link #send} never blocks: it appends to the
 * destination's queue and returns, so the ordering thread is never held by the network.
 *
 * <p>Each destination has a bounded FIFO queue drained by at most one pool thread at a time (so messages to
 * one replica leave in order over one kept-alive connection, and a slow or dead replica holds one thread,
 * not the others' traffic). A full queue drops its oldest message: PBFT retransmits what matters
 * (Castro-Liskov §4.2, our {@code bftws.retransmitTicks}), and the newest messages are the ones that move
 * the protocol on. Unlike the paper's sender we keep nothing for retransmission here: the core retransmits,
 * so the transport may lose messages.
 */
public final class MulticastSender implements AutoCloseable {
    private static final Logger LOG = LogManager.getLogger(MulticastSender.class);

    /**
     * Messages one drain pass sends before it yields the thread, so one busy destination cannot starve the
     * others when destinations outnumber threads.
     */
    private static final int DRAIN_BATCH = 32;

    private final String name;
    private final int capacity;
    private final CloseableHttpClient http;
    private final ExecutorService pool;
    private final ConcurrentHashMap<URI, Destination> destinations = new ConcurrentHashMap<>();
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private volatile boolean closed;

    /**
     * @param name     thread-name prefix, e.g. {@code bftws-sender-r2}
     * @param threads  pool size; about the number of peers, so one dead peer does not delay the others
     * @param capacity messages queued per destination before the oldest is dropped
     * @param timeout  connect and request timeout of one POST
     */
    public MulticastSender(String name, int threads, int capacity, Duration timeout) {
        if (threads < 1 || capacity < 1) {
            throw new IllegalArgumentException("threads and capacity must be positive");
        }
        this.name = name;
        this.capacity = capacity;
        this.pool = Executors.newFixedThreadPool(threads, named(name));
        // Apache HttpClient 4, which Axis2's own HTTP sender uses (no new dependency): on 4 loopback replicas
        // it gave 8.5-10 ms per ordered request against 13 ms with java.net.http, which also cannot be
        // closed on Java 17. Kept-alive connections, one per destination in use; no automatic retries (the
        // protocol retransmits); timeouts bound how long a dead peer holds a pool thread.
        int ms = (int) timeout.toMillis();
        RequestConfig rc = RequestConfig.custom().setConnectTimeout(ms).setSocketTimeout(ms)
                .setConnectionRequestTimeout(ms).build();
        this.http = HttpClients.custom().setDefaultRequestConfig(rc).disableAutomaticRetries()
                .disableCookieManagement().disableRedirectHandling().setMaxConnPerRoute(2)
                .setMaxConnTotal(Math.max(16, 2 * threads)).build();
    }

    /** Queues {@code m} for {@code to}; returns at once. */
    public void send(URI to, OutboundSoap m) {
        if (closed) {
            return;
        }
        Destination d = destinations.computeIfAbsent(to, Destination::new);
        boolean schedule;
        synchronized (d) {
            if (d.queue.size() >= capacity) {
                d.queue.poll();
                dropped.incrementAndGet();
            }
            d.queue.add(m);
            schedule = !d.draining;
            d.draining = true;
        }
        if (schedule) {
            submit(d);
        }
    }

    /** Queues {@code m} for each of {@code to}; the envelope is built once and shared. */
    public void send(Collection<URI> to, OutboundSoap m) {
        for (URI u : to) {
            send(u, m);
        }
    }

    private void submit(Destination d) {
        try {
            pool.execute(() -> drain(d));
        } catch (RejectedExecutionException e) {
            synchronized (d) {
                d.draining = false; // closed meanwhile
            }
        }
    }

    private void drain(Destination d) {
        for (int i = 0; i < DRAIN_BATCH && !closed; i++) {
            OutboundSoap m;
            synchronized (d) {
                m = d.queue.poll();
                if (m == null) {
                    d.draining = false;
                    return;
                }
            }
            post(d.uri, m);
        }
        submit(d); // more to send: go to the back of the pool's queue (fairness between destinations)
    }

    private void post(URI to, OutboundSoap m) {
        HttpPost post = new HttpPost(to);
        if (m.soap12()) {
            post.setHeader("Content-Type", "application/soap+xml; charset=UTF-8; action=\"" + m.soapAction() + "\"");
        } else {
            post.setHeader("Content-Type", "text/xml; charset=UTF-8");
            post.setHeader("SOAPAction", "\"" + m.soapAction() + "\"");
        }
        try {
            post.setEntity(new ByteArrayEntity(m.envelope()));
        } catch (RuntimeException e) {
            failure(to, e.getClass().getSimpleName());
            return;
        }
        try (CloseableHttpResponse rsp = http.execute(post)) {
            EntityUtils.consume(rsp.getEntity()); // so the connection can be reused
            int status = rsp.getStatusLine().getStatusCode();
            if (status / 100 == 2) {
                sent.incrementAndGet();
            } else {
                failure(to, "HTTP " + status);
            }
        } catch (IOException | RuntimeException e) {
            failure(to, e.getClass().getSimpleName());
        }
    }

    /** A lost message is the protocol's to repair; log the first failure and then every 1024th. */
    private void failure(URI to, String why) {
        long n = failed.incrementAndGet();
        if (n == 1 || n % 1024 == 0) {
            LOG.info("{}: send to {} failed ({}); {} failed so far, the protocol retransmits", name, to, why, n);
        }
    }

    public long sent() {
        return sent.get();
    }

    public long dropped() {
        return dropped.get();
    }

    public long failed() {
        return failed.get();
    }

    /** Stops sending; queued messages are discarded (a replica that stops may lose them anyway). */
    @Override
    public void close() {
        closed = true;
        pool.shutdownNow();
        try {
            http.close(); // also unblocks a thread waiting on a slow peer
        } catch (IOException e) {
            LOG.debug("{}: closing connections: {}", name, e.toString());
        }
        Threads.stop(pool);
    }

    private static ThreadFactory named(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    private static final class Destination {
        final URI uri;
        final ArrayDeque<OutboundSoap> queue = new ArrayDeque<>();
        boolean draining;

        Destination(URI uri) {
            this.uri = uri;
        }
    }
}
