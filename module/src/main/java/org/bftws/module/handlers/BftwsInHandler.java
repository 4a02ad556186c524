package org.bftws.module.handlers;

import org.apache.axis2.AxisFault;
import org.apache.axis2.context.MessageContext;
import org.bftws.module.config.BftwsConfig;

/**
 * BFT-WS In Handler (paper §3.3.1.4). Runs in BFTWSPhase, after Dispatch (so only for services and
 * operations with bftws engaged, and for the module's own RM/BFT operations) and before SandeshaInHandler
 * in RMPhase: on a replica, application requests go to the ordering queue and BFT control messages to the
 * Total Order Manager; on a client, replies go to the voter.
 */
public class BftwsInHandler extends BftwsHandler {
    @Override
    protected InvocationResponse invokeReplicated(MessageContext msgContext, BftwsConfig config)
            throws AxisFault {
        throw notYetReplicated("In Handler");
    }
}
