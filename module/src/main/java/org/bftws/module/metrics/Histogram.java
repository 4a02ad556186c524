package org.bftws.module.metrics;

import java.util.concurrent.atomic.LongAdder;

/**
 * A latency histogram with fixed bucket bounds in seconds, as Prometheus's histogram type expects (cumulative
 * {@code _bucket{le=...}}, {@code _sum}, {@code _count}). Thread-safe, and cheap enough for every ordering step:
 * a scan of {@value #BUCKETS} bounds and two {@link LongAdder} increments.
 */
public final class Histogram {
    /** Upper bounds in seconds: half a millisecond (a local step) to ten seconds (a view change's wait). */
    static final double[] BOUNDS = {0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10};
    static final int BUCKETS = 14;
    private static final long[] BOUNDS_NANOS = nanos(BOUNDS);

    /** Per bucket (not cumulative), the last one for observations above every bound (+Inf). */
    private final LongAdder[] counts = new LongAdder[BOUNDS.length + 1];
    private final LongAdder sumNanos = new LongAdder();

    public Histogram() {
        for (int i = 0; i < counts.length; i++) {
            counts[i] = new LongAdder();
        }
    }

    /** Counts one observation of {@code nanos} (negative counts as 0). */
    public void observeNanos(long nanos) {
        long v = Math.max(0, nanos);
        int i = 0;
        while (i < BOUNDS_NANOS.length && v > BOUNDS_NANOS[i]) {
            i++;
        }
        counts[i].increment();
        sumNanos.add(v);
    }

    /** The counts now: cumulative per bound, +Inf last (which is the count), and the sum in seconds. */
    public Snapshot snapshot() {
        long[] cumulative = new long[counts.length];
        long running = 0;
        for (int i = 0; i < counts.length; i++) {
            running += counts[i].sum();
            cumulative[i] = running;
        }
        return new Snapshot(cumulative, sumNanos.sum() / 1e9);
    }

    /**
     * @param cumulative observations at or below each of {@link #BOUNDS}, then all of them
     * @param sumSeconds their sum
     */
    public record Snapshot(long[] cumulative, double sumSeconds) {
        public long count() {
            return cumulative[cumulative.length - 1];
        }
    }

    private static long[] nanos(double[] seconds) {
        if (seconds.length != BUCKETS) {
            throw new IllegalStateException("BUCKETS must be the number of bounds");
        }
        long[] n = new long[seconds.length];
        for (int i = 0; i < seconds.length; i++) {
            n[i] = Math.round(seconds[i] * 1e9);
        }
        return n;
    }
}
