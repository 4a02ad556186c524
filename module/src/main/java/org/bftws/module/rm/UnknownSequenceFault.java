package org.bftws.module.rm;

import java.util.Iterator;
import java.util.List;

import javax.xml.namespace.QName;

import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMFactory;
import org.apache.axiom.om.OMNamespace;
import org.apache.axiom.soap.SOAP12Constants;
import org.apache.axiom.soap.SOAPEnvelope;
import org.apache.axiom.soap.SOAPHeader;
import org.apache.axis2.AxisFault;
import org.apache.axis2.Constants;
import org.apache.axis2.context.MessageContext;

/**
 * The WS-RM UnknownSequence fault (WS-RM 1.1 §4.3 and its SOAP binding §4.1), in the namespace of the message's
 * own {@code Sequence} header: in SOAP 1.2 code {@code Sender} with subcode {@code wsrm:UnknownSequence}, in
 * SOAP 1.1 code {@code wsrm:UnknownSequence}; the detail is the sequence's {@code wsrm:Identifier}. Sandesha2
 * 1.6.2 builds this fault with a SOAP 1.2 subcode whatever the envelope's version, which Axiom 1.2.21 refuses
 * for SOAP 1.1 (UnsupportedOperationException): the sender got a generic error and the replica logged a stack
 * trace. An application fault, so Axis2's engine does not log it either.
 */
public final class UnknownSequenceFault {
    /** WS-RM 1.0 (2005/02), which plain Sandesha2 clients speak by default. */
    static final String WSRM_10 = "http://schemas.xmlsoap.org/ws/2005/02/rm";

    private UnknownSequenceFault() {
    }

    /** The message's WS-RM {@code Sequence} header (1.0 or 1.1), or null. */
    public static OMElement sequenceHeader(SOAPEnvelope envelope) {
        SOAPHeader header = envelope == null ? null : envelope.getHeader();
        if (header == null) {
            return null;
        }
        for (Iterator<?> it = header.getChildElements(); it.hasNext();) {
            OMElement e = (OMElement) it.next();
            OMNamespace ns = e.getNamespace();
            if ("Sequence".equals(e.getLocalName()) && ns != null
                    && (WSRM_10.equals(ns.getNamespaceURI()) || ClientUuidElement.WSRM_11.equals(ns.getNamespaceURI()))) {
                return e;
            }
        }
        return null;
    }

    /** The identifier in a {@link #sequenceHeader}, trimmed, or null if it has none. */
    public static String identifier(OMElement sequenceHeader) {
        OMElement id = sequenceHeader.getFirstChildWithName(
                new QName(sequenceHeader.getNamespace().getNamespaceURI(), "Identifier"));
        return id == null ? null : id.getText().trim();
    }

    /** The fault for {@code sequenceId} in WS-RM namespace {@code rmNamespace}, for {@code msgContext}'s SOAP version. */
    public static AxisFault of(MessageContext msgContext, String rmNamespace, String sequenceId) {
        QName unknown = new QName(rmNamespace, "UnknownSequence", "wsrm");
        String reason = "BFT-WS: unknown sequence " + sequenceId + " (WS-RM UnknownSequence): create the sequence"
                + " with a CreateSequence carrying the client UUID first";
        AxisFault fault = msgContext.isSOAP11() ? new AxisFault(unknown, reason, null)
                : new AxisFault(SOAP12Constants.QNAME_SENDER_FAULTCODE, List.of(unknown), reason, null);
        OMFactory f = msgContext.getEnvelope() != null ? msgContext.getEnvelope().getOMFactory()
                : org.apache.axiom.om.OMAbstractFactory.getOMFactory();
        OMElement identifier = f.createOMElement("Identifier", f.createOMNamespace(rmNamespace, "wsrm"));
        identifier.setText(sequenceId);
        fault.setDetail(identifier);
        fault.setFaultType(Constants.APPLICATION_FAULT);
        return fault;
    }
}
