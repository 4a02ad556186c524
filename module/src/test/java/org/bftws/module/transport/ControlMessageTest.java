package org.bftws.module.transport;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertSame;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Random;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMXMLBuilderFactory;
import org.apache.axiom.soap.SOAP11Constants;
import org.apache.axiom.soap.SOAPEnvelope;
import org.apache.axiom.soap.SOAPFactory;
import org.junit.Test;

/** The control message's envelope, written as bytes, is a SOAP 1.1 envelope that reads back to the same message. */
public class ControlMessageTest {
    private static final int MAX = 1 << 20;

    @Test
    public void theEnvelopeParsesAsSoap11AndReadsBackTheSignedBytes() {
        byte[] signed = randomBytes(1500, 1);
        ControlMessage read = roundTrip(new ControlMessage(signed, null));
        assertArrayEquals(signed, read.signedBytes());
        assertNull(read.replyTo());
    }

    @Test
    public void aReplyToWithCharactersThatNeedEscapingReadsBackUnchanged() {
        URI replyTo = URI.create("http://127.0.0.1:8080/axis2/services/BftwsControl?a=1&b=%22x%22");
        byte[] signed = randomBytes(64, 2);
        ControlMessage read = roundTrip(new ControlMessage(signed, replyTo));
        assertArrayEquals(signed, read.signedBytes());
        assertEquals(replyTo, read.replyTo());
    }

    @Test
    public void theEnvelopeIsBuiltOnceAndPassedThroughWsSecurity() {
        byte[] signed = randomBytes(10, 3);
        ControlMessage m = new ControlMessage(signed, null, env -> new String(env, StandardCharsets.UTF_8)
                .replace("<soapenv:Header/>", "<soapenv:Header><x:y xmlns:x=\"urn:x\"/></soapenv:Header>")
                .getBytes(StandardCharsets.UTF_8));
        assertSame(m.envelope(), m.envelope());
        assertEquals("the header wsSecurity added", "y", parse(m.envelope()).getHeader().getFirstElement().getLocalName());
        assertArrayEquals(signed, ControlMessage.read(parse(m.envelope()).getBody().getFirstElement(), MAX).signedBytes());
    }

    @Test
    public void theEnvelopeHasTheBytesAxiomSerialisesTheSameTreeTo() throws Exception {
        URI replyTo = URI.create("http://127.0.0.1:8080/axis2/services/BftwsControl?a=1&b=2");
        byte[] signed = randomBytes(300, 4);
        assertArrayEquals(axiom(signed, null), new ControlMessage(signed, null).envelope());
        assertArrayEquals(axiom(signed, replyTo), new ControlMessage(signed, replyTo).envelope());
    }

    /** The envelope as an Axiom tree: SOAP 1.1 default envelope, the element with its attribute and base64 text. */
    private static byte[] axiom(byte[] signed, URI replyTo) throws Exception {
        SOAPFactory f = OMAbstractFactory.getSOAP11Factory();
        SOAPEnvelope env = f.getDefaultEnvelope();
        OMElement e = f.createOMElement(ControlMessage.ELEMENT.getLocalPart(),
                f.createOMNamespace(ControlMessage.NAMESPACE, "bftws"));
        if (replyTo != null) {
            e.addAttribute(ControlMessage.REPLY_TO, replyTo.toString(), null);
        }
        e.setText(Base64.getEncoder().encodeToString(signed));
        env.getBody().addChild(e);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        env.serialize(out);
        return out.toByteArray();
    }

    private static ControlMessage roundTrip(ControlMessage m) {
        SOAPEnvelope env = parse(m.envelope());
        assertEquals(SOAP11Constants.SOAP_ENVELOPE_NAMESPACE_URI, env.getNamespace().getNamespaceURI());
        assertEquals(ControlMessage.ELEMENT, env.getBody().getFirstElement().getQName());
        assertEquals("the estimate bounds the buffers: within 10 %", m.envelope().length,
                m.estimatedEnvelopeBytes(), m.estimatedEnvelopeBytes() * 0.1 + 120);
        return ControlMessage.read(env.getBody().getFirstElement(), MAX);
    }

    private static SOAPEnvelope parse(byte[] envelope) {
        return OMXMLBuilderFactory.createSOAPModelBuilder(new ByteArrayInputStream(envelope), "UTF-8").getSOAPEnvelope();
    }

    private static byte[] randomBytes(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }
}
