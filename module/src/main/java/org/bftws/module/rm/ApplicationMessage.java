package org.bftws.module.rm;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.UUID;
import java.util.function.UnaryOperator;

import javax.xml.namespace.QName;
import javax.xml.stream.XMLStreamException;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMNamespace;
import org.apache.axiom.soap.SOAPEnvelope;
import org.apache.axiom.soap.SOAPFactory;
import org.apache.axiom.soap.SOAPHeader;
import org.apache.axiom.soap.SOAPHeaderBlock;
import org.apache.axis2.AxisFault;
import org.apache.axis2.addressing.AddressingConstants;
import org.bftws.core.message.Kind;
import org.bftws.core.message.Request;
import org.bftws.core.message.Signed;
import org.bftws.module.api.ApplicationRequest;
import org.bftws.module.api.ConfidentialCalls;
import org.bftws.module.xml.Payloads;
import org.bftws.module.transport.OutboundSoap;

/**
 * A group client's request as a WS-RM 1.1 application message (paper §3.3.1.2): the payload the application
 * built in the SOAP Body; WS-Addressing To (the group's service), Action, MessageID, ReplyTo (the client's
 * control port, where the signed replies go) and FaultTo anonymous (faults on the HTTP response); {@code wsrm:Sequence} with the group sequence id and the
 * request's number; and a BFT-WS header with what core's signed request holds besides those:
 * {@code <bftws:Request client="C" randomized="false">base64 Ed25519 signature</bftws:Request>}.
 *
 * <p>The envelope is a function of the signed core request alone, so a retransmission sends the same
 * message, and every replica rebuilds the same signed request from it ({@link ReceivedRequest}): the
 * operation bytes are the service (from To), the action, the SOAP version and the payload serialised by
 * Axiom, which the client made a fixed point of Axiom's parse-and-serialise before signing
 * ({@link Payloads#canonical}).
 */
public final class ApplicationMessage implements OutboundSoap {
    public static final QName HEADER = new QName(ClientUuidElement.NAMESPACE, "Request");
    static final String CLIENT = "client";
    static final String RANDOMIZED = "randomized";

    private final Signed signed;
    private final Request request;
    private final ApplicationRequest operation;
    private final URI to;
    private final URI replyTo;
    private final UnaryOperator<byte[]> wsSecurity;
    private byte[] envelope;

    private ApplicationMessage(Signed signed, Request request, ApplicationRequest operation, URI to, URI replyTo,
            UnaryOperator<byte[]> wsSecurity) {
        this.signed = signed;
        this.request = request;
        this.operation = operation;
        this.to = to;
        this.replyTo = replyTo;
        this.wsSecurity = wsSecurity;
    }

    /**
     * The application message carrying {@code signedRequest} (core's signed REQUEST of an application
     * request), addressed to the service of the group at {@code groupEndpoint} that the request names (the
     * endpoint itself or its sibling {@code .../services/NAME}).
     *
     * @throws IllegalArgumentException if the bytes are no signed application request
     */
    public static ApplicationMessage of(Signed signedRequest, URI groupEndpoint, URI replyTo) {
        return of(signedRequest, groupEndpoint, replyTo, null);
    }

    /**
     * As {@link #of(Signed, URI, URI)}, the serialised envelope then passed through {@code wsSecurity} (with
     * {@code bftws.security=rampart}, the client's WS-Security header; null for none; it runs where the envelope is built, on
     * the Multicast Sender's thread, once for all replicas).
     */
    public static ApplicationMessage of(Signed signedRequest, URI groupEndpoint, URI replyTo,
            UnaryOperator<byte[]> wsSecurity) {
        if (signedRequest.kind() != Kind.REQUEST) {
            throw new IllegalArgumentException("not a request: " + signedRequest.kind());
        }
        Request r = Request.decode(signedRequest.body());
        ApplicationRequest op = ApplicationRequest.decode(r.operation());
        URI to = op.service().isEmpty() ? groupEndpoint : groupEndpoint.resolve(op.service());
        return new ApplicationMessage(signedRequest, r, op, to, replyTo, wsSecurity);
    }

    /** The group service this request is for: "" for the main one, else a sibling's NAME. */
    public String service() {
        return operation.service();
    }

