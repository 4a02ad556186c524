package org.bftws.module.transport;

import java.util.concurrent.atomic.AtomicLong;

import org.apache.axis2.AxisFault;
import org.apache.axis2.context.MessageContext;
import org.apache.axis2.engine.MessageReceiver;
import org.apache.logging.log4j.LogManager;
import org.bftws.module.RateLimitedLog;
import org.bftws.module.handlers.Refusal;

/**
 * The message receiver of the control port's one-way operation: extracts the payload and hands it to the
 * {@link ControlSink}. The rule for answers: what is not a control message in form (not well-formed, a
 * DTD, another element, not base64, above {@code bftws.control.maxMessageBytes}) gets a SOAP fault with
 * one fixed reason, {@value #REFUSED}, whatever the cause, and a short log line (never the message itself:
 * docs/design/style.md). Everything well-formed is answered 202 and judged later by its signature on the ordering
 * thread (forged, replayed, unknown sequence, wrong sender: dropped, recorded as evidence). So the port
 * tells an unauthenticated sender only what the public message format already says, never whether a
 * signature, sequence or key was right.
 */
final class ControlMessageReceiver implements MessageReceiver {
    private static final RateLimitedLog LOG = new RateLimitedLog(LogManager.getLogger(ControlMessageReceiver.class));
    static final String REFUSED = "BFT-WS: not a control message";

    private final ControlSink sink;
    private final int maxBytes;
    private final ControlGuard guard;
    private final AtomicLong refused = new AtomicLong();

    ControlMessageReceiver(ControlSink sink, int maxBytes, ControlGuard guard) {
        this.sink = sink;
        this.maxBytes = maxBytes;
        this.guard = guard;
    }

    @Override
    public void receive(MessageContext msgContext) throws AxisFault {
        ControlMessage m;
        try {
            m = ControlMessage.read(msgContext.getEnvelope().getBody().getFirstElement(), maxBytes)
                    .from((String) msgContext.getProperty(MessageContext.REMOTE_ADDR));
        } catch (RuntimeException e) {
            long n = refused.incrementAndGet();
            LOG.warn("not a control message", "control port refused a message ({} refused so far): {}", n,
                    e.getMessage());
            throw Refusal.fault(REFUSED);
        }
        if (guard.admit(msgContext.getEnvelope(), m)) {
            sink.deliver(m);
        }
    }

    long refused() {
        return refused.get();
    }
}
