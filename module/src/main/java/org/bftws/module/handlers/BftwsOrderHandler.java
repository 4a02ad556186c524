package org.bftws.module.handlers;

import org.apache.axis2.AxisFault;
import org.apache.axis2.context.MessageContext;
import org.bftws.module.BftwsRuntime;
import org.bftws.module.config.BftwsConfig;
import org.bftws.module.order.BftwsReplica;
import org.bftws.module.transport.ControlMessage;

/**
 * The second half of the BFT-WS In Handler (paper §3.3.1.4), in RMPhase after SandeshaInHandler: a group
 * client's application message that Sandesha2 has accepted (known sequence, message number recorded,
 * SequenceAcknowledgement sent; Sandesha2's InOrder invoker is off on replicas, see BftwsModule) goes to
 * the Total Order Manager, and the flow stops here: the service runs only when the Total Order Invoker
 * executes the ordered request (§3.3.1.7), never on this thread. {@link BftwsInHandler} checked the
 * client's signature and left the rebuilt request on the message context.
 */
public class BftwsOrderHandler extends BftwsHandler {
    /** Message context property: the verified request {@link BftwsInHandler} rebuilt from the message. */
    static final String REQUEST = "org.bftws.replica.request";

    @Override
    protected InvocationResponse invokeReplicated(MessageContext msgContext, BftwsConfig config) throws AxisFault {
        Object request = msgContext.getProperty(REQUEST);
        if (!config.isReplica() || !(request instanceof ControlMessage m)) {
            return InvocationResponse.CONTINUE;
        }
        msgContext.removeProperty(REQUEST);
        BftwsReplica replica = BftwsRuntime.replica(msgContext.getConfigurationContext());
        if (replica == null) {
            throw Refusal.fault("BFT-WS: this replica is stopping");
        }
        replica.deliverClientRequest(m);
        return InvocationResponse.ABORT;
    }
}
