package org.bftws.perf.recovery;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.BooleanSupplier;

import org.apache.axis2.context.ConfigurationContext;
import org.bftws.core.engine.Event;
import org.bftws.perf.Machine;
import org.bftws.perf.Stats;
import org.bftws.perf.echo.ReplicaGroup;

/**
 * The three measurements of {@link RecoveryExperiment} on one running group: engine events timed on every
 * replica ({@link EventLog}) and one {@link SteadyClient}. Each returns its CSV values after the key columns.
 * Waits are on conditions with generous bounds, never on guessed durations.
 */
final class RecoveryRuns implements AutoCloseable {
    /** Bound of every wait: far above anything these measurements take even on a loaded machine. */
    static final long WAIT_MS = 120_000;

    private final ReplicaGroup group;
    private final int interval;
    private final EventLog[] logs;
    private final SteadyClient client;

    RecoveryRuns(ReplicaGroup group, String endpoint, int interval) throws Exception {
        this.group = group;
        this.interval = interval;
        this.logs = new EventLog[group.n()];
        for (int r = 0; r < group.n(); r++) {
            logs[r] = EventLog.attach(group.manager(r), interval);
        }
        this.client = new SteadyClient(group.clientContext(), endpoint);
    }

    /**
     * Fig. 9: after {@code warmup} checkpoints, {@code measured} more; per replica and checkpoint, the commit
     * of the checkpoint's batch to the replica's own checkpoint (taken only where it preceded stability:
     * core skips a checkpoint that is already stable) and from it to stability.
     */
    List<String> checkpoints(int warmup, int measured) throws Exception {
        await("a stable checkpoint at " + warmup * interval, () -> group.manager(0).stableCheckpoint() >= warmup * interval);
        long from = group.manager(0).stableCheckpoint();
        long to = from + (long) measured * interval;
        int replies0 = client.replies();
        long t0 = System.nanoTime();
        for (int r = 0; r < group.n(); r++) {
            int id = r;
            await("replica " + r + " stable at " + to, () -> group.manager(id).stableCheckpoint() >= to);
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        double callsPerSecond = (client.replies() - replies0) / seconds;
        List<Double> capture = new ArrayList<>();
        List<Double> toStable = new ArrayList<>();
        for (EventLog log : logs) {
            for (long seq = from + interval; seq <= to; seq += interval) {
                long s = seq;
                long committed = log.first(e -> e instanceof Event.Committed c && c.seq() == s);
                long taken = log.first(e -> e instanceof Event.CheckpointTaken t && t.seq() == s);
                long stable = log.first(e -> e instanceof Event.CheckpointStable t && t.seq() == s);
                if (committed >= 0 && taken >= 0 && stable >= taken) {
                    capture.add((taken - committed) / 1e6);
                    toStable.add((stable - taken) / 1e6);
                }
            }
        }
        double getState = 0;
        for (int r = 0; r < group.n(); r++) {
            StateService svc = StateService.of(group.context(r));
            getState += svc == null ? 0 : svc.meanGetStateNanos() / 1e6 / group.n();
        }
        if (capture.isEmpty()) {
            return failed(8, new IllegalStateException("no checkpoint taken before it was stable"));
        }
        return List.of(String.valueOf(capture.size()), fmt(Stats.median(capture)), fmt(getState),
                fmt(Stats.median(toStable)), fmt(Collections.max(capture)), fmt(callsPerSecond), "ok", "");
    }

    /**
     * Fig. 10: replica {@code r} stops, the others take a checkpoint without it, and it restarts empty at its
     * endpoint. Times from the end of its restart: until it learned a stable checkpoint (and sent fetch-state),
     * the paper's transfer latency from that fetch-state until set_state restored the state, and until the
     * restored service executed a request again.
     */
    List<String> stateTransfer(int r) throws Exception {
        ConfigurationContext old = group.context(r);
        long stableAtStop = group.manager(0).stableCheckpoint();
        group.stop(r);
        StateService.forget(old);
        await("a checkpoint without replica " + r, () -> group.manager(0).stableCheckpoint() >= stableAtStop + interval);
        long t0 = System.nanoTime();
        group.restartEmpty(r);
        long t1 = System.nanoTime();
        EventLog log = EventLog.attach(group.manager(r), interval);
        ConfigurationContext ctx = group.context(r);
        await("replica " + r + " executes again after state transfer", () -> StateService.of(ctx) != null
                && StateService.of(ctx).firstExecutedAfterSetState() != 0);
        StateService svc = StateService.of(ctx);
        long learned = log.first(e -> e instanceof Event.CheckpointStable);
        long installed = log.first(e -> e instanceof Event.StateInstalled);
        if (learned < 0 || installed < 0) {
            return failed(7, new IllegalStateException("the listener missed the state transfer's events"));
        }
        long seq = group.manager(r).stableCheckpoint();
        for (EventLog.Timed t : log.snapshot()) {
            if (t.event() instanceof Event.StateInstalled si) {
                seq = si.seq();
                break;
            }
        }
        return List.of(String.valueOf(seq), fmt((t1 - t0) / 1e6), fmt((learned - t1) / 1e6),
                fmt((svc.setStateAt() - learned) / 1e6), fmt((svc.firstExecutedAfterSetState() - t1) / 1e6), "ok", "");
    }

    /**
     * Fig. 11: after {@code warmup} checkpoints, when interval-1 batches executed past the stable checkpoint,
     * the primary of view 0 stops. The client's outage is the
     * longest gap between consecutive replies from the last one before the stop on; the view change is
     * timed at the new primary (replica 1) from its view-change start to its entering view 1 (the paper's
     * measure: short when the new primary joins last, on its peers' view-change messages), at the slowest
     * backup, and group-wide from the first backup's view-change start to the new primary entering view 1.
     */
    List<String> viewChange(int warmup, long timeoutMs) throws Exception {
        await("a stable checkpoint at " + warmup * interval, () -> group.manager(1).stableCheckpoint() >= warmup * interval);
        // Stop when the view change must carry the most: interval-1 batches prepared since the stable checkpoint
        // (§4.2.3: what a view-change message holds grows with the checkpoint interval).
        await("interval-1 batches past the stable checkpoint", () -> group.manager(1).lastExecuted()
                - group.manager(1).stableCheckpoint() >= interval - 1);
        long sinceStable = group.manager(1).lastExecuted() - group.manager(1).stableCheckpoint();
        int before = client.replies();
        long stop = System.nanoTime();
        group.stop(0);
        await("3 replies after the primary stopped", () -> client.replies() >= before + 3);
        for (int r = 1; r < group.n(); r++) {
            int id = r;
            await("replica " + r + " in view 1", () -> group.manager(id).view() >= 1);
        }
        long[] gapAndEnd = longestGap(before);
        long gap = gapAndEnd[0];
        long gapEnd = gapAndEnd[1];
        double primary = viewChangeMs(logs[1]);
        double slowest = primary;
        long firstStart = Long.MAX_VALUE;
        for (int r = 1; r < group.n(); r++) {
            slowest = Math.max(slowest, viewChangeMs(logs[r]));
            long started = logs[r].first(RecoveryRuns::startsView1);
            firstStart = started < 0 ? firstStart : Math.min(firstStart, started);
        }
        long entered = logs[1].first(e -> e instanceof Event.ViewEntered v && v.view() == 1);
        if (primary < 0 || entered < 0) {
            return failed(9, new IllegalStateException("replica 1 did not log the change to view 1"));
        }
        return List.of(String.valueOf(sinceStable), fmt(gap / 1e6), fmt((gapEnd - stop) / 1e6), fmt(primary),
                fmt(slowest), fmt((entered - firstStart) / 1e6), String.valueOf(timeoutMs), "ok", "");
    }

    /**
     * A crashed leader under any ordering engine: after {@code warmup} checkpoints, the replica that leads now
     * (PBFT's primary, view mod n; the hybrid engine's leader, epoch mod n; under async, with no leader,
     * replica 0) stops. The client's outage is the longest gap between consecutive replies from the last one
     * before the stop on, and stop-to-reply the time from the stop to the end of that gap: what a client sees
     * of a view change, of a hybrid fallback, or of nothing.
     */
    List<String> crash(int warmup, long timeoutMs) throws Exception {
        await("a stable checkpoint at " + warmup * interval, () -> group.manager(1).stableCheckpoint() >= warmup * interval);
        long viewBefore = group.manager(1).view();
        int leader = (int) (viewBefore % group.n());
        int before = client.replies();
        long stop = System.nanoTime();
        group.stop(leader);
        await("3 replies after replica " + leader + " stopped", () -> client.replies() >= before + 3);
        long[] gapAndEnd = longestGap(before);
        long gap = gapAndEnd[0];
        long gapEnd = gapAndEnd[1];
        long viewAfter = 0;
        for (int r = 0; r < group.n(); r++) {
            viewAfter = r == leader ? viewAfter : Math.max(viewAfter, group.manager(r).view());
        }
        return List.of(String.valueOf(leader), fmt(gap / 1e6), fmt((gapEnd - stop) / 1e6),
                viewBefore + "->" + viewAfter, String.valueOf(timeoutMs), "ok", "");
    }

    /** The client's longest gap between consecutive replies from reply {@code before} on, and its end. */
    private long[] longestGap(int before) {
        long[] t = client.replyTimes();
        long gap = 0;
        long gapEnd = 0;
        for (int i = Math.max(1, before); i < t.length; i++) {
            if (t[i] - t[i - 1] > gap) {
                gap = t[i] - t[i - 1];
                gapEnd = t[i];
            }
        }
        return new long[] {gap, gapEnd};
    }

    private static boolean startsView1(Event e) {
        return e instanceof Event.ViewChangeStarted v && v.view() == 1;
    }

    private static double viewChangeMs(EventLog log) {
        long started = log.first(RecoveryRuns::startsView1);
        long entered = log.first(e -> e instanceof Event.ViewEntered v && v.view() == 1);
        return started < 0 || entered < 0 ? -1 : (entered - started) / 1e6;
    }

    /** A row's values for a failed measurement: {@code count} columns, empty up to status and note. */
    static List<String> failed(int count, Exception e) {
        List<String> v = new ArrayList<>(Collections.nCopies(count - 2, ""));
        v.add("failed");
        v.add(e.toString());
        return v;
    }

    private void await(String what, BooleanSupplier condition) throws Exception {
        long deadline = System.nanoTime() + WAIT_MS * 1_000_000;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("timed out waiting for " + what + " (client: " + client.replies()
                        + " replies, " + client.errors() + " errors, first " + client.firstError() + ")");
            }
            Thread.sleep(2); // polling interval of the condition, not a guess at how long something takes
        }
    }

    private static String fmt(double v) {
        return Machine.fmt(v);
    }

    @Override
    public void close() throws Exception {
        client.close();
    }
}
