package org.bftws.module.invoker;

import org.apache.axis2.AxisFault;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.context.MessageContext;
import org.apache.axis2.description.TransportOutDescription;
import org.apache.axis2.handlers.AbstractHandler;
import org.apache.axis2.transport.TransportSender;

/**
 * The "transport" of responses to ordered requests: it sends nothing. The Total Order Invoker runs a request
 * through the service's message receiver, which passes the response through the normal out-flow (so handlers
 * engaged on the service see it as usual) and then hands it here; the invoker reads the response envelope
 * from the operation context afterwards and turns it into the result that the replica signs.
 */
final class CapturingTransportSender extends AbstractHandler implements TransportSender {
    static final String NAME = "bftws-total-order-invoker";

    static TransportOutDescription description() {
        TransportOutDescription d = new TransportOutDescription(NAME);
        d.setSender(new CapturingTransportSender());
        return d;
    }

    @Override
    public InvocationResponse invoke(MessageContext msgContext) {
        return InvocationResponse.CONTINUE;
    }

    @Override
    public void init(ConfigurationContext confContext, TransportOutDescription transportOut) throws AxisFault {
    }

    @Override
    public void cleanup(MessageContext msgContext) throws AxisFault {
    }

    @Override
    public void stop() {
    }
}
