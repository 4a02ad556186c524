package org.bftws.module.handlers;

import org.apache.axis2.AxisFault;
import org.apache.axis2.context.MessageContext;
import org.apache.axis2.engine.MessageReceiver;

/**
 * The receiver of the module's {@value BftwsRequestDispatcher#OPERATION} operation. Application messages
 * dispatched there are ordered and executed by the Total Order Invoker; reaching this receiver means the
 * flow bypassed ordering (bftws not configured as a replica), so it refuses.
 */
public class OrderedOnlyReceiver implements MessageReceiver {
    @Override
    public void receive(MessageContext msgContext) throws AxisFault {
        throw Refusal.fault("BFT-WS: application requests are executed only in the replica group's total order");
    }
}
