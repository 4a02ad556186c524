package org.bftws.module.xml;

import java.io.ByteArrayInputStream;

import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

import org.apache.axiom.om.util.StAXParserConfiguration;
import org.apache.axiom.om.util.StAXUtils;
import org.apache.axis2.AxisFault;
import org.bftws.module.config.BftwsKeys;

/**
 * Bounds on the shape of a client's payload before Axiom builds it into a tree: nesting depth, element
 * count, attributes per element ({@code bftws.xml.*}, declared in {@code BftwsKeys}). A signed client
 * request is executed by every correct replica (paper §3.3.1.5), so its payload is checked the same way on
 * each: the refusal is deterministic and becomes the group's voted fault, and nothing executes. Size is
 * bounded earlier, by core's {@code bftws.maxRequestBytes}.
 *
 * <p>Counted by our own streaming pass rather than by parser-specific properties, so the verdict does not
 * depend on which StAX implementation a replica's class path holds (Woodstox caps depth and attributes at
 * 1000 on its own; the keys' upper bounds stay below that, so our message is the one every replica gives).
 */
public record XmlLimits(int maxDepth, int maxElements, int maxAttributes) {
    /** Woodstox 4.2's own caps on depth and attributes per element: larger limits would never be reached. */
    public static final int PARSER_CAP = 1000;

    /**
     * @throws AxisFault naming the limit exceeded, or that the payload is not well-formed XML or holds a DTD
     */
    public void check(byte[] payload) throws AxisFault {
        XMLStreamReader r = null;
        try {
            r = StAXUtils.createXMLStreamReader(StAXParserConfiguration.SOAP,
                    new ByteArrayInputStream(payload), "UTF-8");
            count(r);
        } catch (XMLStreamException | RuntimeException e) {
            throw new AxisFault(Payloads.NOT_WELL_FORMED);
        } finally {
            close(r);
        }
    }

    private void count(XMLStreamReader r) throws XMLStreamException, AxisFault {
        int depth = 0;
        long elements = 0;
        while (r.hasNext()) {
            int event = r.next();
            if (event == XMLStreamConstants.START_ELEMENT) {
                refuseAbove(++depth, maxDepth, BftwsKeys.XML_MAX_DEPTH.name(), "nesting depth");
                refuseAbove(++elements, maxElements, BftwsKeys.XML_MAX_ELEMENTS.name(), "element count");
                refuseAbove(r.getAttributeCount(), maxAttributes, BftwsKeys.XML_MAX_ATTRIBUTES.name(),
                        "attributes of one element");
            } else if (event == XMLStreamConstants.END_ELEMENT) {
                depth--;
            }
        }
    }

    private static void refuseAbove(long value, long limit, String key, String what) throws AxisFault {
        if (value > limit) {
            throw new AxisFault("BFT-WS: payload refused: " + what + " above " + limit + " (" + key + ")");
        }
    }

    private static void close(XMLStreamReader r) {
        if (r != null) {
            try {
                r.close();
            } catch (XMLStreamException e) {
                // nothing held but the byte array
            }
        }
    }
}