    @Override
    public String soapAction() {
        return operation.action();
    }

    @Override
    public boolean soap12() {
        return operation.soap12();
    }

    /**
     * The payload plus the headers around it (addresses, ids, base64 signature): about 1.5 KB; a WS-Security
     * header (certificate, signature, ten references) about 4 KB more.
     */
    @Override
    public int estimatedEnvelopeBytes() {
        long security = wsSecurity == null ? 0 : 4096;
        long payload = operation.sealed() ? 4L * operation.payload().length / 3 + 4 : operation.payload().length;
        return (int) Math.min(Integer.MAX_VALUE, payload + 1536L + security + to.toString().length()
                + replyTo.toString().length());
    }

    @Override
    public synchronized byte[] envelope() {
        if (envelope == null) {
            try {
                byte[] plain = serialise(build());
                envelope = wsSecurity == null ? plain : wsSecurity.apply(plain);
            } catch (AxisFault | XMLStreamException e) {
                // the client made the payload a parsable fixed point before signing it
                throw new IllegalStateException("cannot build the application message", e);
            }
        }
        return envelope;
    }

    private SOAPEnvelope build() throws AxisFault {
        SOAPFactory f = operation.soap12() ? OMAbstractFactory.getSOAP12Factory() : OMAbstractFactory.getSOAP11Factory();
        SOAPEnvelope env = f.getDefaultEnvelope();
        SOAPHeader header = env.getHeader(); // Axiom's default envelope has an empty Header before the Body
        OMNamespace wsa = f.createOMNamespace(AddressingConstants.Final.WSA_NAMESPACE, "wsa");
        text(header.addHeaderBlock("To", wsa), to.toString());
        text(header.addHeaderBlock("Action", wsa), operation.action());
        text(header.addHeaderBlock("MessageID", wsa), messageId(request));
        OMElement reply = header.addHeaderBlock("ReplyTo", wsa);
        text(f.createOMElement("Address", wsa, reply), replyTo.toString());
        // Faults (a refused signature, Sandesha2's UnknownSequence) come back on the HTTP response, where the
        // Multicast Sender sees them; only the signed replies go to the control port.
        OMElement faultTo = header.addHeaderBlock("FaultTo", wsa);
        text(f.createOMElement("Address", wsa, faultTo), AddressingConstants.Final.WSA_ANONYMOUS_URL);
        OMNamespace rm = f.createOMNamespace(ClientUuidElement.WSRM_11, "wsrm");
        SOAPHeaderBlock seq = header.addHeaderBlock("Sequence", rm);
        seq.setMustUnderstand(true);
        text(f.createOMElement("Identifier", rm, seq), request.sequenceId());
        text(f.createOMElement("MessageNumber", rm, seq), Long.toString(request.messageNumber()));
        addRequestHeader(f, header, signed, request);
        env.getBody().addChild(operation.sealed() ? ConfidentialCalls.sealedElement(f, operation.payload())
                : Payloads.parse(operation.payload()));
        return env;
    }

    /** The BFT-WS header: what core's signed request holds besides what the WS-RM headers carry. */
    static void addRequestHeader(SOAPFactory f, SOAPHeader header, Signed signed, Request request) {
        SOAPHeaderBlock bft = header.addHeaderBlock(HEADER.getLocalPart(),
                f.createOMNamespace(HEADER.getNamespaceURI(), "bftws"));
        bft.addAttribute(CLIENT, Integer.toString(request.client()), null);
        bft.addAttribute(RANDOMIZED, Boolean.toString(request.randomized()), null);
        text(bft, Base64.getEncoder().encodeToString(signed.signature()));
    }

    /** A MessageID derived from (sequence, number): a retransmission is the same WS-Addressing message. */
    static String messageId(Request r) {
        byte[] name = (r.sequenceId() + "#" + r.messageNumber()).getBytes(StandardCharsets.UTF_8);
        return "urn:uuid:" + UUID.nameUUIDFromBytes(name);
    }

    private static void text(OMElement e, String text) {
        e.setText(text);
    }

    static byte[] serialise(SOAPEnvelope env) throws XMLStreamException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(1024);
        env.serialize(out);
        return out.toByteArray();
    }
}
