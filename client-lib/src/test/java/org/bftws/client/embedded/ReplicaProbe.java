package org.bftws.client.embedded;

import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import javax.xml.namespace.QName;

import org.apache.axiom.om.OMElement;
import org.apache.axis2.AxisFault;
import org.apache.axis2.context.MessageContext;
import org.apache.axis2.description.AxisOperation;
import org.apache.axis2.description.HandlerDescription;
import org.apache.axis2.engine.Phase;
import org.apache.axis2.handlers.AbstractHandler;
import org.apache.axis2.wsdl.WSDLConstants;

/**
 * Test handler on one replica's response path of an operation (its out-flow, phase OperationOutPhase): it records
 * the id of every request the replica executed, in execution order (the Total Order Invoker gives each the
 * deterministic id {@code urn:bftws:request:SEQUENCE#NUMBER}), and, when told to, tampers with the response
 * payload like a Byzantine replica would: the first child element's text is replaced.
 */
public final class ReplicaProbe extends AbstractHandler {
    public static final String TAMPERED = "tampered by a Byzantine replica";

    private final List<String> executed = new CopyOnWriteArrayList<>();
    /** The text of each executed request payload's first child element ("" if none), in execution order. */
    private final List<String> firstItems = new CopyOnWriteArrayList<>();
    private final AtomicInteger tampered = new AtomicInteger();
    private volatile boolean tamper;

    public ReplicaProbe() {
        HandlerDescription d = new HandlerDescription("ReplicaProbe");
        d.setHandler(this);
        init(d);
    }

    /** Adds this probe to the out-flow phase OperationOutPhase of {@code op}. */
    public ReplicaProbe installOn(AxisOperation op) {
        for (Object o : op.getPhasesOutFlow()) {
            Phase p = (Phase) o;
            if (p.getPhaseName().equals("OperationOutPhase")) {
                p.addHandler(this);
                return this;
            }
        }
        throw new IllegalStateException("no OperationOutPhase on " + op.getName());
    }

    public static QName echo() {
        return new QName("echo");
    }

    public void tamper(boolean on) {
        tamper = on;
    }

    List<String> executed() {
        return List.copyOf(executed);
    }

    List<String> firstItems() {
        return List.copyOf(firstItems);
    }

    public int tampered() {
        return tampered.get();
    }

    @Override
    public InvocationResponse invoke(MessageContext msgContext) throws AxisFault {
        MessageContext request = msgContext.getOperationContext() == null ? null
                : msgContext.getOperationContext().getMessageContext(WSDLConstants.MESSAGE_LABEL_IN_VALUE);
        if (request != null) {
            OMElement payload = request.getEnvelope().getBody().getFirstElement();
            OMElement first = payload == null ? null : payload.getFirstElement();
            firstItems.add(first == null ? "" : first.getText());
            executed.add(request.getMessageID());
        }
        if (tamper && msgContext.getEnvelope() != null) {
            OMElement payload = msgContext.getEnvelope().getBody().getFirstElement();
            Iterator<OMElement> children = payload == null ? null : payload.getChildElements();
            if (children != null && children.hasNext()) {
                children.next().setText(TAMPERED);
                tampered.incrementAndGet();
            }
        }
        return InvocationResponse.CONTINUE;
    }
}
