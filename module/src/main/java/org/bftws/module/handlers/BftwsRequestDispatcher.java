package org.bftws.module.handlers;

import javax.xml.namespace.QName;

import org.apache.axis2.AxisFault;
import org.apache.axis2.context.MessageContext;
import org.apache.axis2.description.AxisOperation;
import org.apache.axis2.description.AxisService;
import org.bftws.module.config.BftwsConfig;
import org.bftws.module.rm.ReceivedRequest;

/**
 * On a replica, dispatches a group client's application message whose action the service does not know
 * to the module's {@value #OPERATION} operation, in the Addressing phase before Axis2's
 * AddressingBasedDispatcher would refuse it with an ActionNotSupported fault. The message is ordered like
 * any other: the Total Order Invoker looks the action up when it executes the request (§3.3.1.7), so every
 * correct replica answers it with the same fault, which the client gets as the voted result. The operation's
 * receiver never runs: {@link BftwsOrderHandler} stops the flow before it. With {@code bftws.security=rampart}
 * the message passes Rampart in the Security phase first, like any message to the service: the client's
 * WS-Security signature ({@link org.bftws.module.security.ApplicationMessageSigner}) must satisfy the
 * service's policy.
 */
public class BftwsRequestDispatcher extends BftwsHandler {
    /** The module operation (module.xml) every bftws-engaged service gets. */
    public static final String OPERATION = "BftwsApplicationRequest";

    @Override
    protected InvocationResponse invokeReplicated(MessageContext msgContext, BftwsConfig config) throws AxisFault {
        AxisService service = msgContext.getAxisService();
        if (!config.isReplica() || service == null || msgContext.getEnvelope() == null
                || !ReceivedRequest.isPresent(msgContext)) {
            return InvocationResponse.CONTINUE;
        }
        if (msgContext.getAxisOperation() != null || service.getOperationByAction(msgContext.getWSAAction()) != null) {
            return InvocationResponse.CONTINUE;
        }
        AxisOperation op = service.getOperation(new QName(OPERATION));
        if (op != null) {
            msgContext.setAxisOperation(op);
        }
        return InvocationResponse.CONTINUE;
    }
}
