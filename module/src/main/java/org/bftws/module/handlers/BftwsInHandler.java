package org.bftws.module.handlers;

import org.apache.axiom.om.OMElement;
import org.apache.axis2.AxisFault;
import org.apache.axis2.context.MessageContext;
import org.apache.axis2.description.AxisOperation;
import org.apache.axis2.description.AxisService;
import org.bftws.module.config.BftwsConfig;
import org.bftws.module.rm.ClientUuidElement;
import org.bftws.module.transport.ControlPort;

/**
 * BFT-WS In Handler (paper §3.3.1.4). Runs in BFTWSPhase, after Dispatch (so only for services and
 * operations with bftws engaged, and for the module's own RM operations) and before SandeshaInHandler in
 * RMPhase.
 *
 * <p>On a replica, BFT-WS control messages (dispatched to the control port service, recognised by service
 * name, not by a client-chosen action) pass on to the control port, which feeds the Total Order Manager;
 * client requests arrive there too, as signed core requests. An application request sent straight to one
 * replica's service endpoint is refused with a SOAP fault: executing it outside the total order would make
 * this replica's state diverge from the others'. WS-RM protocol messages (the module's Sandesha2
 * operations) pass: they change no application state. A CreateSequence must carry the client UUID
 * (§3.3.1.1), from which Sandesha2's storage hook derives the sequence id every replica agrees on; one
 * without it, or with a malformed one, is refused with a SOAP fault before Sandesha2 creates anything.
 *
 * <p>On a client, the voted response the Out Handler built passes through unchanged.
 */
public class BftwsInHandler extends BftwsHandler {
    @Override
    protected InvocationResponse invokeReplicated(MessageContext msgContext, BftwsConfig config)
            throws AxisFault {
        if (!config.isReplica()) {
            return InvocationResponse.CONTINUE;
        }
        AxisService service = msgContext.getAxisService();
        if (service == null || ControlPort.SERVICE_NAME.equals(service.getName())) {
            return InvocationResponse.CONTINUE;
        }
        AxisOperation op = msgContext.getAxisOperation();
        if (op != null && op.isControlOperation()) {
            requireClientUuid(msgContext);
            return InvocationResponse.CONTINUE;
        }
        throw Refusal.fault("BFT-WS: service " + service.getName() + " is replicated; send requests to its"
                + " replica group (bftws engaged with bftws.replicated=true), not to one replica");
    }

    private static void requireClientUuid(MessageContext msgContext) throws AxisFault {
        OMElement createSequence = ClientUuidElement.createSequenceOf(msgContext.getEnvelope());
        if (createSequence == null) {
            return;
        }
        String problem;
        try {
            problem = ClientUuidElement.read(createSequence) == null ? "no " + ClientUuidElement.NAME + " in it" : null;
        } catch (IllegalArgumentException e) {
            problem = e.getMessage();
        }
        if (problem != null) {
            throw Refusal.fault("BFT-WS: CreateSequence refused (" + problem + "): a replica group's sequence id"
                    + " is derived from the client UUID (BFT-WS paper §3.3.1.1)");
        }
    }
}
