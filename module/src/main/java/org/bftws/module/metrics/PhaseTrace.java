package org.bftws.module.metrics;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Monotonic timestamps ({@link System#nanoTime()}) of one ordered request's way through the group, for the
 * latency breakdown of the performance suite ({@code scripts/perf breakdown}, docs/performance.md). Off unless
 * the system property {@code bftws.trace.phases} is {@code true} or {@link #start()} was called; while off, every
 * hook costs one volatile read. All clocks are one JVM's only where the client and every replica run in it (the perf
 * suite); points are keyed by node and by request (sequence id and number) or by sequence number, never matched
 * by time.
 *
 * <p>Points stay in memory until {@link #clear()} (a few per request and replica): tracing is for measurement
 * runs, not for a deployed group. Each point keeps its first recording: a retransmission or a second copy does
 * not move it. Core stays untouched; the ordering thread's points come from the messages, events and effects
 * core returns ({@link OrderingTrace}).
 */
public final class PhaseTrace {
    /** Where a timestamp was taken; see {@link OrderingTrace} and the hooks that record each. */
    public enum Point {
        /** Client, per request: the Out Handler hands the operation to core (core signs it). */
        CLIENT_INVOKE,
        /**
         * Client: f+1 matching authentic replies, a {@link Step}: {@code arrived} when the reply that completed
         * the vote reached its sequence (after the control port's HTTP and SOAP handling), {@code end} when core's
         * Voter delivered, {@code sender} the replica whose reply it was.
         */
        CLIENT_VOTED,
        /** Replica, per request: the In Handler starts on the client's application message. */
        REQUEST_IN,
        /** Replica: the In Handler has rebuilt the request and checked the client's signature. */
        REQUEST_VERIFIED,
        /** Replica: the ordering thread (Total Order Manager) takes the request from its queue. */
        REQUEST_DEQUEUED,
        /** Replica, per request: the sequence number of its batch (a value, not a time). */
        BATCH_OF,
        /** Per (sender, seq): the sender's ordering thread hands a pre-prepare / prepare / commit to the sender. */
        EMIT_PRE_PREPARE, EMIT_PREPARE, EMIT_COMMIT,
        /** Replica, per seq: the step that accepted the pre-prepare (backup) or sent it (primary). */
        PRE_PREPARED,
        /** Replica, per seq: the step after which it sent its commit (prepared, Castro-Liskov §4.2). */
        PREPARED,
        /** Replica, per seq: the step that committed the batch (core's Event.Committed). */
        COMMITTED,
        /** Replica, per seq: the execution thread starts and ends the batch. */
        EXECUTION_START, EXECUTION_END,
        /** Replica, per seq: the ordering thread takes the results from its queue. */
        EXECUTED_DEQUEUED,
        /** Replica, per seq: the step that signed the reply certificate and sent the replies. */
        REPLY_SENT
    }

    /**
     * The input a step of the ordering thread processed: when its bytes reached this replica's HTTP worker
     * ({@code arrived}), when their signature check there ended ({@code verified}), when the ordering thread
     * took it ({@code dequeued}), when the step ended ({@code end}), and who sent it ({@code sender}, -1 for
     * no message, e.g. a tick) and its kind's wire code ({@code Kind.code()}, 0 for none). Times are {@link
     * System#nanoTime()}.
     */
    public record Step(long arrived, long verified, long dequeued, long end, int sender, int kind) {
    }

    private record Key(Point point, int node, long id) {
    }

    private static volatile boolean on = Boolean.getBoolean("bftws.trace.phases");
    private static final Map<Key, Object> MARKS = new ConcurrentHashMap<>();

    private PhaseTrace() {
    }

    public static boolean on() {
        return on;
    }

    /** Forgets every point and starts recording. */
    public static void start() {
        MARKS.clear();
        on = true;
    }

    /** Stops recording; what was recorded stays readable. */
    public static void stop() {
        on = false;
    }

    /** Forgets every point (the memory a long traced run holds). */
    public static void clear() {
        MARKS.clear();
    }

    /** A request's key: its WS-RM sequence id and message number (core's RequestId). */
    public static long request(String sequenceId, long messageNumber) {
        return ((long) sequenceId.hashCode() << 32) ^ messageNumber;
    }

    public static void mark(Point point, int node, long id, long value) {
        if (on) {
            MARKS.putIfAbsent(new Key(point, node, id), value);
        }
    }

    public static void mark(Point point, int node, long id, Step step) {
        if (on) {
            MARKS.putIfAbsent(new Key(point, node, id), step);
        }
    }

    /** The ids recorded for {@code point} at {@code node}. */
    public static List<Long> ids(Point point, int node) {
        List<Long> ids = new ArrayList<>();
        for (Key k : MARKS.keySet()) {
            if (k.point() == point && k.node() == node) {
                ids.add(k.id());
            }
        }
        return ids;
    }

    /** The value recorded, or null. */
    public static Long time(Point point, int node, long id) {
        return MARKS.get(new Key(point, node, id)) instanceof Long l ? l : null;
    }

    /** The step recorded, or null. */
    public static Step step(Point point, int node, long id) {
        return MARKS.get(new Key(point, node, id)) instanceof Step s ? s : null;
    }
}
