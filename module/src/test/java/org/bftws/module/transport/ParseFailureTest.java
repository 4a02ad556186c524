package org.bftws.module.transport;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

import org.apache.axiom.om.OMXMLBuilderFactory;
import org.junit.Test;

/**
 * Bodies Axiom and Woodstox refuse, parsed for real: each fault reason is one of the project's fixed texts,
 * never the parser's (no class name, no "Wstx", no quoted byte).
 */
public class ParseFailureTest {
    private static final String SOAP11 = "http://schemas.xmlsoap.org/soap/envelope/";

    @Test
    public void invalidUtf8IsAnEncodingProblem() {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.writeBytes(("<s:Envelope xmlns:s='" + SOAP11 + "'><s:Body><x>").getBytes(StandardCharsets.US_ASCII));
        b.writeBytes(new byte[] {(byte) 0xC3, (byte) 0x28, (byte) 0xFF});
        b.writeBytes("</x></s:Body></s:Envelope>".getBytes(StandardCharsets.US_ASCII));
        assertEquals(ParseFailure.ENCODING, reasonFor(b.toByteArray()));
    }

    @Test
    public void mismatchedTagsAreNotWellFormedWithTheirPosition() {
        String reason = reasonFor(envelope("<a><b></a>"));
        assertTrue(reason, reason.startsWith(ParseFailure.NOT_WELL_FORMED + " (line 1, column "));
    }

    @Test
    public void aDoctypeIsRefusedAsSuch() {
        assertEquals(ParseFailure.DTD, reasonFor(("<?xml version='1.0'?><!DOCTYPE s:Envelope [<!ENTITY e 'A'>]>"
                + new String(envelope("&e;"), StandardCharsets.UTF_8)).getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    public void nestingBeyondTheParsersCapIsTooDeep() {
        assertEquals(ParseFailure.TOO_DEEP, reasonFor(envelope("<a>".repeat(2_000) + "</a>".repeat(2_000))));
    }

    @Test
    public void theBoundedStreamsOwnWordsPassUnchanged() {
        String ours = "BFT-WS: request body above bftws.http.maxRequestBytes (10)";
        assertEquals(ours, ParseFailure.reason(new RuntimeException("wrapped", new java.io.IOException(ours))));
    }

    private static byte[] envelope(String body) {
        return ("<s:Envelope xmlns:s='" + SOAP11 + "'><s:Body>" + body + "</s:Body></s:Envelope>")
                .getBytes(StandardCharsets.UTF_8);
    }

    /** Parses {@code bytes} as a replica's SOAP builder does and returns the reason of its failure. */
    private static String reasonFor(byte[] bytes) {
        try {
            OMXMLBuilderFactory.createSOAPModelBuilder(new ByteArrayInputStream(bytes), "UTF-8").getSOAPEnvelope()
                    .build();
        } catch (RuntimeException e) {
            String reason = ParseFailure.reason(e);
            assertTrue(reason, reason.startsWith("BFT-WS: "));
            for (String parserWords : new String[] {"Wstx", "com.ctc", "Exception", "0xc3", "0xff"}) {
                assertFalse(reason, reason.toLowerCase().contains(parserWords.toLowerCase()));
            }
            return reason;
        }
        fail("parsed");
        return null;
    }
}
