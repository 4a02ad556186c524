package org.bftws.module.transport;

import java.time.Duration;

import org.bftws.module.config.BftwsKeys;

/**
 * How the {@link MulticastSender} buffers and retransmits (BFT-WS paper §3.3.1.2: "a message to be multicast
 * is kept in the buffer until the acknowledgement from all destinations have been collected, or a predefined
 * retransmission limit has been exceeded"). The first four are axis2.xml keys, declared with their defaults
 * and rules in {@link BftwsKeys}; the others are fixed here.
 *
 * @param window           messages sent to one destination and not yet acknowledged (in flight, or waiting to
 *                         be retransmitted): at most this many POSTs to it are in flight at once
 * @param retransmissions  retransmissions of one message after its first POST failed, before the destination is
 *                         given up and marked down
 * @param retransmitMillis wait before the first retransmission; it doubles for each further one
 * @param bufferBytes      bytes of messages waiting for a window slot, per destination, before the oldest waiting
 *                         one is dropped
 * @param bufferMessages   messages waiting for a window slot, per destination, before the oldest is dropped
 * @param timeout          connect and response timeout of one POST; a timeout counts as a failed POST
 */
public record MulticastSettings(int window, int retransmissions, int retransmitMillis, int bufferBytes,
        int bufferMessages, Duration timeout) {

    /** One POST: far above a loopback, LAN or emulated-WAN round trip; not a key (a replica's peers are alike). */
    public static final Duration TIMEOUT_DEFAULT = Duration.ofSeconds(2);
    /** Waiting messages per destination: bounds the bookkeeping of many tiny messages; not a key. */
    public static final int BUFFER_MESSAGES_DEFAULT = 1024;
    /** Longest wait between two probes of a destination marked down (see {@link #probeMillis}). */
    static final int PROBE_MAX_MILLIS = 5000;

    public MulticastSettings {
        if (window < 1 || retransmissions < 0 || retransmitMillis < 1 || bufferBytes < 1 || bufferMessages < 1
                || timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("invalid multicast settings: " + window + "/" + retransmissions
                    + "/" + retransmitMillis + "/" + bufferBytes + "/" + bufferMessages + "/" + timeout);
        }
    }

    /** The defaults of the axis2.xml keys, declared with their reasons in {@link BftwsKeys}. */
    public static MulticastSettings defaults() {
        return new MulticastSettings(BftwsKeys.MULTICAST_WINDOW.defaultValue(),
                BftwsKeys.MULTICAST_RETRANSMISSIONS.defaultValue(), BftwsKeys.MULTICAST_RETRANSMIT_MILLIS.defaultValue(),
                BftwsKeys.MULTICAST_BUFFER_BYTES.defaultValue(), BUFFER_MESSAGES_DEFAULT, TIMEOUT_DEFAULT);
    }

    /** The same with another per-destination message limit and POST timeout. */
    public MulticastSettings withBuffer(int messages, Duration postTimeout) {
        return new MulticastSettings(window, retransmissions, retransmitMillis, bufferBytes, messages, postTimeout);
    }

    /** The same with another window. */
    public MulticastSettings withWindow(int w) {
        return new MulticastSettings(w, retransmissions, retransmitMillis, bufferBytes, bufferMessages, timeout);
    }

    /** Wait before retransmission number {@code k} (1-based): {@code retransmitMillis · 2^(k-1)}. */
    public long backoffMillis(int k) {
        return (long) retransmitMillis << Math.min(k - 1, 20);
    }

    /**
     * Wait between probes of a destination marked down: the next backoff step, at most 5 s, so a replica that
     * comes back is found again within a few of PBFT's retransmission periods.
     */
    public long probeMillis() {
        return Math.min(backoffMillis(retransmissions + 1), PROBE_MAX_MILLIS);
    }
}
