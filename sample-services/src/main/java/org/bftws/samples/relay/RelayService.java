package org.bftws.samples.relay;

import java.nio.ByteBuffer;

import org.apache.axiom.om.OMElement;
import org.apache.axis2.AxisFault;
import org.apache.axis2.context.MessageContext;
import org.bftws.module.api.StatefulService;

/**
 * The middle tier of the three-tier echo (BFT-WS paper §3.4, §4.1.2): an echo service that does not answer
 * by itself but relays the request to a backend echo service and answers with the backend's reply, which
 * it awaits before replying ("it won't respond to the request until it has received the response to the
 * nested echo request"). Request and reply have echo's shape (wsdl/relay.wsdl), so a caller of echo can
 * call the relay unchanged.
 *
 * <p>Deployed on a replica group, each replica relays as a BFT-WS client of the backend group
 * ({@link BackendCall}); the reply the middle replicas vote on is the backend's voted reply, unchanged, or
 * a fault derived only from the backend's voted fault, so the middle replicas cannot diverge. The middle
 * replicas are one replicated client of the backend (§3.4): their nested calls share one sequence whose
 * message numbers count the nested calls in the middle tier's total order. That count is this service's
 * state, so checkpoints and state transfer carry it and a replica that catches up numbers its next call as
 * the others do; a retry reuses the number.
 *
 * <p>No lambdas and no string {@code +} here: Axis2 1.7 parses service bytecode (docs/design/dependencies.md).
 */
public class RelayService implements StatefulService {
    /** Nested calls made so far, in the total order: the last shared-sequence message number used. */
    private long nestedCalls;

    /** The echo operation, relayed. */
    public OMElement echo(OMElement request) throws AxisFault {
        MessageContext current = MessageContext.getCurrentMessageContext();
        if (current == null || current.getAxisService() == null) {
            throw new AxisFault("relay: no service context to find the backend in");
        }
        long number = nextNumber();
        return BackendCall.of(current.getAxisService()).relay(request, number);
    }

    private synchronized long nextNumber() {
        nestedCalls = nestedCalls + 1;
        return nestedCalls;
    }

    @Override
    public synchronized byte[] getState() {
        return ByteBuffer.allocate(Long.BYTES).putLong(nestedCalls).array();
    }

    @Override
    public synchronized void setState(byte[] state) {
        nestedCalls = state.length == Long.BYTES ? ByteBuffer.wrap(state).getLong() : 0;
    }
}
