package org.bftws.client.embedded;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

import org.bftws.core.crypto.Signer;
import org.bftws.core.message.Kind;
import org.bftws.core.message.Request;
import org.bftws.core.message.Signed;
import org.bftws.module.api.ApplicationRequest;
import org.bftws.module.rm.ApplicationMessage;
import org.bftws.module.transport.ControlMessage;

/**
 * The bad-input corpus of {@link BadInputCorpusTest} (DTDs refused, size/depth/element
 * limits, forged or replayed messages, unknown sequences): raw HTTP bodies, each the way an attacker would
 * write it, never through our own serialisers.
 */
final class HostileInputs {
    static final String SOAP11 = "http://schemas.xmlsoap.org/soap/envelope/";
    static final String SOAP12 = "http://www.w3.org/2003/05/soap-envelope";
    static final String ECHO_NS = "urn:bftws:samples:echo";
    static final String ECHO_ACTION = "urn:bftws:samples:echo:echo";

    /** Axis2's own fault for an action the service lacks (the control port's, sent to the service). */
    /** The BFT-WS In Handler: a replica's service takes no request straight from a client. */
    static final String REPLICATED = "is replicated";
    /** The control port's one reason for anything that is not a control message in form. */
    static final String NOT_CONTROL = "BFT-WS: not a control message";
    /** Axiom's SOAP parser configuration: no DTD, hence no entity, internal or external (the fault in our words). */
    static final String NO_DTD = "a DOCTYPE (DTD) is not allowed";
    /** The BFT-WS Global In Handler, before the body is read. */
    static final String TOO_LARGE = "bftws.http.maxRequestBytes";
    /** Woodstox's own caps, which bound every envelope before any handler looks at it. */
    static final String TOO_DEEP = "XML nested deeper than 1000 elements";
    static final String TOO_MANY_ATTRIBUTES = "more than 1000 attributes";
    /** Axis2's builder: the envelope namespace is neither SOAP 1.1 nor 1.2. */
    static final String NOT_SOAP = "not a SOAP 1.1 envelope sent as text/xml";
    /** Axis2's builder: the content type says SOAP 1.1, the envelope is SOAP 1.2's. */
    static final String WRONG_VERSION = NOT_SOAP;
    /** The envelope is parsed whole before any handler: what is not well-formed fails there. */
    static final String NOT_WELL_FORMED = "the body is not well-formed XML";
    static final String WSRM_10 = "http://schemas.xmlsoap.org/ws/2005/02/rm";
    static final String WSRM_11 = "http://docs.oasis-open.org/ws-rx/wsrm/200702";

    /**
     * One raw body and the expected outcome: a SOAP fault from each endpoint, whose reason contains
     * {@code applicationFault} at the service endpoint and {@code controlFault} at the control port.
     * {@code chunked}: sent without Content-Length, so only the bounded stream can stop it.
     */
    record Hostile(String name, String body, String applicationFault, String controlFault, boolean chunked) {
        Hostile(String name, String body, String applicationFault, String controlFault) {
            this(name, body, applicationFault, controlFault, false);
        }
    }

    private HostileInputs() {
    }

    /**
     * Bodies that are not control messages in form: every endpoint must answer them with a SOAP fault.
     *
     * @param oversizedBytes a body length above the replicas' {@code bftws.http.maxRequestBytes}
     * @param controlMaxBytes the replicas' {@code bftws.control.maxMessageBytes}
     */
    static List<Hostile> malformed(int oversizedBytes, int controlMaxBytes) {
        return List.of(
                new Hostile("malformed XML", envelope("<e:echo xmlns:e='" + ECHO_NS + "'><e:item>x</e:echo>"),
                        NOT_WELL_FORMED, NOT_WELL_FORMED),
                new Hostile("DOCTYPE with an internal entity", "<?xml version='1.0'?><!DOCTYPE s:Envelope"
                        + " [<!ENTITY e 'AAAA'>]>" + envelope(control("&e;")), NO_DTD, NO_DTD),
                new Hostile("XXE external entity", "<?xml version='1.0'?><!DOCTYPE s:Envelope [<!ENTITY xxe"
                        + " SYSTEM 'file:///etc/passwd'>]>" + envelope(echo("&xxe;")), NO_DTD, NO_DTD),
                new Hostile("billion laughs", billionLaughs(), NO_DTD, NO_DTD),
                new Hostile("oversized body", envelope(echo("A".repeat(oversizedBytes))), TOO_LARGE, TOO_LARGE),
                new Hostile("oversized header, chunked (no Content-Length)", "<s:Envelope xmlns:s='" + SOAP11 + "'>"
                        + "<s:Header><h>" + "A".repeat(oversizedBytes) + "</h></s:Header><s:Body>" + control("AAAA")
                        + "</s:Body></s:Envelope>", TOO_LARGE, TOO_LARGE, true),
                new Hostile("oversized control message", envelope(control(
                        Base64.getEncoder().encodeToString(new byte[controlMaxBytes + 3]))), REPLICATED, NOT_CONTROL),
                new Hostile("10,000 levels deep in a header", "<s:Envelope xmlns:s='" + SOAP11 + "'><s:Header>"
                        + "<a>".repeat(10_000) + "</a>".repeat(10_000) + "</s:Header><s:Body>" + control("AAAA")
                        + "</s:Body></s:Envelope>", TOO_DEEP, TOO_DEEP),
                new Hostile("10,000 levels deep in the body", envelope("<a>".repeat(10_000) + "</a>".repeat(10_000)),
                        TOO_DEEP, TOO_DEEP),
                new Hostile("20,000 elements", envelope("<e:echo xmlns:e='" + ECHO_NS + "'>"
                        + "<a/>".repeat(20_000) + "</e:echo>"), REPLICATED, NOT_CONTROL),
                new Hostile("2,000 attributes", envelope("<x:message xmlns:x='" + ControlMessage.NAMESPACE + "'"
                        + attributes(2_000) + ">AAAA</x:message>"), TOO_MANY_ATTRIBUTES, TOO_MANY_ATTRIBUTES),
                new Hostile("unknown envelope namespace", "<s:Envelope xmlns:s='urn:not:soap'><s:Body>"
                        + control("AAAA") + "</s:Body></s:Envelope>", NOT_SOAP, NOT_SOAP),
                new Hostile("SOAP 1.2 envelope as SOAP 1.1 (text/xml)", "<s:Envelope xmlns:s='" + SOAP12 + "'>"
                        + "<s:Body>" + control("AAAA") + "</s:Body></s:Envelope>", WRONG_VERSION, WRONG_VERSION),
                new Hostile("not an envelope", "<Envelope><Body>" + control("AAAA") + "</Body></Envelope>",
                        NOT_SOAP, NOT_SOAP),
                new Hostile("wrong control element", envelope("<x:other xmlns:x='" + ControlMessage.NAMESPACE
                        + "'>AAAA</x:other>"), REPLICATED, NOT_CONTROL),
                new Hostile("control text not base64", envelope(control("!!!! not base64 !!!!")), REPLICATED,
                        NOT_CONTROL));
    }

