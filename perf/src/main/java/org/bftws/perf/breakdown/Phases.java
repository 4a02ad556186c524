package org.bftws.perf.breakdown;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.bftws.core.message.Kind;
import org.bftws.module.metrics.PhaseTrace;
import org.bftws.module.metrics.PhaseTrace.Point;
import org.bftws.module.metrics.PhaseTrace.Step;

/**
 * One ordered request's latency cut into the PBFT phases (Castro-Liskov §4.2) and, inside each, into what
 * the timestamps of {@link PhaseTrace} can tell apart: queueing, HTTP/SOAP transport, signature checks and
 * the ordering thread's steps. Everything is seen from the replica whose reply completed the client's vote
 * (the (f+1)-th matching reply): the request's critical path. Each boundary is clamped to be no earlier than
 * the one before (a message that arrived before its phase began, and was kept, waited for nothing), so the
 * parts of a request always add up to its traced latency, from the client's invoke to the vote.
 */
final class Phases {
    /** The phases in order, each with its parts in order: the CSV's and the plot's order. */
    static final Map<String, List<String>> PARTS = parts();

    private static Map<String, List<String>> parts() {
        Map<String, List<String>> m = new LinkedHashMap<>();
        m.put("client to replicas", List.of("client sign + out-flow + HTTP + replica in-flow", "verify client signature",
                "Sandesha2 + hand-off", "ordering queue"));
        m.put("pre-prepare", List.of("batching wait at primary", "primary step (sign)", "transport", "verify",
                "ordering queue", "step (sign)"));
        m.put("prepare", List.of("waiting for peers", "transport", "verify", "ordering queue", "step (sign)"));
        m.put("commit", List.of("waiting for peers", "transport", "verify", "ordering queue", "step (sign)"));
        m.put("execution", List.of("execution queue", "execute"));
        m.put("reply", List.of("ordering queue", "step (sign reply)", "transport"));
        m.put("vote", List.of("verify + vote"));
        return m;
    }

    private final int n;
    /** Sum of every part's nanoseconds over the requests analysed, in {@link #PARTS} order. */
    private final Map<String, double[]> sums = new LinkedHashMap<>();
    private int requests;

    Phases(int n) {
        this.n = n;
        for (Map.Entry<String, List<String>> e : PARTS.entrySet()) {
            sums.put(e.getKey(), new double[e.getValue().size()]);
        }
    }

    /** Analyses every request the client saw voted in the trace; returns how many had every point. */
    int addAll() {
        for (long k : PhaseTrace.ids(Point.CLIENT_VOTED, -1)) {
            add(k);
        }
        return requests;
    }

    /** Requests analysed. */
    int requests() {
        return requests;
    }

    /** Mean milliseconds of {@code phase}'s part {@code index} over the requests analysed. */
    double meanMs(String phase, int index) {
        return requests == 0 ? 0 : sums.get(phase)[index] / requests / 1e6;
    }

    /** Mean milliseconds of {@code phase}. */
    double meanMs(String phase) {
        double t = 0;
        for (int i = 0; i < PARTS.get(phase).size(); i++) {
            t += meanMs(phase, i);
        }
        return t;
    }

