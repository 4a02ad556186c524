package org.bftws.module.order;

import java.util.concurrent.atomic.AtomicLong;

import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.bftws.core.message.Kind;
import org.bftws.core.message.Request;
import org.bftws.core.message.Signed;
import org.bftws.module.transport.ControlMessage;
import org.bftws.module.transport.ControlSink;

/**
 * Between the control port and the Total Order Manager: a client request on a sequence this replica does
 * not admit ({@link RequestAdmission}) never reaches ordering (paper §3.3.1.4: only application messages of
 * established sequences are stored for ordering). Everything else passes, pre-prepares included, so the
 * check cannot make correct replicas execute different things: it only decides what this replica would
 * propose as primary or relay as backup.
 *
 * <p>The refusal is logged as evidence (who, which sequence) and counted; the control port still answers
 * 202, as for any refused control message, since the sender is not authenticated at this point.
 */
final class AdmissionFilter implements ControlSink {
    private static final Logger LOG = LogManager.getLogger(AdmissionFilter.class);

    private final ControlSink next;
    private final RequestAdmission admission;
    private final int replicas;
    private final AtomicLong refused = new AtomicLong();

    AdmissionFilter(ControlSink next, RequestAdmission admission, int replicas) {
        this.next = next;
        this.admission = admission;
        this.replicas = replicas;
    }

    @Override
    public void deliver(ControlMessage message) {
        String sequence = clientRequestSequence(message);
        if (sequence != null && !admission.admits(sequence)) {
            long count = refused.incrementAndGet();
            // Powers of two: a flood of such requests cannot flood the log.
            if (Long.bitCount(count) == 1) {
                LOG.warn("refused a client request on sequence {}, which this replica did not create ({} refused so"
                        + " far): the client must send CreateSequence with its UUID first", sequence, count);
            }
            return;
        }
        next.deliver(message);
    }

    /** The sequence id of a client's request, or null for anything else (core judges malformed bytes). */
    private String clientRequestSequence(ControlMessage message) {
        try {
            Signed s = Signed.decode(message.signedBytes());
            return s.kind() == Kind.REQUEST && s.sender() >= replicas ? Request.decode(s.body()).sequenceId() : null;
        } catch (RuntimeException e) { // DecodeException included
            return null;
        }
    }

    long refused() {
        return refused.get();
    }
}
