package org.bftws.client.embedded;

import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.axiom.om.OMElement;
import org.apache.axiom.soap.SOAPHeader;
import org.apache.axis2.AxisFault;
import org.apache.axis2.context.MessageContext;
import org.apache.axis2.description.HandlerDescription;
import org.apache.axis2.engine.Phase;
import org.apache.axis2.handlers.AbstractHandler;

/**
 * Test handler placed in the server's global Transport phase: it records, for every incoming message, the
 * SOAP action and the WS-RM 1.1 {@code Sequence} header (identifier and message number) if present, so a
 * test can prove the messages really travelled in a WS-RM sequence. Records nothing else of the envelope.
 */
final class SequenceHeaderRecorder extends AbstractHandler {
    static final String WSRM11 = "http://docs.oasis-open.org/ws-rx/wsrm/200702";

    /** What one message carried; sequenceId and messageNumber are null without a Sequence header. */
    record Seen(String action, String sequenceId, Long messageNumber) {
    }

    private final List<Seen> seen = new CopyOnWriteArrayList<>();

    SequenceHeaderRecorder() {
        HandlerDescription d = new HandlerDescription("SequenceHeaderRecorder");
        d.setHandler(this);
        init(d);
    }

    /** Adds this handler to the end of {@code phaseName} of the global in-flow. */
    void installInto(List<Phase> inFlowPhases, String phaseName) {
        for (Phase p : inFlowPhases) {
            if (p.getPhaseName().equals(phaseName)) {
                p.addHandler(this);
                return;
            }
        }
        throw new IllegalStateException("no phase " + phaseName);
    }

    List<Seen> seen() {
        return List.copyOf(seen);
    }

    @Override
    public InvocationResponse invoke(MessageContext msgContext) throws AxisFault {
        String action = msgContext.getSoapAction();
        SOAPHeader header = msgContext.getEnvelope() == null ? null : msgContext.getEnvelope().getHeader();
        OMElement sequence = header == null ? null : child(header, WSRM11, "Sequence");
        if (sequence == null) {
            seen.add(new Seen(action, null, null));
        } else {
            OMElement id = child(sequence, WSRM11, "Identifier");
            OMElement number = child(sequence, WSRM11, "MessageNumber");
            seen.add(new Seen(action, id == null ? null : id.getText().trim(),
                    number == null ? null : Long.valueOf(number.getText().trim())));
        }
        return InvocationResponse.CONTINUE;
    }

    private static OMElement child(OMElement parent, String ns, String localName) {
        Iterator<OMElement> it = parent.getChildElements();
        while (it.hasNext()) {
            OMElement e = it.next();
            if (localName.equals(e.getLocalName()) && ns.equals(e.getNamespaceURI())) {
                return e;
            }
        }
        return null;
    }
}
