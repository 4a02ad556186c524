package org.bftws.module;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.Logger;

/**
 * Log lines that a remote party can trigger (a refused request, a fault, evidence against a node), at most
 * one line per cause per interval: the first occurrence is written at once, the others within the interval
 * are counted, and the next line of that cause after the interval says how many were left out. A flood of
 * hostile input thus costs a few lines a minute, however fast it comes.
 *
 * <p>A cause is a fixed text chosen by the caller (never text from the input), so the table of causes is
 * bounded by the call sites; {@link #MAX_CAUSES} bounds it anyway.
 */
public final class RateLimitedLog {
    /** One line per cause per 10 s: a flood costs six lines a minute per cause, a rare event is logged at once. */
    public static final long INTERVAL_MILLIS = 10_000;
    /** Causes tracked at most; past it, new causes share one window ({@link #OTHER}). */
    static final int MAX_CAUSES = 1024;
    static final String OTHER = "other causes";

    private final Logger log;
    private final long intervalNanos;
    private final LongSupplier nanoClock;
    private final Map<String, Window> windows = new ConcurrentHashMap<>();

    public RateLimitedLog(Logger log) {
        this(log, INTERVAL_MILLIS, System::nanoTime);
    }

    RateLimitedLog(Logger log, long intervalMillis, LongSupplier nanoClock) {
        this.log = log;
        this.intervalNanos = intervalMillis * 1_000_000L;
        this.nanoClock = nanoClock;
    }

    /** At WARN: {@code message} (Log4j's {} placeholders) unless {@code cause} was logged within the interval. */
    public boolean warn(String cause, String message, Object... args) {
        return log(Level.WARN, cause, message, args);
    }

    /** As {@link #warn}, at INFO. */
    public boolean info(String cause, String message, Object... args) {
        return log(Level.INFO, cause, message, args);
    }

    private boolean log(Level level, String cause, String message, Object... args) {
        long left = admit(cause);
        if (left < 0) {
            return false;
        }
        log.log(level, left == 0 ? message : message + " (and " + left + " more of this cause left out)", args);
        return true;
    }

    /** -1: count it, write nothing; else write, and this many were left out since the cause's last line. */
    private long admit(String cause) {
        long now = nanoClock.getAsLong();
        Window w = windows.get(cause);
        if (w == null) {
            String key = windows.size() >= MAX_CAUSES ? OTHER : cause;
            w = windows.computeIfAbsent(key, c -> new Window(now - intervalNanos));
        }
        synchronized (w) {
            if (now - w.lastLogged < intervalNanos) {
                w.leftOut++;
                return -1;
            }
            long left = w.leftOut;
            w.lastLogged = now;
            w.leftOut = 0;
            return left;
        }
    }

    private static final class Window {
        long lastLogged;
        long leftOut;

        Window(long lastLogged) {
            this.lastLogged = lastLogged;
        }
    }
}
