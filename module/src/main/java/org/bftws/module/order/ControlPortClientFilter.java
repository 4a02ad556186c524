package org.bftws.module.order;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntPredicate;

import org.apache.logging.log4j.LogManager;
import org.bftws.module.RateLimitedLog;
import org.bftws.core.message.Kind;
import org.bftws.core.message.Signed;
import org.bftws.module.transport.ControlMessage;
import org.bftws.module.transport.ControlSink;

/**
 * Between the control port and the Total Order Manager of a replica whose clients' requests arrive as WS-RM
 * application messages through Sandesha2 (paper §3.3.1.2–3.3.1.4): a client request on the control port
 * bypasses Sandesha2 (no sequence check, no message-number record), so it never reaches ordering. Replicas
 * never send each other client requests (clients multicast to all; a primary learns requests from the
 * clients, backups from pre-prepares), so everything else passes, pre-prepares carrying requests included:
 * a replica that missed a sequence's CreateSequence still executes what the group ordered. The replicas' own
 * key generation operations ({@link DkgBootstrap}), requests of node ids after the clients', pass too. So do read-only
 * requests (Castro-Liskov §5.1.3): they are no messages of a WS-RM sequence and are never ordered, so clients
 * send them here, and core checks them (signature, sequence owner, operation declared read-only).
 *
 * <p>The refusal is logged (rate-limited) and counted; the control port still answers 202, as for any
 * refused control message, since the sender is not authenticated at this point.
 */
final class ControlPortClientFilter implements ControlSink {
    private static final RateLimitedLog LOG = new RateLimitedLog(LogManager.getLogger(ControlPortClientFilter.class));

    private final ControlSink next;
    /** The first client node id ({@code bftws.maxReplicas}, n when not given). */
    private final int clientBase;
    private final AtomicLong refused = new AtomicLong();
    /** Node ids whose requests are the replicas' own key generation operations ({@link DkgBootstrap}). */
    private final IntPredicate replicaSubmitter;

    ControlPortClientFilter(ControlSink next, int clientBase) {
        this(next, clientBase, node -> false);
    }

    ControlPortClientFilter(ControlSink next, int clientBase, IntPredicate replicaSubmitter) {
        this.next = next;
        this.clientBase = clientBase;
        this.replicaSubmitter = replicaSubmitter;
    }

    @Override
    public void deliver(ControlMessage message) {
        if (isClientRequest(message)) {
            long count = refused.incrementAndGet();
            LOG.warn("client request", "refused a client request on the control port ({} refused so far): clients"
                    + " send WS-RM application messages to the service endpoint", count);
            return;
        }
        next.deliver(message);
    }

    /** A client's request (core judges malformed bytes). */
    private boolean isClientRequest(ControlMessage message) {
        try {
            Signed s = Signed.decode(message.signedBytes());
            return s.kind() == Kind.REQUEST && s.sender() >= clientBase && !replicaSubmitter.test(s.sender());
        } catch (RuntimeException e) { // DecodeException included
            return false;
        }
    }

    long refused() {
        return refused.get();
    }
}
