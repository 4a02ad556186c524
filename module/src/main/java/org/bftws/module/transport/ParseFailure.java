package org.bftws.module.transport;

import java.io.CharConversionException;

import javax.xml.stream.Location;
import javax.xml.stream.XMLStreamException;

import org.bftws.module.config.BftwsKeys;

/**
 * What was wrong with a request body that did not parse, in the project's words: a fault must tell the sender
 * what to fix without passing on the parser's exception text (which names the parser, its classes and
 * sometimes the bytes it choked on). Each cause has one fixed reason; a position is added where the parser
 * knows one. The causes are told apart by exception type and, where the parser offers no type of its own,
 * by the marker words of Axiom's and Woodstox's messages; anything else is "not well-formed XML".
 */
public final class ParseFailure {
    static final String PREFIX = "BFT-WS: request refused: ";
    static final String NOT_WELL_FORMED = PREFIX + "the body is not well-formed XML";
    static final String ENCODING = PREFIX + "the body has bytes that are not valid in its declared character encoding";
    static final String DTD = PREFIX + "a DOCTYPE (DTD) is not allowed in a SOAP message";
    static final String TOO_DEEP = PREFIX + "XML nested deeper than 1000 elements";
    static final String TOO_MANY_ATTRIBUTES = PREFIX + "an element with more than 1000 attributes";
    static final String NOT_SOAP = PREFIX + "not a SOAP 1.1 envelope sent as text/xml or SOAP 1.2 envelope sent as"
            + " application/soap+xml";

    private ParseFailure() {
    }

    /** The reason for {@code failure}, a parse of a request body that failed. */
    public static String reason(Throwable failure) {
        Location at = null;
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            String m = String.valueOf(t.getMessage());
            if (m.startsWith("BFT-WS: request body above " + BftwsKeys.HTTP_MAX_REQUEST_BYTES.name())) {
                return m; // the bounded stream's own words
            }
            if (t instanceof CharConversionException || m.contains("Invalid UTF-8") || m.contains("Invalid byte")
                    || m.contains("Illegal character") && m.contains("encoding")) {
                return ENCODING;
            }
            if (m.contains("DOCTYPE")) {
                return DTD;
            }
            if (m.contains("Maximum Element Depth")) {
                return TOO_DEEP;
            }
            if (m.contains("Attribute limit")) {
                return TOO_MANY_ATTRIBUTES;
            }
            if (m.contains("Only SOAP 1.1 or SOAP 1.2") || m.contains("Transport level information does not match")) {
                return NOT_SOAP;
            }
            if (at == null && t instanceof XMLStreamException x && x.getLocation() != null) {
                at = x.getLocation();
            }
        }
        return at == null || at.getLineNumber() < 0 ? NOT_WELL_FORMED
                : NOT_WELL_FORMED + " (line " + at.getLineNumber() + ", column " + at.getColumnNumber() + ")";
    }
}
