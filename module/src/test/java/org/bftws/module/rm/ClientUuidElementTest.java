package org.bftws.module.rm;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.assertThrows;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMXMLBuilderFactory;
import org.apache.axiom.soap.SOAPEnvelope;
import org.junit.Test;

/** The client UUID in CreateSequence's extensibility point (paper §3.3.1.1): written, found, and bad ones refused. */
public class ClientUuidElementTest {
    @Test
    public void aWrittenClaimIsReadBackFromTheCreateSequenceInTheBody() {
        UUID u = UUID.randomUUID();
        OMElement cs = createSequence("<bftws:ClientUUID xmlns:bftws=\"urn:bftws\" client=\"4\">" + u
                + "</bftws:ClientUUID>");
        assertEquals(new ClientUuidElement.Claim(u, 4), ClientUuidElement.read(cs));
        OMElement built = ClientUuidElement.create(OMAbstractFactory.getOMFactory(), new ClientUuidElement.Claim(u, 7));
        assertEquals(ClientUuidElement.NAME, built.getQName());
        assertEquals(u.toString(), built.getText());
        OMElement written = createSequence(built.toString());
        assertEquals(new ClientUuidElement.Claim(u, 7), ClientUuidElement.read(written));
    }

    @Test
    public void withoutTheElementThereIsNoUuid() {
        assertNull(ClientUuidElement.read(createSequence("")));
    }

    @Test
    public void aMalformedOrRepeatedUuidIsRefused() {
        String el = "<bftws:ClientUUID xmlns:bftws=\"urn:bftws\" client=\"4\">%s</bftws:ClientUUID>";
        assertThrows(IllegalArgumentException.class,
                () -> ClientUuidElement.read(createSequence(String.format(el, "1-1-1-1-1"))));
        assertThrows(IllegalArgumentException.class,
                () -> ClientUuidElement.read(createSequence(String.format(el, "not a uuid"))));
        String u = UUID.randomUUID().toString();
        assertThrows(IllegalArgumentException.class,
                () -> ClientUuidElement.read(createSequence(String.format(el, u) + String.format(el, u))));
    }

    @Test
    public void aUuidWithoutAClientIdIsRefused() {
        String u = UUID.randomUUID().toString();
        for (String attribute : new String[] {"", " client=\"\"", " client=\"-4\"", " client=\"four\"",
            " client=\"1234567890\""}) {
            String el = "<bftws:ClientUUID xmlns:bftws=\"urn:bftws\"" + attribute + ">" + u + "</bftws:ClientUUID>";
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> ClientUuidElement.read(createSequence(el)));
            assertTrue(e.getMessage(), e.getMessage().contains("names no client id"));
        }
    }

    @Test
    public void onlyAWsRmCreateSequenceCounts() {
        assertNull(ClientUuidElement.createSequenceOf(envelope("<x:CreateSequence xmlns:x=\"urn:other\"/>")));
        assertNull(ClientUuidElement.createSequenceOf(envelope("<e:echo xmlns:e=\"urn:bftws:samples:echo\"/>")));
    }

    private static OMElement createSequence(String children) {
        OMElement cs = ClientUuidElement.createSequenceOf(envelope("<wsrm:CreateSequence xmlns:wsrm=\""
                + ClientUuidElement.WSRM_11 + "\"><wsrm:AcksTo/>" + children + "</wsrm:CreateSequence>"));
        return java.util.Objects.requireNonNull(cs, "a WS-RM 1.1 CreateSequence");
    }

    private static SOAPEnvelope envelope(String body) {
        String xml = "<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\"><s:Body>" + body
                + "</s:Body></s:Envelope>";
        return OMXMLBuilderFactory.createSOAPModelBuilder(
                new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)), "UTF-8").getSOAPEnvelope();
    }
}
