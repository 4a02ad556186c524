package org.bftws.module.rm;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.ByteArrayInputStream;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMXMLBuilderFactory;
import org.apache.axiom.soap.SOAPEnvelope;
import org.apache.axis2.AxisFault;
import org.apache.axis2.addressing.EndpointReference;
import org.apache.axis2.context.MessageContext;
import org.bftws.core.crypto.Verifier;
import org.bftws.core.message.Kind;
import org.bftws.core.message.Request;
import org.bftws.core.message.Signed;
import org.bftws.core.testkit.TestKeys;
import org.bftws.module.api.ApplicationRequest;
import org.bftws.module.config.BftwsConfig;
import org.bftws.module.config.BftwsParameters;
import org.bftws.module.xml.Payloads;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * A group client's request survives the trip as a WS-RM application message: the replica rebuilds exactly
 * the signed request from the received envelope, for payloads with namespaces, prefixes, attributes,
 * CDATA, entities, whitespace and comments, in SOAP 1.1 and 1.2; a changed payload, number or header is
 * refused.
 */
public class ApplicationMessageTest {
    private static final URI GROUP = URI.create("http://group.example/axis2/services/Echo");
    private static final URI REPLY_TO = URI.create("http://127.0.0.1:9100/axis2/services/BftwsControl");
    private static final String SEQUENCE = "urn:uuid:6f1c2d3e-4a5b-8c6d-9e7f-0a1b2c3d4e5f";
    private static final int CLIENT = 4;

    /** Payloads as applications build them. */
    static final List<String> CORPUS = List.of(
            "<e:echo xmlns:e=\"urn:echo\"><e:text>hello</e:text></e:echo>",
            "<echo xmlns=\"urn:default\"><a>1</a><b xmlns=\"\">no namespace</b></echo>",
            "<p:x xmlns:p=\"urn:one\"><p:y xmlns:p=\"urn:two\" p:attr=\"v\"/></p:x>",
            "<s:x xmlns:s=\"urn:not-soap\"><s:Body>a payload prefix the envelope also uses</s:Body></s:x>",
            "<soapenv:x xmlns:soapenv=\"urn:other\">same prefix as Axiom's envelope</soapenv:x>",
            "<x a=\"1 &amp; 2\" b='single &quot;quoted&quot;' c=\"&lt;&gt;\" d=\"line&#10;break\" e=\"tab&#9;x\"/>",
            "<x><![CDATA[<not> & markup]]> after</x>",
            "<x>&amp;&lt;&gt;&#65;&#x42;&#xe9;&#x1F600;</x>",
            "<x>\n  <y>  spaced  </y>\n\t<z/>\n</x>",
            "<x><!-- a comment --><y/><!--another--></x>",
            "<x xml:lang=\"de\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xsi:type=\"t\">Grüße ✓</x>",
            "<a:x xmlns:a=\"urn:a\" xmlns:b=\"urn:b\" xmlns:unused=\"urn:u\"><b:y a:k=\"1\" b:k=\"2\"/></a:x>");

    @Rule
    public TemporaryFolder tmp = new TemporaryFolder();

    private final TestKeys keys = TestKeys.seeded(CLIENT + 1, 1);
    private final Verifier verifier = keys.verifier();
    private BftwsConfig config;

    @Before
    public void replicaConfig() throws IOException {
        File priv = tmp.newFile("replica-1.key");
        File pub = tmp.newFile("group.pub");
        Map<String, String> p = new HashMap<>();
        p.put("bftws.replicated", "true");
        p.put("bftws.role", "replica");
        p.put("bftws.group.endpoint", GROUP.toString());
        p.put("bftws.replicas", "0=http://127.0.0.1:9000/axis2/services/Echo 1=http://127.0.0.1:9001/axis2/services/Echo"
                + " 2=http://127.0.0.1:9002/axis2/services/Echo 3=http://127.0.0.1:9003/axis2/services/Echo");
        p.put("bftws.replica.id", "0");
        p.put("bftws.keys.private", priv.getPath());
        p.put("bftws.keys.public", pub.getPath());
        config = BftwsParameters.parse(p);
    }

    @Test
    public void everyCorpusPayloadIsRebuiltExactlyInSoap11And12() throws Exception {
        for (boolean soap12 : new boolean[] {false, true}) {
            for (String xml : CORPUS) {
                Signed sent = sign(xml, "", soap12, 7);
                byte[] received = ReceivedRequest.read(received(sent, GROUP), config, verifier).message().signedBytes();
                assertArrayEquals(xml + " (SOAP 1." + (soap12 ? 2 : 1) + ")", sent.encode(), received);
            }
        }
    }

    @Test
    public void aSiblingServiceIsAddressedAndRebuilt() throws Exception {
        Signed sent = sign(CORPUS.get(0), "Dealer", false, 1);
        ApplicationMessage m = ApplicationMessage.of(sent, GROUP, REPLY_TO);
        assertEquals("Dealer", m.service());
        assertArrayEquals(sent.encode(), ReceivedRequest.read(received(sent, GROUP.resolve("Dealer")), config,
                verifier).message().signedBytes());
    }

