package org.bftws.perf.echo;

import java.nio.file.Path;

/**
 * One way of serving and calling the echo service, measured side by side with the others in the same run
 * (experiment 1). A mode is one class: {@link EchoModes} lists them, and a mode that cannot run
 * here says why in {@link #unavailableReason()}, so its rows read "not available" instead of a number.
 */
public interface EchoMode {
    /** Short name used in the CSV and the plots, e.g. {@code plain}, {@code wsrm}, {@code bftws}. */
    String name();

    /** One line for RESULTS.md: what runs where. */
    String description();

    /** Why this mode cannot be measured here, or null if it can. */
    default String unavailableReason() {
        return null;
    }

    /** Whether this mode has an operation for {@code payload} (only some have a randomized one). */
    default boolean supports(EchoPayload payload) {
        return !payload.isRandomized();
    }

    /**
     * Starts everything the mode needs (servers, replicas, client contexts) under {@code work}; the returned
     * deployment stops all of it when closed, also when {@code start} itself fails half-way.
     */
    Deployment start(EchoSetup setup, Path work) throws Exception;

    /** A running mode. Closing it stops every server and thread it started. */
    interface Deployment extends AutoCloseable {
        /** A new client of the echo service; each concurrent client of the experiment gets its own. */
        Caller newCaller() throws Exception;

        /**
         * Called once the startup warm-up calls are done, before the first measurement: a deployment that injects
         * a fault (a slow replica) does it here, so that warming the JIT up does not wait for the fault.
         */
        default void warmedUp() {
        }

        @Override
        void close() throws Exception;
    }

    /** One client: one call at a time, on the thread that calls it. */
    interface Caller extends AutoCloseable {
        /** Sends one echo request and returns the number of elements in the reply. */
        int echo(EchoPayload payload) throws Exception;

        @Override
        void close() throws Exception;
    }
}
