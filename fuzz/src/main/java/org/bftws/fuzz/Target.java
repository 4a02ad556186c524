package org.bftws.fuzz;

/** One part of a replica's intake under the fuzzer. */
interface Target {
    /** What one input did. */
    enum Outcome {
        /** Refused or taken as the input it is, with no change it must not make. */
        HANDLED,
        /** Something other than the intake's refusal escaped: an exception the caller (Axis2) would not expect. */
        CRASH,
        /** An input that is no authentic message changed the replica's state. */
        STATE_CHANGE
    }

    String name();

    /** The well-formed inputs the mutations start from. */
    java.util.List<byte[]> corpus();

    Outcome feed(byte[] input);

    /** What the last {@link Outcome#CRASH} or {@link Outcome#STATE_CHANGE} was, for the report. */
    String lastFinding();

    /** Releases what the target holds (a server, its threads) once the run is over. */
    default void close() {
    }
}
