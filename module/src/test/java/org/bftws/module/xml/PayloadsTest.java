package org.bftws.module.xml;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.fail;

import java.nio.charset.StandardCharsets;

import org.apache.axis2.AxisFault;
import org.junit.Test;

/**
 * Payloads a client chose that the parser fails on are refused as not well-formed, whatever the parser threw
 * (the usual cases are in XmlLimitsTest).
 */
public class PayloadsTest {
    private static void refused(String payload) {
        try {
            Payloads.parse(payload.getBytes(StandardCharsets.UTF_8), new XmlLimits(64, 1000, 64));
            fail("parsed " + payload);
        } catch (AxisFault expected) {
            assertEquals(Payloads.NOT_WELL_FORMED, expected.getMessage());
        }
    }

    /** Found by the intake fuzzer (scripts/fuzz): Woodstox reports this as it builds the tree, unchecked. */
    @Test
    public void cdataEndMarkerInTextIsRefusedAsNotWellFormed() {
        refused("<ns:cas xmlns:ns='http://samples.bftws.org'><ns:key>k]]>0</ns:key></ns:cas>");
    }
}
