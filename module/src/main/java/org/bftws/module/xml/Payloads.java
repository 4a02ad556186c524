package org.bftws.module.xml;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.Iterator;

import javax.xml.stream.XMLStreamException;

import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMNode;
import org.apache.axiom.om.OMXMLBuilderFactory;
import org.apache.axiom.om.OMXMLParserWrapper;
import org.apache.axiom.om.util.StAXParserConfiguration;
import org.apache.axis2.AxisFault;

/**
 * SOAP body payloads as bytes: what a client signs in a request and what replicas sign in a result. One
 * element with the namespace declarations it needs, UTF-8, no XML declaration.
 */
public final class Payloads {
    /** The one refusal text for unparsable payloads: alike on every replica, whatever the parser said. */
    static final String NOT_WELL_FORMED = "BFT-WS: a payload is not well-formed XML or holds a DTD";

    private Payloads() {
    }

    public static byte[] serialize(OMElement e) throws AxisFault {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(512);
        try {
            e.serialize(bytes);
        } catch (XMLStreamException ex) {
            throw new AxisFault("BFT-WS: cannot serialise a payload element", ex);
        }
        return bytes.toByteArray();
    }

    /** Parse-and-serialise passes tried before a payload is declared to have no stable form. */
    static final int CANONICAL_PASSES = 4;

    /**
     * The payload's bytes as every replica will recompute them from the application message that carries it
     * (BFT-WS §3.3.1.2: the client signs them, each replica rebuilds and checks them): the fixed point of
     * Axiom's parse-and-serialise, reached after one pass for almost everything (entities expanded, CDATA and
     * whitespace as Axiom writes them) and a second for attribute values whose line breaks parsing
     * normalises.
     *
     * @throws AxisFault if no fixed point is reached (then no replica could check the signature), or the
     *                   payload holds a processing instruction
     */
    public static byte[] canonical(OMElement payload) throws AxisFault {
        for (Iterator<OMNode> it = payload.getDescendants(false); it.hasNext(); ) {
            if (it.next().getType() == OMNode.PI_NODE) { // SOAP 1.1 and 1.2 forbid them in a message
                throw new AxisFault("BFT-WS: a payload with a processing instruction cannot travel in a SOAP message");
            }
        }
        byte[] bytes = serialize(payload);
        for (int i = 0; i < CANONICAL_PASSES; i++) {
            byte[] again = serialize(parse(bytes));
            if (Arrays.equals(again, bytes)) {
                return bytes;
            }
            bytes = again;
        }
        throw new AxisFault("BFT-WS: the payload has no stable serialisation; replicas could not check its signature");
    }

    /**
     * Parses a payload as a standalone document and builds it completely. DTDs are refused (Axiom's SOAP
     * parser configuration), so no entity is ever declared or expanded.
     */
    public static OMElement parse(byte[] payload) throws AxisFault {
        try {
            OMXMLParserWrapper builder = OMXMLBuilderFactory.createOMBuilder(StAXParserConfiguration.SOAP,
                    new ByteArrayInputStream(payload), "UTF-8");
            OMElement e = builder.getDocumentElement();
            e.build();
            return e;
        } catch (RuntimeException e) {
            // Axiom's OMException, and Woodstox's own unchecked exceptions for errors it reports only as the tree
            // is built (WstxLazyException, e.g. for "]]>" in text): a document the parser fails on is not
            // well-formed, and its bytes are a client's choice.
            throw new AxisFault(NOT_WELL_FORMED);
        }
    }

    /** As {@link #parse(byte[])}, after checking the payload's shape against {@code limits} (a client's input). */
    public static OMElement parse(byte[] payload, XmlLimits limits) throws AxisFault {
        limits.check(payload);
        return parse(payload);
    }

    /** Escapes text for an XML element's content or a double-quoted attribute value. */
    public static String escape(String text) {
        StringBuilder b = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '&' -> b.append("&amp;");
                case '"' -> b.append("&quot;");
                default -> b.append(c);
            }
        }
        return b.toString();
    }
}
