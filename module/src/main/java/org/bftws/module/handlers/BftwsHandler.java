package org.bftws.module.handlers;

import org.apache.axis2.AxisFault;
import org.apache.axis2.context.MessageContext;
import org.apache.axis2.handlers.AbstractHandler;
import org.bftws.module.BftwsRuntime;
import org.bftws.module.config.BftwsConfig;

/**
 * Common shape of the BFT-WS handlers. Each reads the configuration validated at start-up; without a
 * replica group it does nothing, and Sandesha2's handlers (declared beside ours in module.xml) give plain
 * WS-RM — the backward compatibility of paper §3.3.1. With a group, the subclass acts.
 */
abstract class BftwsHandler extends AbstractHandler {
    @Override
    public final InvocationResponse invoke(MessageContext msgContext) throws AxisFault {
        BftwsConfig config = BftwsRuntime.config(msgContext);
        if (!config.replicated()) {
            return InvocationResponse.CONTINUE;
        }
        return invokeReplicated(msgContext, config);
    }

    /** Processing with a configured replica group; subclasses delegate to the protocol components. */
    protected abstract InvocationResponse invokeReplicated(MessageContext msgContext, BftwsConfig config)
            throws AxisFault;
}
