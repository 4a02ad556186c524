package org.bftws.module.transport;

import java.io.IOException;
import java.io.Reader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Objects;
import java.util.function.UnaryOperator;

import javax.xml.namespace.QName;

import org.apache.axiom.om.OMElement;
import org.bftws.module.xml.Payloads;

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
    private static final String SOAP11_NAMESPACE = "http://schemas.xmlsoap.org/soap/envelope/";
    private static final byte[] CLOSE = "</bftws:message></soapenv:Body></soapenv:Envelope>"
            .getBytes(StandardCharsets.US_ASCII);

    private final byte[] signedBytes;
    private final URI replyTo;
    /** Null, or what puts a WS-Security header on the envelope (a replica's replies with bftws.security=rampart). */
    private final UnaryOperator<byte[]> wsSecurity;
    /** Null, or the network address a received message came from (never on the wire; see {@link #source()}). */
    private final String source;
    private byte[] envelope;

    public ControlMessage(byte[] signedBytes, URI replyTo) {
        this(signedBytes, replyTo, null);
    }

    /** A message whose envelope {@code wsSecurity} signs when the sender thread first builds it. */
    public ControlMessage(byte[] signedBytes, URI replyTo, UnaryOperator<byte[]> wsSecurity) {
        this(signedBytes, replyTo, wsSecurity, null);
    }

    private ControlMessage(byte[] signedBytes, URI replyTo, UnaryOperator<byte[]> wsSecurity, String source) {
        this.signedBytes = Objects.requireNonNull(signedBytes, "signedBytes");
        this.replyTo = replyTo;
        this.wsSecurity = wsSecurity;
        this.source = source;
    }

    /** This message as received from {@code remoteAddress} (the HTTP connection's peer, a literal IP address). */
    public ControlMessage from(String remoteAddress) {
        return new ControlMessage(signedBytes, replyTo, wsSecurity, remoteAddress);
    }

    /**
     * The address of the connection a received message came over (Axis2's {@code REMOTE_ADDR}), or null for one
     * made in this JVM or received where the transport does not say. Unlike the sender inside the signed bytes it
     * cannot be chosen by the sender: TCP's handshake answers that address.
     */
    public String source() {
        return source;
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
     * The SOAP 1.1 envelope, built once (a multicast sends the same bytes to every replica) and on a sender
     * thread, never on the ordering thread. Its form is fixed, so it is written as bytes around the base64 text,
     * the same bytes Axiom's tree serialised to, at a tenth of the cost or less (docs/performance.md, "Tuning").
     * The receiver parses it with Axis2's SOAP builder like any envelope.
     */
    @Override
    public synchronized byte[] envelope() {
        if (envelope == null) {
            byte[] plain = soapEnvelope();
            envelope = wsSecurity == null ? plain : wsSecurity.apply(plain);
        }
        return envelope;
    }

    private byte[] soapEnvelope() {
        String head = "<?xml version='1.0' encoding='utf-8'?><soapenv:Envelope xmlns:soapenv=\""
                + SOAP11_NAMESPACE + "\"><soapenv:Header/><soapenv:Body><bftws:message xmlns:bftws=\"" + NAMESPACE
                + "\"" + (replyTo == null ? "" : " " + REPLY_TO + "=\"" + Payloads.escape(replyTo.toString()) + "\"") + ">";
        byte[] open = head.getBytes(StandardCharsets.UTF_8);
        byte[] text = Base64.getEncoder().encode(signedBytes); // base64's alphabet needs no escaping in XML
        byte[] out = new byte[open.length + text.length + CLOSE.length];
        System.arraycopy(open, 0, out, 0, open.length);
        System.arraycopy(text, 0, out, open.length, text.length);
        System.arraycopy(CLOSE, 0, out, open.length + text.length, CLOSE.length);
        return out;
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
        return of(text, e.getAttributeValue(new QName(REPLY_TO)), maxBytes);
    }

    /**
     * The message of a payload element's base64 text and {@code replyTo} attribute (null if absent), whichever
     * parser read them.
     *
     * @throws IllegalArgumentException if the text is not base64 of at most {@code maxBytes} bytes, or replyTo
     *                                  is not an http(s) URL
     */
    static ControlMessage of(CharSequence base64, String replyToAttribute, int maxBytes) {
        URI replyTo = null;
        if (replyToAttribute != null) {
            replyTo = URI.create(replyToAttribute.trim());
            if (!"http".equalsIgnoreCase(replyTo.getScheme()) && !"https".equalsIgnoreCase(replyTo.getScheme())) {
                throw new IllegalArgumentException("replyTo is not an http(s) URL");
            }
        }
        byte[] bytes = Base64.getDecoder().decode(base64.toString().strip());
        if (bytes.length > maxBytes) { // a character bound is exact only to base64's 3-byte groups
            throw new IllegalArgumentException("control message larger than " + maxBytes + " bytes");
        }
        return new ControlMessage(bytes, replyTo);
    }
}
