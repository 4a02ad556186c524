package org.bftws.module.transport;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Random;

import org.junit.Test;

/**
 * The control port's direct receive path takes exactly the envelope a {@link ControlMessage} writes and declines
 * everything else (null), so that Axis2's path answers it as before.
 */
public class ControlEnvelopeReaderTest {
    private static final int MAX = 4096;
    private static final String XML = "text/xml; charset=UTF-8";
    private static final String OPEN = "<s:Envelope xmlns:s='http://schemas.xmlsoap.org/soap/envelope/'>";

    @Test
    public void theEnvelopeAControlMessageWritesReadsBackTheSameMessage() {
        byte[] signed = random(1000);
        URI replyTo = URI.create("http://127.0.0.1:8080/axis2/services/BftwsControl?a=1&b=%22x%22");
        for (URI r : new URI[] {null, replyTo}) {
            ControlMessage m = ControlEnvelopeReader.read(new ControlMessage(signed, r).envelope(), XML, MAX);
            assertNotNull(m);
            assertArrayEquals(signed, m.signedBytes());
            assertEquals(r, m.replyTo());
        }
    }

    @Test
    public void anEnvelopeWithoutHeaderAndWithWhitespaceIsTaken() {
        String b64 = Base64.getEncoder().encodeToString(random(30));
        ControlMessage m = read(OPEN + "\n <s:Body>\n  <c:message xmlns:c='urn:bftws:control'>\n" + b64
                + "\n</c:message>\n </s:Body>\n</s:Envelope>\n");
        assertNotNull(m);
        assertEquals(30, m.signedBytes().length);
    }

    @Test
    public void whatIsNotThePlainFormIsDeclined() {
        String b64 = Base64.getEncoder().encodeToString(random(30));
        String msg = "<c:message xmlns:c='urn:bftws:control'>" + b64 + "</c:message>";
        List<String> declined = List.of(
                OPEN + "<s:Header><x:h xmlns:x='urn:x'/></s:Header><s:Body>" + msg + "</s:Body></s:Envelope>",
                "<!DOCTYPE s:Envelope [<!ENTITY e 'AAAA'>]>" + OPEN + "<s:Body>"
                        + "<c:message xmlns:c='urn:bftws:control'>&e;</c:message></s:Body></s:Envelope>",
                "<e:Envelope xmlns:e='http://www.w3.org/2003/05/soap-envelope'><e:Body>" + msg + "</e:Body></e:Envelope>",
                OPEN + "<s:Body>" + msg + msg + "</s:Body></s:Envelope>",
                OPEN + "<s:Body><c:other xmlns:c='urn:bftws:control'>" + b64 + "</c:other></s:Body></s:Envelope>",
                OPEN + "<s:Body><c:message xmlns:c='urn:bftws:control'><x/>" + b64 + "</c:message></s:Body></s:Envelope>",
                OPEN + "<s:Body><c:message xmlns:c='urn:bftws:control'>!!!!</c:message></s:Body></s:Envelope>",
                OPEN + "<s:Body><c:message xmlns:c='urn:bftws:control' replyTo='file:/etc/passwd'>" + b64
                        + "</c:message></s:Body></s:Envelope>",
                OPEN + "<s:Body>" + msg + "</s:Body></s:Envelope><trailing/>",
                OPEN + "<s:Body>" + msg + "</s:Body>",
                "not xml at all");
        for (String body : declined) {
            assertNull(body, read(body));
        }
        assertNull("SOAP 1.1 comes as text/xml", ControlEnvelopeReader.read(
                new ControlMessage(random(10), null).envelope(), "application/soap+xml", MAX));
        assertNull("no content type", ControlEnvelopeReader.read(new ControlMessage(random(10), null).envelope(), null,
                MAX));
    }

    @Test
    public void aMessageAboveTheLimitIsDeclinedAndOneAtItTaken() {
        assertNotNull(ControlEnvelopeReader.read(new ControlMessage(random(MAX), null).envelope(), XML, MAX));
        assertNull(ControlEnvelopeReader.read(new ControlMessage(random(MAX + 1), null).envelope(), XML, MAX));
    }

    private static ControlMessage read(String body) {
        return ControlEnvelopeReader.read(body.getBytes(StandardCharsets.UTF_8), XML, MAX);
    }

    private static byte[] random(int n) {
        byte[] b = new byte[n];
        new Random(n).nextBytes(b);
        return b;
    }
}
