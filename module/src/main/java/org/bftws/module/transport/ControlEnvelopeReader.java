package org.bftws.module.transport;

import java.io.ByteArrayInputStream;

import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * Reads a POSTed control message with one StAX pass straight into a {@link ControlMessage}, without Axiom's tree
 * or Axis2's handler chain: the control port's receive path for the envelope form {@link ControlMessage#envelope}
 * writes (SOAP 1.1, an empty or absent Header, a Body holding only {@code bftws:message}). Whatever is not
 * exactly that form is declined (null), not refused: the caller then gives the same bytes to Axis2, which
 * answers as it always has (a SOAP fault for a malformed message, a DOCTYPE or a wrong element; the handlers for
 * a header). So the documented refusals keep one implementation, and this class only has to be right about
 * what it accepts. The parser reads no DTD and resolves no entity: a DOCTYPE is declined before it is read.
 */
final class ControlEnvelopeReader {
    private static final String SOAP11 = "http://schemas.xmlsoap.org/soap/envelope/";
    private static final XMLInputFactory FACTORY = factory();

    private ControlEnvelopeReader() {
    }

    private static XMLInputFactory factory() {
        XMLInputFactory f = XMLInputFactory.newFactory();
        f.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        f.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        f.setProperty(XMLInputFactory.IS_NAMESPACE_AWARE, true);
        f.setProperty(XMLInputFactory.IS_COALESCING, true);
        return f;
    }

    /**
     * The control message {@code body} holds, or null if it is not in the plain form (or not a control message
     * of at most {@code maxBytes} bytes: Axis2's path refuses those with its fault).
     *
     * @param contentType the POST's Content-Type: SOAP 1.1 travels as {@code text/xml}
     */
    static ControlMessage read(byte[] body, String contentType, int maxBytes) {
        if (contentType == null || !contentType.strip().regionMatches(true, 0, "text/xml", 0, 8)) {
            return null;
        }
        XMLStreamReader r = null;
        try {
            r = FACTORY.createXMLStreamReader(new ByteArrayInputStream(body));
            if (!element(r, SOAP11, "Envelope") || !nextElement(r)) {
                return null;
            }
            if (is(r, SOAP11, "Header")) {
                if (r.nextTag() != XMLStreamConstants.END_ELEMENT || !nextElement(r)) {
                    return null; // a header block: Axis2's handlers decide what it means
                }
            }
            if (!is(r, SOAP11, "Body") || !nextElement(r) || !is(r, ControlMessage.NAMESPACE, "message")) {
                return null;
            }
            String replyTo = r.getAttributeValue(null, ControlMessage.REPLY_TO);
            String text = r.getElementText(); // fails on a child element: declined below
            ControlMessage m = ControlMessage.of(text, replyTo, maxBytes);
            return r.nextTag() == XMLStreamConstants.END_ELEMENT && r.nextTag() == XMLStreamConstants.END_ELEMENT
                    && end(r) ? m : null;
        } catch (XMLStreamException | RuntimeException e) {
            return null;
        } finally {
            close(r);
        }
    }

    /** Moves to the document's first element, declining a DOCTYPE, comment or processing instruction. */
    private static boolean element(XMLStreamReader r, String ns, String local) throws XMLStreamException {
        while (r.hasNext()) {
            int event = r.next();
            if (event == XMLStreamConstants.START_ELEMENT) {
                return is(r, ns, local);
            }
            if (event != XMLStreamConstants.SPACE && !(event == XMLStreamConstants.CHARACTERS && r.isWhiteSpace())) {
                return false;
            }
        }
        return false;
    }

    /** Moves to the next tag past whitespace (StAX's nextTag fails on other text); true if it starts an element. */
    private static boolean nextElement(XMLStreamReader r) throws XMLStreamException {
        return r.nextTag() == XMLStreamConstants.START_ELEMENT;
    }

    /** Only whitespace after the Envelope. */
    private static boolean end(XMLStreamReader r) throws XMLStreamException {
        while (r.hasNext()) {
            int event = r.next();
            if (event == XMLStreamConstants.END_DOCUMENT) {
                return true;
            }
            if (event != XMLStreamConstants.SPACE && !(event == XMLStreamConstants.CHARACTERS && r.isWhiteSpace())) {
                return false;
            }
        }
        return true;
    }

    private static boolean is(XMLStreamReader r, String ns, String local) {
        return r.isStartElement() && ns.equals(r.getNamespaceURI()) && local.equals(r.getLocalName());
    }

    private static void close(XMLStreamReader r) {
        if (r != null) {
            try {
                r.close();
            } catch (XMLStreamException e) {
                // nothing held beyond the byte array
            }
        }
    }
}
