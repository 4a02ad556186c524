package org.bftws.module.rm;

import java.net.URI;
import java.util.function.UnaryOperator;

import javax.xml.namespace.QName;
import javax.xml.stream.XMLStreamException;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMNamespace;
import org.apache.axiom.soap.SOAPEnvelope;
import org.apache.axiom.soap.SOAPFactory;
import org.apache.axiom.soap.SOAPHeader;
import org.apache.axis2.addressing.AddressingConstants;
import org.bftws.core.message.Request;
import org.bftws.core.message.Signed;
import org.bftws.module.transport.OutboundSoap;

/**
 * A group client's end of its sequence as a WS-RM 1.1 {@code TerminateSequence} (paper §3.3.1.1: the Out
 * Handler "sends a terminate-sequence request after the last message of a sequence is transmitted"), to every
 * replica's group service: each replica's Sandesha2 terminates its receiving side as for any WS-RM client and
 * answers {@code TerminateSequenceResponse} on the HTTP response (ReplyTo and FaultTo anonymous). The same
 * {@code <bftws:Request>} header as an application message carries the client's signature over core's
 * terminate request ({@link Request#terminate}), which the replicas order: only the sequence's own client can
 * end it, and once ordered its entry becomes a tombstone.
 */
public final class TerminateMessage implements OutboundSoap {
    public static final String ACTION = ClientUuidElement.WSRM_11 + "/TerminateSequence";
    public static final QName BODY = new QName(ClientUuidElement.WSRM_11, "TerminateSequence");
    static final QName IDENTIFIER = new QName(ClientUuidElement.WSRM_11, "Identifier");

    private final Signed signed;
    private final Request request;
    private final URI to;
    private final UnaryOperator<byte[]> wsSecurity;
    private byte[] envelope;

    private TerminateMessage(Signed signed, Request request, URI to, UnaryOperator<byte[]> wsSecurity) {
        this.signed = signed;
        this.request = request;
        this.to = to;
        this.wsSecurity = wsSecurity;
    }

    /**
     * The TerminateSequence carrying {@code signedTerminate} to the group's main service at {@code groupEndpoint}
     * (Sandesha2's sequences are per Axis2 instance, not per service), its envelope passed through
     * {@code wsSecurity} when not null ({@code bftws.security=rampart}).
     *
     * @throws IllegalArgumentException if the bytes are no signed terminate
     */
    public static TerminateMessage of(Signed signedTerminate, URI groupEndpoint, UnaryOperator<byte[]> wsSecurity) {
        Request r = Request.decode(signedTerminate.body());
        if (!r.terminates()) {
            throw new IllegalArgumentException("not a terminate: " + r.id());
        }
        return new TerminateMessage(signedTerminate, r, groupEndpoint, wsSecurity);
    }

    @Override
    public String soapAction() {
        return ACTION;
    }

    @Override
    public boolean soap12() {
        return false;
    }

    @Override
    public int estimatedEnvelopeBytes() {
        return 1536 + (wsSecurity == null ? 0 : 4096) + to.toString().length();
    }

    @Override
    public synchronized byte[] envelope() {
        if (envelope == null) {
            try {
                byte[] plain = ApplicationMessage.serialise(build());
                envelope = wsSecurity == null ? plain : wsSecurity.apply(plain);
            } catch (XMLStreamException e) {
                throw new IllegalStateException("cannot build the TerminateSequence", e);
            }
        }
        return envelope;
    }

    private SOAPEnvelope build() {
        SOAPFactory f = OMAbstractFactory.getSOAP11Factory();
        SOAPEnvelope env = f.getDefaultEnvelope();
        SOAPHeader header = env.getHeader();
        OMNamespace wsa = f.createOMNamespace(AddressingConstants.Final.WSA_NAMESPACE, "wsa");
        header.addHeaderBlock("To", wsa).setText(to.toString());
        header.addHeaderBlock("Action", wsa).setText(ACTION);
        header.addHeaderBlock("MessageID", wsa).setText(ApplicationMessage.messageId(request));
        OMElement reply = header.addHeaderBlock("ReplyTo", wsa);
        f.createOMElement("Address", wsa, reply).setText(AddressingConstants.Final.WSA_ANONYMOUS_URL);
        OMElement faultTo = header.addHeaderBlock("FaultTo", wsa);
        f.createOMElement("Address", wsa, faultTo).setText(AddressingConstants.Final.WSA_ANONYMOUS_URL);
        ApplicationMessage.addRequestHeader(f, header, signed, request);
        OMNamespace rm = f.createOMNamespace(ClientUuidElement.WSRM_11, "wsrm");
        OMElement terminate = f.createOMElement(BODY.getLocalPart(), rm, env.getBody());
        f.createOMElement(IDENTIFIER.getLocalPart(), rm, terminate).setText(request.sequenceId());
        return env;
    }
}
