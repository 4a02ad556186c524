package org.bftws.module.xml;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.fail;

import java.nio.charset.StandardCharsets;

import org.apache.axis2.AxisFault;
import org.junit.Test;

/** The shape limits on a client's payload: each refused at limit + 1, accepted at the limit, DTDs refused. */
public class XmlLimitsTest {
    private static final XmlLimits LIMITS = new XmlLimits(8, 20, 3);

    @Test
    public void depthIsCountedFromTheRootElement() throws AxisFault {
        LIMITS.check(nested(8));
        assertRefused(nested(9), "BFT-WS: payload refused: nesting depth above 8 (bftws.xml.maxDepth)");
    }

    @Test
    public void everyElementCountsNotOnlyChildrenOfTheRoot() throws AxisFault {
        LIMITS.check(bytes("<r>" + "<a><b/></a>".repeat(9) + "<c/></r>")); // 1 + 18 + 1 = 20
        assertRefused(bytes("<r>" + "<a><b/></a>".repeat(10) + "</r>"), "BFT-WS: payload refused: element count above 20 (bftws.xml.maxElements)");
    }

    @Test
    public void attributesAreCountedPerElementAndNamespaceDeclarationsAreNot() throws AxisFault {
        LIMITS.check(bytes("<r xmlns='urn:x' xmlns:p='urn:p' a='1' b='2' p:c='3'><s a='1' b='2' c='3'/></r>"));
        assertRefused(bytes("<r a='1' b='2' c='3' d='4'/>"), "BFT-WS: payload refused: attributes of one element above 3 (bftws.xml.maxAttributes)");
    }

    @Test
    public void dtdsAndMalformedXmlGetTheOneParseRefusal() {
        assertRefused(bytes("<!DOCTYPE r [<!ENTITY e 'x'>]><r>&e;</r>"), Payloads.NOT_WELL_FORMED);
        assertRefused(bytes("<r><a></r>"), Payloads.NOT_WELL_FORMED);
        assertRefused(bytes(""), Payloads.NOT_WELL_FORMED);
    }

    @Test
    public void parseWithLimitsBuildsWhatItAccepts() throws AxisFault {
        assertEquals("r", Payloads.parse(nested(8), LIMITS).getLocalName());
    }

    private static void assertRefused(byte[] payload, String reason) {
        try {
            LIMITS.check(payload);
            fail("accepted " + new String(payload, StandardCharsets.UTF_8));
        } catch (AxisFault e) {
            assertEquals(reason, e.getMessage());
        }
    }

    private static byte[] nested(int depth) {
        return bytes("<r>" + "<a>".repeat(depth - 1) + "x" + "</a>".repeat(depth - 1) + "</r>");
    }

    private static byte[] bytes(String xml) {
        return xml.getBytes(StandardCharsets.UTF_8);
    }
}