    private void add(long k) {
        Step voted = PhaseTrace.step(Point.CLIENT_VOTED, -1, k);
        Long invoke = PhaseTrace.time(Point.CLIENT_INVOKE, -1, k);
        Long seqBox = PhaseTrace.time(Point.BATCH_OF, -1, k);
        if (voted == null || invoke == null || seqBox == null || voted.sender() < 0) {
            return;
        }
        long seq = seqBox;
        int d = voted.sender();
        int p = primary(seq);
        Step request = PhaseTrace.step(Point.REQUEST_DEQUEUED, p, k);
        Step primaryStep = p < 0 ? null : PhaseTrace.step(Point.PRE_PREPARED, p, seq);
        Step atD = PhaseTrace.step(Point.PRE_PREPARED, d, seq);
        Step prepared = PhaseTrace.step(Point.PREPARED, d, seq);
        Step committed = PhaseTrace.step(Point.COMMITTED, d, seq);
        Long execStart = PhaseTrace.time(Point.EXECUTION_START, d, seq);
        Long execEnd = PhaseTrace.time(Point.EXECUTION_END, d, seq);
        Long executed = PhaseTrace.time(Point.EXECUTED_DEQUEUED, d, seq);
        Long replied = PhaseTrace.time(Point.REPLY_SENT, d, seq);
        if (request == null || primaryStep == null || atD == null || prepared == null || committed == null
                || execStart == null || execEnd == null || executed == null || replied == null) {
            return;
        }
        Cursor c = new Cursor(invoke);
        c.to("client to replicas", 0, PhaseTrace.time(Point.REQUEST_IN, p, k));
        c.to("client to replicas", 1, PhaseTrace.time(Point.REQUEST_VERIFIED, p, k));
        c.to("client to replicas", 2, request.arrived());
        c.to("client to replicas", 3, request.dequeued());
        c.to("pre-prepare", 0, primaryStep.dequeued());
        c.to("pre-prepare", 1, primaryStep.end());
        if (d != p) {
            message("pre-prepare", 2, c, atD);
        }
        c.to("prepare", 0, emitted(prepared, seq));
        message("prepare", 1, c, prepared);
        c.to("commit", 0, emitted(committed, seq));
        message("commit", 1, c, committed);
        c.to("execution", 0, execStart);
        c.to("execution", 1, execEnd);
        c.to("reply", 0, executed);
        c.to("reply", 1, replied);
        c.to("reply", 2, voted.arrived());
        c.to("vote", 0, voted.end());
        for (Map.Entry<String, double[]> e : c.parts.entrySet()) {
            double[] sum = sums.get(e.getKey());
            for (int i = 0; i < sum.length; i++) {
                sum[i] += e.getValue()[i];
            }
        }
        requests++;
    }

    /** A received message's way from the sender's HTTP POST to the end of the step that processed it. */
    private static void message(String phase, int first, Cursor c, Step s) {
        c.to(phase, first, s.sender() < 0 ? null : nonZero(s.arrived()));
        c.to(phase, first + 1, s.sender() < 0 ? null : nonZero(s.verified()));
        c.to(phase, first + 2, s.dequeued());
        c.to(phase, first + 3, s.end());
    }

    /** When the sender of the step's input handed that message to its Multicast Sender, or null. */
    private static Long emitted(Step s, long seq) {
        if (s.sender() < 0) {
            return null;
        }
        Kind kind = s.kind() == 0 ? null : Kind.of(s.kind());
        Point p = kind == Kind.PRE_PREPARE ? Point.EMIT_PRE_PREPARE : kind == Kind.PREPARE ? Point.EMIT_PREPARE
                : kind == Kind.COMMIT ? Point.EMIT_COMMIT : null;
        return p == null ? null : PhaseTrace.time(p, s.sender(), seq);
    }

    private static Long nonZero(long t) {
        return t == 0 ? null : t;
    }

    /** The replica that sent the pre-prepare for {@code seq}, or -1. */
    private int primary(long seq) {
        for (int r = 0; r < n; r++) {
            if (PhaseTrace.time(Point.EMIT_PRE_PREPARE, r, seq) != null) {
                return r;
            }
        }
        return -1;
    }

    /** Walks the boundaries of one request, each clamped to be no earlier than the one before. */
    private static final class Cursor {
        final Map<String, double[]> parts = new LinkedHashMap<>();
        long at;

        Cursor(long start) {
            this.at = start;
            for (Map.Entry<String, List<String>> e : PARTS.entrySet()) {
                parts.put(e.getKey(), new double[e.getValue().size()]);
            }
        }

        /** Part {@code index} of {@code phase} lasts until {@code t} (null: it took no measurable time). */
        void to(String phase, int index, Long t) {
            if (t != null && t > at) {
                parts.get(phase)[index] += t - at;
                at = t;
            }
        }
    }
}
