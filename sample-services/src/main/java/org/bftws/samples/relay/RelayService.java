package org.bftws.samples.relay;

import org.apache.axiom.om.OMElement;
import org.apache.axis2.AxisFault;
import org.apache.axis2.context.MessageContext;

/**
 * The middle tier of the three-tier echo (BFT-WS paper §3.4, §4.1.2): an echo service that does not answer
 * by itself but relays the request to a backend echo service and answers with the backend's reply, which
 * it awaits before replying ("it won't respond to the request until it has received the response to the
 * nested echo request"). Request and reply have echo's shape (wsdl/relay.wsdl), so a caller of echo can
 * call the relay unchanged.
 *
 * <p>Deployed on a replica group, each replica relays as a BFT-WS client of the backend group
 * ({@link BackendCall}); the reply the middle replicas vote on is the backend's voted reply, unchanged, or
 * a fault derived only from the backend's voted fault, so the middle replicas cannot diverge.
 *
 * <p>No lambdas and no string {@code +} here: Axis2 1.7 parses service bytecode (docs/design/dependencies.md).
 */
public class RelayService {
    /** The echo operation, relayed. */
    public OMElement echo(OMElement request) throws AxisFault {
        MessageContext current = MessageContext.getCurrentMessageContext();
        if (current == null || current.getAxisService() == null) {
            throw new AxisFault("relay: no service context to find the backend in");
        }
        return BackendCall.of(current.getAxisService()).relay(request);
    }
}
