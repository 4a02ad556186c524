package org.bftws.module.order;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Received control messages between the HTTP workers and the ordering thread, one bounded queue per sending
 * replica and one shared by everyone else (clients, malformed envelopes), served in turn: Aardvark's separate
 * queues per sender with round-robin service (Clement et al., NSDI 2009 §4.2-§4.3). With one queue for all
 * senders, a replica flooding well-formed, correctly signed bogus messages could fill it; the correct replicas'
 * messages and the clients' requests would then be dropped, and a backup would never hold the request that makes
 * it suspect the primary (Castro-Liskov §4.5.2). Here a sender's flood fills its own queue only; the excess
 * is dropped on the HTTP worker by {@link #reserve} before any signature check, and what is admitted gets at most
 * one turn in each round of the ordering thread's service.
 *
 * <p>The lane is chosen by the sender id the envelope claims, which is not authenticated until the signature
 * check (Aardvark has a network interface per replica; here the links are shared HTTP connections). So the
 * intake first checks the claim against the connection's address where the replicas' addresses tell them apart
 * ({@link SenderAddresses}): a replica claiming another's id from its own address lands in the shared lane. On
 * one host (loopback) nothing tells them apart, and a replica claiming another's id can fill that one's queue
 * with messages that then fail their check. The queues are a fixed array, n + 1 whatever senders claim, each
 * bounded by {@code capacity}.
 *
 * <p>Threads: {@link #reserve}, {@link #add} and {@link #release} on any thread; {@link #poll} on the ordering
 * thread only.
 */
final class SenderQueues<T> {
    private final int replicas;
    private final int capacity;
    private final List<Queue<T>> queues = new ArrayList<>();
    /** Per lane: messages admitted (reserved or queued) and not yet polled; never above {@code capacity}. */
    private final AtomicInteger[] held;
    private final AtomicLongArray dropped;
    private final AtomicInteger total = new AtomicInteger();
    /** The lane served first by the next poll; the ordering thread's. */
    private int next;

    /**
     * @param replicas the group's replicas, one lane each; a further lane for every other sender
     * @param capacity messages each lane holds before its sender's next ones are dropped
     */
    SenderQueues(int replicas, int capacity) {
        if (replicas < 1 || capacity < 1) {
            throw new IllegalArgumentException("replicas and capacity must be positive: " + replicas + ", " + capacity);
        }
        this.replicas = replicas;
        this.capacity = capacity;
        this.held = new AtomicInteger[replicas + 1];
        for (int i = 0; i <= replicas; i++) {
            queues.add(new ConcurrentLinkedQueue<>());
            held[i] = new AtomicInteger();
        }
        this.dropped = new AtomicLongArray(replicas + 1);
    }

    /** The lane of a message whose envelope claims {@code sender}: its own for a replica, else the shared one. */
    int lane(int sender) {
        return sender >= 0 && sender < replicas ? sender : replicas;
    }

    /**
     * Room for one more message in {@code lane}, held until {@link #add} or {@link #release}; false, counted as
     * dropped, when the lane is full. Called before the message's signature is checked, so a flood's excess costs
     * no verification.
     */
    boolean reserve(int lane) {
        if (held[lane].incrementAndGet() > capacity) {
            held[lane].decrementAndGet();
            dropped.incrementAndGet(lane);
            return false;
        }
        total.incrementAndGet();
        return true;
    }

    /** A reserved message, queued in its lane. */
    void add(int lane, T message) {
        queues.get(lane).add(message);
    }

    /** A reservation given up without a message. */
    void release(int lane) {
        held[lane].decrementAndGet();
        total.decrementAndGet();
    }

    /** The next message in turn: the first of the next non-empty lane after the one served last; null if none. */
    T poll() {
        int lanes = replicas + 1;
        for (int i = 0; i < lanes; i++) {
            int l = (next + i) % lanes;
            T m = queues.get(l).poll();
            if (m != null) {
                held[l].decrementAndGet();
                total.decrementAndGet();
                next = (l + 1) % lanes;
                return m;
            }
        }
        return null;
    }

    /** Messages admitted and not yet polled, all lanes. */
    int size() {
        return total.get();
    }

    /** Messages admitted and not yet polled in one lane. */
    int held(int lane) {
        return held[lane].get();
    }

    /** Messages dropped in one lane because it was full. */
    long dropped(int lane) {
        return dropped.get(lane);
    }

    /** Messages dropped in all lanes. */
    long dropped() {
        long sum = 0;
        for (int i = 0; i < dropped.length(); i++) {
            sum += dropped.get(i);
        }
        return sum;
    }

    int lanes() {
        return replicas + 1;
    }

    int capacity() {
        return capacity;
    }
}
