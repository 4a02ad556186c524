package org.bftws.module.transport;

import java.util.concurrent.atomic.AtomicLong;

import org.apache.axis2.AxisFault;
import org.apache.axis2.context.MessageContext;
import org.apache.axis2.engine.MessageReceiver;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * The message receiver of the control port's one-way operation: extracts the payload and hands it to the
 * {@link ControlSink}. Anything malformed is dropped with a short log line (never the message itself:
 * STYLE.md) and still answered 202, because the sender is unauthenticated at this point and a fault would
 * only tell a prober what we parse.
 */
final class ControlMessageReceiver implements MessageReceiver {
    private static final Logger LOG = LogManager.getLogger(ControlMessageReceiver.class);

    private final ControlSink sink;
    private final int maxBytes;
    private final AtomicLong refused = new AtomicLong();

    ControlMessageReceiver(ControlSink sink, int maxBytes) {
        this.sink = sink;
        this.maxBytes = maxBytes;
    }

    @Override
    public void receive(MessageContext msgContext) throws AxisFault {
        ControlMessage m;
        try {
            m = ControlMessage.read(msgContext.getEnvelope().getBody().getFirstElement(), maxBytes);
        } catch (RuntimeException e) {
            long n = refused.incrementAndGet();
            // Powers of two: a flood of garbage cannot flood the log.
            if (Long.bitCount(n) == 1) {
                LOG.warn("control port refused a message ({} refused so far): {}", n, e.getMessage());
            }
            return;
        }
        sink.deliver(m);
    }

    long refused() {
        return refused.get();
    }
}
