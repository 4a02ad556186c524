package org.bftws.module.handlers;

import org.apache.axis2.AxisFault;
import org.apache.axis2.context.MessageContext;
import org.bftws.module.config.BftwsConfig;

/**
 * BFT-WS Global In Handler (paper §3.3.1.3). Runs in PreDispatch, a global phase: after Security (Rampart
 * has verified the message) and before Dispatch, where SandeshaGlobalInHandler is phaseFirst and drops
 * duplicates. Only from there can it keep Sandesha2 from dropping the replicas' matching replies on the
 * client, which the voter needs, while leaving duplicate suppression on the server side.
 */
public class BftwsGlobalInHandler extends BftwsHandler {
    @Override
    protected InvocationResponse invokeReplicated(MessageContext msgContext, BftwsConfig config)
            throws AxisFault {
        throw notYetReplicated("Global In Handler");
    }
}
