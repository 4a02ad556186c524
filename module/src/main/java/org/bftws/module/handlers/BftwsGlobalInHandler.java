package org.bftws.module.handlers;

import org.apache.axis2.context.MessageContext;
import org.bftws.module.config.BftwsConfig;

/**
 * BFT-WS Global In Handler (paper §3.3.1.3). Runs in PreDispatch, a global phase: after Security (Rampart
 * has verified the message) and before Dispatch, where SandeshaGlobalInHandler is phaseFirst and drops
 * duplicates.
 *
 * <p>Nothing to do yet: the paper needs it to keep Sandesha2 from dropping the replicas' matching replies on
 * the client, but group clients currently receive replies on their control port, outside WS-RM (see
 * {@link BftwsOutHandler}), so Sandesha2's duplicate filter never sees them.
 */
public class BftwsGlobalInHandler extends BftwsHandler {
    @Override
    protected InvocationResponse invokeReplicated(MessageContext msgContext, BftwsConfig config) {
        return InvocationResponse.CONTINUE;
    }
}