    @Test
    public void theCanonicalPayloadIsAFixedPointOfParseAndSerialise() throws Exception {
        for (String xml : CORPUS) {
            byte[] c = Payloads.canonical(Payloads.parse(xml.getBytes(StandardCharsets.UTF_8)));
            assertArrayEquals(xml, c, Payloads.serialize(Payloads.parse(c)));
        }
    }

    @Test
    public void aProcessingInstructionIsRefusedAtTheClient() throws Exception {
        try {
            Payloads.canonical(Payloads.parse("<x><?pi target?><y/></x>".getBytes(StandardCharsets.UTF_8)));
            fail("a payload with a processing instruction was accepted");
        } catch (AxisFault expected) {
            assertTrue(expected.getMessage().contains("processing instruction"));
        }
    }

    @Test
    public void aTamperedPayloadNumberOrFlagIsRefused() throws Exception {
        Signed sent = sign(CORPUS.get(0), "", false, 3);
        String env = new String(ApplicationMessage.of(sent, GROUP, REPLY_TO).envelope(), StandardCharsets.UTF_8);
        assertRefused(env.replace(">hello<", ">hellO<"), GROUP);
        assertRefused(env.replace("MessageNumber>3<", "MessageNumber>4<"), GROUP);
        assertRefused(env.replace("randomized=\"false\"", "randomized=\"true\""), GROUP);
        assertRefused(env.replace("client=\"4\"", "client=\"5\""), GROUP);
        assertRefused(env, GROUP.resolve("Dealer")); // another service than the client signed for
        assertRefused(env.replace("<e:text>hello</e:text>", "<e:text>hello</e:text><e:more/>"), GROUP);
        // untouched, it passes: the refusals above are the changes'
        assertArrayEquals(sent.encode(), ReceivedRequest.read(context(env, GROUP), config, verifier).message().signedBytes());
    }

    /** A confidential request's ciphertext travels base64 in bftws:Sealed and is rebuilt byte for byte. */
    @Test
    public void aSealedPayloadIsCarriedInTheSealedElementAndRebuilt() throws Exception {
        byte[] ciphertext = new byte[300];
        new java.util.Random(5).nextBytes(ciphertext);
        byte[] op = new ApplicationRequest("", "urn:echo:echo", false, ciphertext, true).encode();
        Signed sent = Signed.sign(Kind.REQUEST, CLIENT, new Request(CLIENT, SEQUENCE, 2, false, op).encode(),
                keys.signer(CLIENT));
        String env = new String(ApplicationMessage.of(sent, GROUP, REPLY_TO).envelope(), StandardCharsets.UTF_8);
        assertTrue(env, env.contains("Sealed") && env.contains(java.util.Base64.getEncoder().encodeToString(ciphertext)));
        assertArrayEquals(sent.encode(), ReceivedRequest.read(context(env, GROUP), config, verifier).message()
                .signedBytes());
        String flipped = java.util.Base64.getEncoder().encodeToString(ciphertext).substring(0, 10);
        assertRefused(env.replace(flipped, new StringBuilder(flipped).reverse().toString()), GROUP);
    }

    @Test
    public void aRetransmissionIsTheSameMessage() throws Exception {
        Signed sent = sign(CORPUS.get(1), "", false, 9);
        assertArrayEquals(ApplicationMessage.of(sent, GROUP, REPLY_TO).envelope(),
                ApplicationMessage.of(Signed.decode(sent.encode()), GROUP, REPLY_TO).envelope());
    }

    private void assertRefused(String envelope, URI to) throws Exception {
        try {
            ReceivedRequest.read(context(envelope, to), config, verifier);
            fail("accepted: " + envelope);
        } catch (AxisFault expected) {
            assertTrue(expected.getMessage(), expected.getMessage().startsWith("BFT-WS: application message refused"));
        }
    }

    /** What the client's BftwsOutHandler and ClientCore produce for {@code xml}. */
    private Signed sign(String xml, String service, boolean soap12, long number) throws AxisFault {
        OMElement payload = Payloads.parse(xml.getBytes(StandardCharsets.UTF_8));
        byte[] op = new ApplicationRequest(service, "urn:echo:echo", soap12, Payloads.canonical(payload)).encode();
        return Signed.sign(Kind.REQUEST, CLIENT, new Request(CLIENT, SEQUENCE, number, false, op).encode(),
                keys.signer(CLIENT));
    }

    private MessageContext received(Signed sent, URI to) throws Exception {
        byte[] bytes = ApplicationMessage.of(sent, GROUP, REPLY_TO).envelope();
        return context(new String(bytes, StandardCharsets.UTF_8), to);
    }

    /** The message context a replica's addressing handlers leave: the parsed envelope, To, Action, ReplyTo. */
    private static MessageContext context(String envelope, URI to) throws AxisFault {
        SOAPEnvelope env = OMXMLBuilderFactory.createSOAPModelBuilder(
                new ByteArrayInputStream(envelope.getBytes(StandardCharsets.UTF_8)), "UTF-8").getSOAPEnvelope();
        MessageContext mc = new MessageContext();
        mc.setEnvelope(env);
        mc.setTo(new EndpointReference(to.toString()));
        mc.setWSAAction("urn:echo:echo");
        mc.setReplyTo(new EndpointReference(REPLY_TO.toString()));
        return mc;
    }
}
