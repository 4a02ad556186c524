package org.bftws.module.rm;

import java.util.Iterator;
import java.util.Set;
import java.util.UUID;

import javax.xml.namespace.QName;

import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMFactory;
import org.apache.axiom.soap.SOAPBody;
import org.apache.axiom.soap.SOAPEnvelope;

/**
 * The client UUID that a group client puts into CreateSequence's extensibility point (paper §3.3.1.1:
 * "embedded in the CreateSequence/any element"): {@code <bftws:ClientUUID xmlns:bftws="urn:bftws">}.
 * Sandesha2 ignores unknown CreateSequence children, so BFT-WS adds and reads this element itself.
 */
public final class ClientUuidElement {
    public static final String NAMESPACE = "urn:bftws";
    public static final QName NAME = new QName(NAMESPACE, "ClientUUID");
    /** WS-RM 1.1 (2007/02), the version group clients speak. */
    public static final String WSRM_11 = "http://docs.oasis-open.org/ws-rx/wsrm/200702";
    private static final Set<String> WSRM_NAMESPACES = Set.of(WSRM_11, "http://schemas.xmlsoap.org/ws/2005/02/rm");

    private ClientUuidElement() {
    }

    public static OMElement create(OMFactory factory, UUID uuid) {
        OMElement e = factory.createOMElement(NAME.getLocalPart(), factory.createOMNamespace(NAMESPACE, "bftws"));
        e.setText(uuid.toString());
        return e;
    }

    /** The body's CreateSequence element (WS-RM 1.0 or 1.1), or null if the message is no CreateSequence. */
    public static OMElement createSequenceOf(SOAPEnvelope envelope) {
        SOAPBody body = envelope == null ? null : envelope.getBody();
        OMElement first = body == null ? null : body.getFirstElement();
        if (first == null || !"CreateSequence".equals(first.getLocalName()) || first.getNamespace() == null
                || !WSRM_NAMESPACES.contains(first.getNamespace().getNamespaceURI())) {
            return null;
        }
        return first;
    }

    /**
     * The client UUID in {@code createSequence}, or null if it has none.
     *
     * @throws IllegalArgumentException if there are several, or one that is no UUID
     */
    public static UUID read(OMElement createSequence) {
        Iterator<OMElement> it = createSequence.getChildrenWithName(NAME);
        if (!it.hasNext()) {
            return null;
        }
        String text = it.next().getText().trim();
        if (it.hasNext()) {
            throw new IllegalArgumentException("CreateSequence carries more than one " + NAME);
        }
        // UUID.fromString accepts short fields ("1-1-1-1-1"); only the canonical form names one client.
        if (!text.matches("[0-9a-fA-F]{8}(-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}")) {
            throw new IllegalArgumentException(NAME.getLocalPart() + " is not a UUID");
        }
        return UUID.fromString(text);
    }
}
