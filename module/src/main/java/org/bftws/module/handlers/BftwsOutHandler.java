package org.bftws.module.handlers;

import org.apache.axis2.AxisFault;
import org.apache.axis2.context.MessageContext;
import org.bftws.module.config.BftwsConfig;

/**
 * BFT-WS Out Handler (paper §3.3.1.1). Runs in BFTWSPhase, just before SandeshaOutHandler in RMPhase and
 * before Rampart signs in the Security phase, so what it adds to a CreateSequence (the client UUID in the
 * extensibility element) is signed with the rest. Sandesha2 out-flow handlers run several times per
 * logical message (DEPENDENCIES.md): whatever this handler adds must be idempotent.
 */
public class BftwsOutHandler extends BftwsHandler {
    @Override
    protected InvocationResponse invokeReplicated(MessageContext msgContext, BftwsConfig config)
            throws AxisFault {
        throw notYetReplicated("Out Handler");
    }
}
