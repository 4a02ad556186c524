package org.bftws.module.metrics;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

import org.bftws.core.engine.Event;

/**
 * What a replica's Total Order Manager counts for its {@code /metrics}: requests ordered and executed, batches,
 * view changes, checkpoints, randomness agreed, and per-phase latency histograms. Always on; written by the
 * ordering and execution threads (one increment or one histogram observation per event), read by any thread.
 *
 * <p>Phases: {@link Phase#QUEUE} from a control message's arrival to the ordering thread taking it; {@link
 * Phase#STEP} one step of core on the ordering thread; {@link Phase#AGREEMENT} from a batch's pre-prepare
 * (sent or accepted) to its commit at this replica (PBFT's three phases, Castro-Liskov §4.2; the asynchronous
 * engine has no pre-prepare, so none there); {@link Phase#EXECUTION} one ordered batch on the execution thread.
 */
public final class OrderingMetrics {
    /** Pre-prepared batches awaiting their commit that are remembered: more than a log window ever holds. */
    static final int MAX_TRACKED = 4096;

    /** The latency histograms, by the label value they get. */
    public enum Phase {
        QUEUE, STEP, AGREEMENT, EXECUTION;

        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    private final LongAdder requestsOrdered = new LongAdder();
    private final LongAdder batchesCommitted = new LongAdder();
    private final LongAdder requestsExecuted = new LongAdder();
    private final LongAdder batchesExecuted = new LongAdder();
    private final LongAdder viewChanges = new LongAdder();
    private final LongAdder viewsEntered = new LongAdder();
    private final LongAdder checkpointsStable = new LongAdder();
    private final LongAdder randomnessAgreed = new LongAdder();
    private final LongAdder readOnlyFallbacks = new LongAdder();
    private volatile long lastCommitted;
    private final Map<Phase, Histogram> phases = new EnumMap<>(Phase.class);
    /** seq → nanoTime of its pre-prepare here; ordering thread only, bounded by {@link #MAX_TRACKED}. */
    private final Map<Long, Long> prePrepared = new LinkedHashMap<>(64, 0.75f, false) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, Long> eldest) {
            return size() > MAX_TRACKED;
        }
    };

    public OrderingMetrics() {
        for (Phase p : Phase.values()) {
            phases.put(p, new Histogram());
        }
    }

    /** An event the ordering thread performed at {@code nanoTime}; ordering thread only. */
    public void onEvent(Event e, long nanoTime) {
        if (e instanceof Event.PrePrepared p) {
            prePrepared.putIfAbsent(p.seq(), nanoTime);
        } else if (e instanceof Event.Committed c) {
            batchesCommitted.increment();
            requestsOrdered.add(c.batch().size());
            lastCommitted = Math.max(lastCommitted, c.seq());
            Long start = prePrepared.remove(c.seq());
            if (start != null) {
                phases.get(Phase.AGREEMENT).observeNanos(nanoTime - start);
            }
        } else if (e instanceof Event.ViewChangeStarted) {
            viewChanges.increment();
        } else if (e instanceof Event.ViewEntered) {
            viewsEntered.increment();
        } else if (e instanceof Event.CheckpointStable) {
            checkpointsStable.increment();
        } else if (e instanceof Event.RandomnessAgreed) {
            randomnessAgreed.increment();
        } else if (e instanceof Event.ReadOnlyFallback) {
            readOnlyFallbacks.increment();
        }
    }

    /** An ordered batch of {@code requests} executed in {@code nanos}; execution thread. */
    public void executed(int requests, long nanos) {
        batchesExecuted.increment();
        requestsExecuted.add(requests);
        phases.get(Phase.EXECUTION).observeNanos(nanos);
    }

    /** A control message waited {@code nanos} in the ordering queue. */
    public void dequeued(long nanos) {
        phases.get(Phase.QUEUE).observeNanos(nanos);
    }

    /** One step of core took {@code nanos}. */
    public void stepped(long nanos) {
        phases.get(Phase.STEP).observeNanos(nanos);
    }

    /** Requests in committed batches (the asynchronous engine: in delivered rounds). */
    public long requestsOrdered() {
        return requestsOrdered.sum();
    }

    public long batchesCommitted() {
        return batchesCommitted.sum();
    }

    /** Ordered requests this replica executed (not those it caught up on by state transfer). */
    public long requestsExecuted() {
        return requestsExecuted.sum();
    }

    public long batchesExecuted() {
        return batchesExecuted.sum();
    }

    /** View changes this replica started (Castro-Liskov §4.4). */
    public long viewChanges() {
        return viewChanges.sum();
    }

    public long viewsEntered() {
        return viewsEntered.sum();
    }

    public long checkpointsStable() {
        return checkpointsStable.sum();
    }

    /** Batches whose random numbers the group agreed on with the BA algorithm (integrity paper §4). */
    public long randomnessAgreed() {
        return randomnessAgreed.sum();
    }

    /** Read-only requests that did not get 2f+1 matching replies and were ordered instead (§5.1.3). */
    public long readOnlyFallbacks() {
        return readOnlyFallbacks.sum();
    }

    /** The highest sequence number (asynchronous: round) committed here. */
    public long lastCommitted() {
        return lastCommitted;
    }

    /** The histograms by phase label, in {@link Phase} order. */
    public Map<String, Histogram> phases() {
        Map<String, Histogram> m = new LinkedHashMap<>();
        phases.forEach((p, h) -> m.put(p.label(), h));
        return m;
    }
}
