package org.bftws.module.transport;

import java.util.concurrent.atomic.AtomicLong;

/** What the Multicast Sender did, per message and destination; read by tests, logs and experiments. */
final class SenderCounters {
    /** Messages a destination answered with HTTP 2xx. */
    final AtomicLong acknowledged = new AtomicLong();
    /** Messages a destination answered with a SOAP fault or another refusal: received, not retransmitted. */
    final AtomicLong refused = new AtomicLong();
    /** POSTs that failed (connection, timeout, 5xx without a SOAP fault). */
    final AtomicLong failedPosts = new AtomicLong();
    /** Waiting messages dropped because a destination's buffer was full. */
    final AtomicLong dropped = new AtomicLong();
    /** Messages released unacknowledged: retransmission limit reached, or the destination was down. */
    final AtomicLong givenUp = new AtomicLong();
    /** HTTP POSTs started, retransmissions included. */
    final AtomicLong posts = new AtomicLong();
    /** Bytes of the SOAP envelopes those POSTs carried (HTTP headers and responses not counted). */
    final AtomicLong postedBytes = new AtomicLong();
}
