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
 * "embedded in the CreateSequence/any element"), with the client's id in the group (its core node id, the
 * one its requests are signed as): {@code <bftws:ClientUUID xmlns:bftws="urn:bftws" client="4">}. The id
 * only names whose sequence it will be ({@link SequenceIds}); a client claiming another's id makes a sequence
 * it cannot use. Sandesha2 ignores unknown CreateSequence children, so BFT-WS adds and reads this element itself.
 */
public final class ClientUuidElement {
    public static final String NAMESPACE = "urn:bftws";
    public static final QName NAME = new QName(NAMESPACE, "ClientUUID");
    /** WS-RM 1.1 (2007/02), the version group clients speak. */
    public static final String WSRM_11 = "http://docs.oasis-open.org/ws-rx/wsrm/200702";
    private static final Set<String> WSRM_NAMESPACES = Set.of(WSRM_11, "http://schemas.xmlsoap.org/ws/2005/02/rm");

    private ClientUuidElement() {
    }

    /** The attribute naming the client. */
    public static final String CLIENT_ATTRIBUTE = "client";

    /** What the element says: the client's UUID for this sequence, and its client id. */
    public record Claim(UUID uuid, int client) {
    }

    public static OMElement create(OMFactory factory, Claim claim) {
        OMElement e = factory.createOMElement(NAME.getLocalPart(), factory.createOMNamespace(NAMESPACE, "bftws"));
        e.addAttribute(CLIENT_ATTRIBUTE, Integer.toString(claim.client()), null);
        e.setText(claim.uuid().toString());
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
     * The claim in {@code createSequence}, or null if it has no client UUID.
     *
     * @throws IllegalArgumentException if there are several, or one that is no UUID, or its client attribute
     *     is missing or no client id of at most 9 digits
     */
    public static Claim read(OMElement createSequence) {
        Iterator<OMElement> it = createSequence.getChildrenWithName(NAME);
        if (!it.hasNext()) {
            return null;
        }
        OMElement e = it.next();
        if (it.hasNext()) {
            throw new IllegalArgumentException("CreateSequence carries more than one " + NAME);
        }
        String text = e.getText().trim();
        // UUID.fromString accepts short fields ("1-1-1-1-1"); only the canonical form names one client.
        if (!text.matches("[0-9a-fA-F]{8}(-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}")) {
            throw new IllegalArgumentException(NAME.getLocalPart() + " is not a UUID");
        }
        String client = e.getAttributeValue(new QName(CLIENT_ATTRIBUTE));
        if (client == null || !client.matches("[0-9]{1,9}")) {
            throw new IllegalArgumentException(NAME.getLocalPart() + " names no client id (attribute "
                    + CLIENT_ATTRIBUTE + ")");
        }
        return new Claim(UUID.fromString(text), Integer.parseInt(client));
    }
}
