package org.bftws.perf.breakdown;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.bftws.perf.echo.EchoMode;
import org.bftws.perf.echo.EchoPayload;

/**
 * Experiment 1's closed loop (clients call with no think time; only calls that start and end inside the
 * measurement window count) with two hooks run on the driver's thread exactly when the window opens and
 * closes, where the breakdown snapshots its counters and CPU clocks.
 */
final class ClosedLoop {
    private ClosedLoop() {
    }

    @FunctionalInterface
    interface CallerFactory {
        EchoMode.Caller newCaller() throws Exception;
    }

    /** Calls counted, their mean latency, and calls per second of the window. */
    record Result(long calls, int errors, double meanMs, double throughput) {
    }

    private record Counted(long calls, long nanos, int errors) {
    }

    static Result run(CallerFactory factory, EchoPayload payload, int clients, long warmupMillis, long measureMillis,
            Runnable atStart, Runnable atEnd) throws Exception {
        List<EchoMode.Caller> callers = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(clients, r -> {
            Thread t = new Thread(r, "perf-breakdown-client");
            t.setDaemon(true);
            return t;
        });
        try {
            for (int i = 0; i < clients; i++) {
                callers.add(factory.newCaller());
            }
            List<Future<?>> first = new ArrayList<>();
            for (EchoMode.Caller c : callers) {
                first.add(pool.submit(() -> c.echo(payload))); // sets up the client's sequence
            }
            for (Future<?> f : first) {
                f.get(60, TimeUnit.SECONDS);
            }
            long from = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(warmupMillis);
            long to = from + TimeUnit.MILLISECONDS.toNanos(measureMillis);
            List<Future<Counted>> loops = new ArrayList<>();
            for (EchoMode.Caller c : callers) {
                loops.add(pool.submit(() -> loop(c, payload, from, to)));
            }
            sleepUntil(from);
            atStart.run();
            sleepUntil(to);
            atEnd.run();
            long calls = 0;
            long nanos = 0;
            int errors = 0;
            for (Future<Counted> f : loops) {
                Counted c = f.get(warmupMillis + measureMillis + 60_000, TimeUnit.MILLISECONDS);
                calls += c.calls();
                nanos += c.nanos();
                errors += c.errors();
            }
            return new Result(calls, errors, calls == 0 ? 0 : nanos / 1e6 / calls, calls * 1000.0 / measureMillis);
        } finally {
            pool.shutdownNow();
            pool.awaitTermination(30, TimeUnit.SECONDS);
            for (EchoMode.Caller c : callers) {
                c.close();
            }
        }
    }

    private static Counted loop(EchoMode.Caller caller, EchoPayload payload, long from, long to) {
        long calls = 0;
        long nanos = 0;
        int errors = 0;
        for (long t0 = System.nanoTime(); t0 < to && !Thread.currentThread().isInterrupted(); t0 = System.nanoTime()) {
            try {
                caller.echo(payload);
                long t1 = System.nanoTime();
                if (t0 >= from && t1 <= to) {
                    calls++;
                    nanos += t1 - t0;
                }
            } catch (Exception e) {
                errors += t0 >= from ? 1 : 0;
            }
        }
        return new Counted(calls, nanos, errors);
    }

    /** The window's edges are times, not conditions: the driver waits for the clock. */
    private static void sleepUntil(long nanoTime) throws InterruptedException {
        long left;
        while ((left = nanoTime - System.nanoTime()) > 0) {
            TimeUnit.NANOSECONDS.sleep(left);
        }
    }
}
