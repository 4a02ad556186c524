package org.bftws.client.gateway;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.axis2.AxisFault;
import org.apache.axis2.client.ServiceClient;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.bftws.client.GroupClients;

/**
 * The gateway's bounded pool of group clients: each a {@link ServiceClient} with bftws engaged, holding its own
 * WS-RM sequence with the group (BFT-WS paper §3.3.1.1), used by one caller's request at a time. At most
 * {@code capacity} exist at once, over all services; a request that finds none free within the wait gets none
 * (the gateway answers it with a fault saying so), so threads, sequences and the replicas' per-sequence state
 * stay bounded however many callers come.
 */
final class SequencePool implements AutoCloseable {
    private static final Logger LOG = LogManager.getLogger(SequencePool.class);

    private final ConfigurationContext context;
    private final int capacity;
    private final long callTimeoutMillis;
    private final Semaphore permits;
    /** Idle clients by group endpoint; guarded by itself. */
    private final Map<String, Deque<ServiceClient>> idle = new HashMap<>();
    private final AtomicInteger open = new AtomicInteger();

    SequencePool(ConfigurationContext context, int capacity, long callTimeoutMillis) {
        if (capacity < 1) {
            throw new IllegalArgumentException("a pool of " + capacity + " sequences");
        }
        this.context = context;
        this.capacity = capacity;
        this.callTimeoutMillis = callTimeoutMillis;
        this.permits = new Semaphore(capacity, true);
    }

    /** A client of {@code endpoint} for one call, or null if all {@link #capacity} stayed in use for {@code waitMillis}. */
    ServiceClient acquire(String endpoint, long waitMillis) throws AxisFault, InterruptedException {
        if (!permits.tryAcquire(waitMillis, TimeUnit.MILLISECONDS)) {
            return null;
        }
        ServiceClient client;
        synchronized (idle) {
            Deque<ServiceClient> free = idle.get(endpoint);
            client = free == null ? null : free.poll();
            if (client == null) {
                client = evictIdleOtherThan(endpoint);
            }
        }
        if (client != null) {
            return client;
        }
        try {
            ServiceClient created = GroupClients.create(context, endpoint, "", callTimeoutMillis);
            open.incrementAndGet();
            return created;
        } catch (AxisFault | RuntimeException e) {
            permits.release();
            throw e;
        }
    }

    /**
     * Gives a client back after its call; {@code reusable} false (the call failed, its sequence may be stuck)
     * ends its sequence instead.
     */
    void release(String endpoint, ServiceClient client, boolean reusable) {
        try {
            if (reusable) {
                synchronized (idle) {
                    idle.computeIfAbsent(endpoint, k -> new ArrayDeque<>()).push(client);
                }
            } else {
                close(client, false);
            }
        } finally {
            permits.release();
        }
    }

    /** With every permit's client idle under another endpoint, one of those is closed to make room. */
    private ServiceClient evictIdleOtherThan(String endpoint) {
        if (open.get() < capacity) {
            return null;
        }
        for (Map.Entry<String, Deque<ServiceClient>> e : idle.entrySet()) {
            if (!e.getKey().equals(endpoint) && !e.getValue().isEmpty()) {
                close(e.getValue().poll(), true);
                return null;
            }
        }
        return null;
    }

    /** {@code terminate}: end its sequence with the group first (a failed call's may not answer: not waited for). */
    private void close(ServiceClient client, boolean terminate) {
        open.decrementAndGet();
        if (terminate) {
            try {
                GroupClients.terminate(client);
            } catch (AxisFault | RuntimeException e) {
                LOG.debug("gateway: ending a sequence: {}", e.toString());
            }
        }
        try {
            client.cleanup();
        } catch (AxisFault e) {
            LOG.debug("gateway: cleaning up a client: {}", e.toString());
        }
    }

    int capacity() {
        return capacity;
    }

    /** Sequences open with the group (idle or in use). */
    int open() {
        return open.get();
    }

    /** Sequences in use by a call now. */
    int inUse() {
        return capacity - permits.availablePermits();
    }

    @Override
    public void close() {
        synchronized (idle) {
            idle.values().forEach(q -> q.forEach(c -> close(c, true)));
            idle.clear();
        }
    }
}
