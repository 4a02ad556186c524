package org.bftws.module.transport;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.Reader;
import java.net.URI;
import java.util.Base64;
import java.util.Objects;
import java.util.function.UnaryOperator;

import javax.xml.namespace.QName;
import javax.xml.stream.XMLStreamException;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMNamespace;
import org.apache.axiom.soap.SOAPEnvelope;
import org.apache.axiom.soap.SOAPFactory;

/**
 * One BFT-WS control message on the wire (paper §3.3.1.8: "control messages ... among replicas" as SOAP
 * one-way messages): the body holds {@code <bftws:message xmlns:bftws="urn:bftws:control">} with the
 * base64 of core's {@code Signed} envelope. The signature inside those bytes is what authenticates the
 * message (docs/design/architecture.md: XML never enters the agreement path); the SOAP layer only carries it.
 *
 * <p>{@code replyTo} is set on client requests only: where the replicas send the replies. It lies outside
 * the signed bytes, so a replica believes it only after checking the request's signature (see
 * {@code TotalOrderManager}).
 */
public final class ControlMessage implements OutboundSoap {
    public static final String NAMESPACE = "urn:bftws:control";
    public static final QName ELEMENT = new QName(NAMESPACE, "message");
    /** The fixed WS-Addressing / SOAPAction value that dispatches to the control port. */
    public static final String ACTION = "urn:bftws:control/message";
    static final String REPLY_TO = "replyTo";

    /** The SOAP envelope and element around the base64 text, with a replyTo attribute: about 400 bytes. */
    private static final int ENVELOPE_BYTES = 400;
    /** A WS-Security header with timestamp, RSA-2048 certificate token and signature: about 3.5 KB. */
    private static final int WS_SECURITY_BYTES = 4096;

    private final byte[] signedBytes;
    private final URI replyTo;
    /** Null, or what puts a WS-Security header on the envelope (a replica's replies with bftws.security=rampart). */
    private final UnaryOperator<byte[]> wsSecurity;
    private byte[] envelope;

    public ControlMessage(byte[] signedBytes, URI replyTo) {
        this(signedBytes, replyTo, null);
    }

    /** A message whose envelope {@code wsSecurity} signs when the sender thread first builds it. */
    public ControlMessage(byte[] signedBytes, URI replyTo, UnaryOperator<byte[]> wsSecurity) {
        this.signedBytes = Objects.requireNonNull(signedBytes, "signedBytes");
        this.replyTo = replyTo;
        this.wsSecurity = wsSecurity;
    }

    public byte[] signedBytes() {
        return signedBytes;
    }

    /** Null unless this is a client request that asks for replies at a given endpoint. */
    public URI replyTo() {
        return replyTo;
    }

    /**
     * About the size of {@link #envelope()} (base64 text plus the envelope around it), without building it:
     * the Multicast Sender bounds its buffers with it on the caller's thread.
     */
    @Override
    public int estimatedEnvelopeBytes() {
        long header = wsSecurity == null ? 0 : WS_SECURITY_BYTES;
        return (int) Math.min(Integer.MAX_VALUE, 4L * ((signedBytes.length + 2L) / 3) + ENVELOPE_BYTES + header);
    }

    @Override
    public String soapAction() {
        return ACTION;
    }

    @Override
    public boolean soap12() {
        return false;
    }

    /**
     * The SOAP 1.1 envelope, built with AXIOM once (a multicast sends the same bytes to every replica)
     * and on a sender thread, never on the ordering thread.
     */
    @Override
    public synchronized byte[] envelope() {
        if (envelope == null) {
            SOAPFactory f = OMAbstractFactory.getSOAP11Factory();
            SOAPEnvelope env = f.getDefaultEnvelope();
            OMNamespace ns = f.createOMNamespace(NAMESPACE, "bftws");
            OMElement e = f.createOMElement(ELEMENT.getLocalPart(), ns);
            if (replyTo != null) {
                e.addAttribute(REPLY_TO, replyTo.toString(), null);
            }
            e.setText(Base64.getEncoder().encodeToString(signedBytes));
            env.getBody().addChild(e);
            ByteArrayOutputStream out = new ByteArrayOutputStream(estimatedEnvelopeBytes());
            try {
                env.serialize(out);
            } catch (XMLStreamException ex) {
                throw new IllegalStateException("cannot serialise a control message", ex);
            }
            envelope = wsSecurity == null ? out.toByteArray() : wsSecurity.apply(out.toByteArray());
        }
        return envelope;
    }

    /**
     * Reads the payload element of a received message, refusing more than {@code maxBytes} decoded bytes
     * before they are buffered: the text is streamed and counted, so an oversized message costs at most
     * the limit in memory. (Axiom's SOAP parser already refuses a DOCTYPE, hence entity expansion.)
     *
     * @throws IllegalArgumentException if the element is not a well-formed control message
     */
    static ControlMessage read(OMElement e, int maxBytes) {
        if (e == null || !ELEMENT.equals(e.getQName())) {
            throw new IllegalArgumentException("no " + ELEMENT + " element in the body");
        }
        URI replyTo = null;
        String reply = e.getAttributeValue(new QName(REPLY_TO));
        if (reply != null) {
            replyTo = URI.create(reply.trim());
            if (!"http".equalsIgnoreCase(replyTo.getScheme()) && !"https".equalsIgnoreCase(replyTo.getScheme())) {
                throw new IllegalArgumentException("replyTo is not an http(s) URL");
            }
        }
        long maxChars = 4L * ((maxBytes + 2L) / 3);
        StringBuilder text = new StringBuilder();
        char[] buf = new char[8192];
        try (Reader r = e.getTextAsStream(false)) {
            for (int k; (k = r.read(buf)) > 0; ) {
                if (text.length() + k > maxChars) {
                    throw new IllegalArgumentException("control message larger than " + maxBytes + " bytes");
                }
                text.append(buf, 0, k);
            }
        } catch (IOException ex) {
            throw new IllegalArgumentException("unreadable control message: " + ex.getMessage());
        }
        byte[] bytes = Base64.getDecoder().decode(text.toString().strip());
        if (bytes.length > maxBytes) { // the character bound above is exact only to base64's 3-byte groups
            throw new IllegalArgumentException("control message larger than " + maxBytes + " bytes");
        }
        return new ControlMessage(bytes, replyTo);
    }
}
