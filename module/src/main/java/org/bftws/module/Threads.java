package org.bftws.module;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Stopping the module's own threads. When the module shuts down (Axis2 terminating its context, e.g. a servlet
 * container undeploying the Axis2 web application), every thread it started must have ended, not merely been
 * told to: the container then checks for threads still running the application's classes and reports them as
 * leaks, since each would keep the old class loader alive across a redeploy.
 */
public final class Threads {
    /** How long a stopping executor may take to finish its current task. */
    private static final long STOP_SECONDS = 5;

    private Threads() {
    }

    /** Interrupts {@code executor}'s threads and waits (bounded) until they ended. */
    public static void stop(ExecutorService executor) {
        executor.shutdownNow();
        try {
            executor.awaitTermination(STOP_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
