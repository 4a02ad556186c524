package org.bftws.perf.echo;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.bftws.perf.Stats;

/**
 * Experiment 1's load (BFT-WS paper §4.1.1): {@code clients} callers on their own threads call with no think
 * time; calls started in the warm-up or not finished within the measurement window are not counted. Two hooks
 * run on the driver's thread when the window opens and when it closes (the latency breakdown snapshots its
 * counters and CPU clocks there).
 */
public final class ClosedLoop {
    private ClosedLoop() {
    }

    @FunctionalInterface
    public interface CallerFactory {
        EchoMode.Caller newCaller() throws Exception;
    }

    /**
     * The counted calls' latencies, errors in the window, the first error seen (warm-up included; or why the
     * window is empty) or null, and calls completed per second of the window.
     */
    public record Result(Stats.Latency latency, int errors, String failure, double throughput) {
    }

    /** Without hooks. */
    public static Result run(CallerFactory factory, EchoPayload payload, int clients, long warmupMillis,
            long measureMillis, PrintStream progress) throws Exception {
        return run(factory, payload, clients, warmupMillis, measureMillis, () -> { }, () -> { }, progress);
    }

    public static Result run(CallerFactory factory, EchoPayload payload, int clients, long warmupMillis,
            long measureMillis, Runnable atStart, Runnable atEnd, PrintStream progress) throws Exception {
        List<EchoMode.Caller> callers = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(clients, r -> {
            Thread t = new Thread(r, "perf-echo-client");
            t.setDaemon(true);
            return t;
        });
        try {
            for (int i = 0; i < clients; i++) {
                callers.add(factory.newCaller());
            }
            firstCalls(pool, callers, payload);
            long measureFrom = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(warmupMillis);
            long measureTo = measureFrom + TimeUnit.MILLISECONDS.toNanos(measureMillis);
            List<Future<Samples>> futures = new ArrayList<>();
            for (EchoMode.Caller caller : callers) {
                futures.add(pool.submit(() -> loop(caller, payload, measureFrom, measureTo)));
            }
            sleepUntil(measureFrom);
            atStart.run();
            sleepUntil(measureTo);
            atEnd.run();
            long[] all = new long[0];
            int count = 0;
            int errors = 0;
            String failure = null;
            for (Future<Samples> f : futures) {
                Samples s = f.get(warmupMillis + measureMillis + 2 * ServiceClientCaller.TIMEOUT_MS,
                        TimeUnit.MILLISECONDS);
                if (all.length < count + s.count) {
                    all = Arrays.copyOf(all, count + s.count);
                }
                System.arraycopy(s.nanos, 0, all, count, s.count);
                count += s.count;
                errors += s.errors;
                if (failure == null) {
                    failure = s.firstError;
                }
            }
            if (count == 0 && failure == null) {
                failure = "no call completed in the measurement window";
            }
            return new Result(Stats.latency(all, count), errors, failure, count / (measureMillis / 1000.0));
        } finally {
            pool.shutdownNow();
            pool.awaitTermination(ServiceClientCaller.TIMEOUT_MS, TimeUnit.MILLISECONDS);
            for (EchoMode.Caller c : callers) {
                try {
                    c.close();
                } catch (Exception e) {
                    progress.println("perf: closing a client failed: " + e);
                }
            }
        }
    }

    /** The window's edges are times, not conditions: the driver waits for the clock. */
    private static void sleepUntil(long nanoTime) throws InterruptedException {
        for (long left = nanoTime - System.nanoTime(); left > 0; left = nanoTime - System.nanoTime()) {
            TimeUnit.NANOSECONDS.sleep(left);
        }
    }

    /**
     * One call per new caller, all at once, before the clock starts. A caller's first call sets up its WS-RM
     * sequence; with BFT-WS a replica whose Sandesha2 has not yet processed the CreateSequence refuses the
     * sequence's first request (docs/module.md, "Which sequences a replica orders requests of"), and if that replica is
     * the primary the call waits
     * for the client's retransmission (2 s): set-up, not steady state, and long enough to leave a short window
     * empty. A failing first call is not an error here: the measured loop records what persists.
     */
    private static void firstCalls(ExecutorService pool, List<EchoMode.Caller> callers, EchoPayload payload)
            throws InterruptedException {
        List<Future<Integer>> first = new ArrayList<>();
        for (EchoMode.Caller c : callers) {
            first.add(pool.submit(() -> c.echo(payload)));
        }
        for (Future<Integer> f : first) {
            try {
                f.get(2 * ServiceClientCaller.TIMEOUT_MS, TimeUnit.MILLISECONDS);
            } catch (ExecutionException | TimeoutException e) {
                // counted (or not) by the measured loop
            }
        }
    }

    /** Latencies of one caller's counted calls. */
    private static final class Samples {
        long[] nanos = new long[1024];
        int count;
        int errors;
        String firstError;

        void add(long n) {
            if (count == nanos.length) {
                nanos = Arrays.copyOf(nanos, count * 2);
            }
            nanos[count++] = n;
        }
    }

    private static Samples loop(EchoMode.Caller caller, EchoPayload payload, long measureFrom, long measureTo) {
        Samples s = new Samples();
        while (!Thread.currentThread().isInterrupted()) {
            long t0 = System.nanoTime();
            if (t0 >= measureTo) {
                break;
            }
            try {
                caller.echo(payload);
                long t1 = System.nanoTime();
                if (t0 >= measureFrom && t1 <= measureTo) {
                    s.add(t1 - t0);
                }
            } catch (Exception e) {
                if (t0 >= measureFrom) {
                    s.errors++;
                }
                if (s.firstError == null) {
                    s.firstError = e.toString();
                }
            }
        }
        return s;
    }
}
