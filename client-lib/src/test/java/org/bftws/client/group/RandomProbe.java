package org.bftws.client.group;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import javax.xml.namespace.QName;

import org.apache.axiom.soap.SOAPHeader;
import org.apache.axis2.AxisFault;
import org.apache.axis2.context.MessageContext;
import org.apache.axis2.description.AxisOperation;
import org.apache.axis2.description.HandlerDescription;
import org.apache.axis2.engine.AxisConfiguration;
import org.apache.axis2.engine.Phase;
import org.apache.axis2.handlers.AbstractHandler;
import org.apache.axis2.wsdl.WSDLConstants;
import org.bftws.module.api.CollectiveRandom;

/**
 * Test handler on a replica's response path of one operation (phase OperationOutPhase): for every request
 * the replica executed, it records the request's deterministic id ({@code urn:bftws:request:SEQ#N}, given
 * by the Total Order Invoker) and the collective random number the service was handed with it, as the
 * {@code <bftws:Random>} header said and as {@link CollectiveRandom}'s property said ("" when absent), and
 * the whole SOAP header the service saw, as a third party would capture it.
 */
final class RandomProbe extends AbstractHandler {
    /** What the service received with one request. */
    record Seen(String header, String property, String captured) {
    }

    private final Map<String, Seen> seen = new ConcurrentHashMap<>();

    private RandomProbe() {
        HandlerDescription d = new HandlerDescription("RandomProbe");
        d.setHandler(this);
        init(d);
    }

    /** A probe on operation {@code operation} of service {@code service} of one replica. */
    static RandomProbe on(AxisConfiguration axis, String service, String operation) throws AxisFault {
        AxisOperation op = axis.getService(service).getOperation(new QName(operation));
        RandomProbe probe = new RandomProbe();
        for (Object o : op.getPhasesOutFlow()) {
            Phase p = (Phase) o;
            if (p.getPhaseName().equals("OperationOutPhase")) {
                p.addHandler(probe);
                return probe;
            }
        }
        throw new IllegalStateException("no OperationOutPhase on " + operation);
    }

    /** True when each probe has seen at least {@code count} requests. */
    static boolean allSeen(RandomProbe[] probes, int count) {
        for (RandomProbe p : probes) {
            if (p.seen().size() < count) {
                return false;
            }
        }
        return true;
    }

    /** Request id → what came with it. */
    Map<String, Seen> seen() {
        return Map.copyOf(seen);
    }

    @Override
    public InvocationResponse invoke(MessageContext msgContext) throws AxisFault {
        MessageContext request = msgContext.getOperationContext() == null ? null
                : msgContext.getOperationContext().getMessageContext(WSDLConstants.MESSAGE_LABEL_IN_VALUE);
        if (request != null && request.getMessageID() != null) {
            Object property = request.getProperty(CollectiveRandom.PROPERTY);
            SOAPHeader header = request.getEnvelope().getHeader();
            seen.put(request.getMessageID(), new Seen(CollectiveRandom.hex(CollectiveRandom.fromHeader(request.getEnvelope())),
                    CollectiveRandom.hex(property instanceof byte[] b ? b : null), header == null ? "" : header.toString()));
        }
        return InvocationResponse.CONTINUE;
    }
}