    /** A SOAP 1.1 envelope around {@code body}. */
    static String envelope(String body) {
        return "<s:Envelope xmlns:s='" + SOAP11 + "'><s:Body>" + body + "</s:Body></s:Envelope>";
    }

    /**
     * A plain WS-RM application message (no BFT-WS header) in SOAP {@code soapNs}, message 1 of
     * {@code sequence} in WS-RM namespace {@code rmNs}, an echo in its body.
     */
    static String plainRmMessage(String soapNs, String rmNs, String sequence, String to) {
        return "<s:Envelope xmlns:s='" + soapNs + "' xmlns:wsa='http://www.w3.org/2005/08/addressing' xmlns:rm='"
                + rmNs + "'><s:Header><wsa:To>" + to + "</wsa:To><wsa:Action>" + ECHO_ACTION + "</wsa:Action>"
                + "<wsa:MessageID>urn:uuid:" + java.util.UUID.randomUUID() + "</wsa:MessageID>"
                + "<rm:Sequence s:mustUnderstand='1'><rm:Identifier>" + sequence + "</rm:Identifier>"
                + "<rm:MessageNumber>1</rm:MessageNumber></rm:Sequence></s:Header><s:Body>" + echo("plain")
                + "</s:Body></s:Envelope>";
    }

    /** The control port's one element, with {@code text} as written (base64 or not). */
    static String control(String text) {
        return "<x:message xmlns:x='" + ControlMessage.NAMESPACE + "'>" + text + "</x:message>";
    }

    /** A control message carrying {@code bytes}, base64 as the Multicast Sender writes it. */
    static String control(byte[] bytes) {
        return envelope(control(Base64.getEncoder().encodeToString(bytes)));
    }

    static String echo(String itemText) {
        return "<e:echo xmlns:e='" + ECHO_NS + "'><e:item>" + itemText + "</e:item></e:echo>";
    }

    /**
     * Message {@code number} of {@code sequence}, an echo of {@code item} as core's {@code Signed} REQUEST
     * claiming sender {@code sender} and signed with {@code signer} (which need not be the sender's key).
     */
    static byte[] signedEcho(Signer signer, int sender, String sequence, long number, String item) {
        byte[] xml = ("<e:echo xmlns:e=\"" + ECHO_NS + "\"><e:item>" + item + "</e:item></e:echo>")
                .getBytes(StandardCharsets.UTF_8);
        Request q = new Request(sender, sequence, number, false, new ApplicationRequest(ECHO_ACTION, false, xml)
                .encode());
        return Signed.sign(Kind.REQUEST, sender, q.encode(), signer).encode();
    }

    /**
     * {@code signed} (a signed REQUEST) as the WS-RM application message a group client posts to a replica's
     * service endpoint; replies would go to {@code replyTo}.
     */
    static String application(byte[] signed, String groupEndpoint, URI replyTo) {
        return new String(ApplicationMessage.of(Signed.decode(signed), URI.create(groupEndpoint), replyTo).envelope(),
                StandardCharsets.UTF_8);
    }

    /** {@code signed} with the last byte of its signature flipped: the body is intact, the signature forged. */
    static byte[] forged(byte[] signed) {
        byte[] copy = signed.clone();
        copy[copy.length - 1] ^= 0x01;
        return copy;
    }

    /** The classic exponential entity expansion: 10 levels of 10 references each, 10^9 "lol"s if expanded. */
    private static String billionLaughs() {
        StringBuilder dtd = new StringBuilder("<?xml version='1.0'?><!DOCTYPE lolz [<!ENTITY lol0 'lol'>");
        for (int i = 1; i <= 9; i++) {
            dtd.append("<!ENTITY lol").append(i).append(" '").append(("&lol" + (i - 1) + ";").repeat(10))
                    .append("'>");
        }
        return dtd.append("]>").append(envelope(echo("&lol9;"))).toString();
    }

    private static String attributes(int count) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < count; i++) {
            b.append(" a").append(i).append("='v'");
        }
        return b.toString();
    }
}
