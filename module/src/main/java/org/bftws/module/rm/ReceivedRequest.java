package org.bftws.module.rm;

import java.net.URI;
import java.util.Base64;

import javax.xml.namespace.QName;

import org.apache.axiom.om.OMElement;
import org.apache.axiom.soap.SOAPEnvelope;
import org.apache.axiom.soap.SOAPHeader;
import org.apache.axis2.AxisFault;
import org.apache.axis2.addressing.EndpointReference;
import org.apache.axis2.context.MessageContext;
import org.bftws.core.crypto.Verifier;
import org.bftws.core.message.Kind;
import org.bftws.core.message.Request;
import org.bftws.core.message.Signed;
import org.bftws.module.api.ApplicationRequest;
import org.bftws.module.api.ConfidentialCalls;
import org.bftws.module.config.BftwsConfig;
import org.bftws.module.handlers.Refusal;
import org.bftws.module.transport.ControlMessage;
import org.bftws.module.xml.Payloads;

/**
 * The replica's side of {@link ApplicationMessage} (paper §3.3.1.4, the BFT-WS In Handler "stores the
 * application message for ordering"): rebuilds core's signed request from a received WS-RM application
 * message and checks the client's signature over it. The operation bytes come from the envelope itself
 * (service from wsa:To, wsa:Action, SOAP version, the Body's payload serialised by Axiom), so a replica
 * orders exactly what the client signed or refuses the message.
 */
public final class ReceivedRequest {
    private static final QName SEQUENCE = new QName(ClientUuidElement.WSRM_11, "Sequence");

    private ReceivedRequest() {
    }

    /** True if the message carries the BFT-WS request header (a group client's application message). */
    public static boolean isPresent(MessageContext mc) {
        SOAPHeader h = mc.getEnvelope().getHeader();
        return h != null && h.getFirstChildWithName(ApplicationMessage.HEADER) != null;
    }

    /** A received request as core's signed bytes with the reply address, and decoded. */
    public record Received(Request request, ControlMessage message) {
    }

    /**
     * The signed request and its reply address, ready for the Total Order Manager.
     *
     * @throws AxisFault (a refusal) if a part is missing or malformed or the signature does not verify
     */
    public static Received read(MessageContext mc, BftwsConfig config, Verifier verifier) throws AxisFault {
        SOAPEnvelope env = mc.getEnvelope();
        OMElement bft = env.getHeader().getFirstChildWithName(ApplicationMessage.HEADER);
        OMElement seq = env.getHeader().getFirstChildWithName(SEQUENCE);
        OMElement payload = env.getBody().getFirstElement();
        String service = mc.getTo() == null ? null : config.groupService(mc.getTo().getAddress());
        String action = mc.getWSAAction();
        if (seq == null || payload == null || service == null || action == null || action.isEmpty()) {
            throw refused("a wsrm:Sequence header, wsa:To naming a service of the group, wsa:Action and a body"
                    + " payload are required");
        }
        Request r;
        byte[] signature;
        try {
            boolean randomized = bool(bft.getAttributeValue(new QName(ApplicationMessage.RANDOMIZED)));
            boolean sealed = ConfidentialCalls.isSealed(payload);
            ApplicationRequest op = new ApplicationRequest(service, action, !mc.isSOAP11(),
                    sealed ? ConfidentialCalls.ciphertext(payload) : Payloads.serialize(payload), sealed);
            r = new Request(client(bft), child(seq, "Identifier"), Long.parseLong(child(seq, "MessageNumber")),
                    randomized, op.encode());
            signature = signature(bft);
        } catch (IllegalArgumentException e) { // NumberFormatException included
            throw refused("malformed request header (" + e.getMessage() + ")");
        }
        return verified(r, signature, replyTo(mc), config, verifier, "message");
    }

    /** True if the message's Body is a WS-RM 1.1 TerminateSequence ({@link TerminateMessage}). */
    public static boolean isTerminate(MessageContext mc) {
        OMElement first = mc.getEnvelope().getBody().getFirstElement();
        return first != null && TerminateMessage.BODY.equals(first.getQName());
    }

    /**
     * The client's signed terminate from a {@link TerminateMessage}, ready for the Total Order Manager (no
     * reply address: the replica answers where the client's requests named).
     *
     * @throws AxisFault (a refusal) if the header or Identifier is missing or the signature does not verify
     */
    public static Received readTerminate(MessageContext mc, BftwsConfig config, Verifier verifier) throws AxisFault {
        OMElement bft = mc.getEnvelope().getHeader().getFirstChildWithName(ApplicationMessage.HEADER);
        OMElement id = mc.getEnvelope().getBody().getFirstElement().getFirstChildWithName(TerminateMessage.IDENTIFIER);
        Request r;
        byte[] signature;
        try {
            if (id == null) {
                throw new IllegalArgumentException("no Identifier");
            }
            r = Request.terminate(client(bft), id.getText().strip());
            signature = signature(bft);
        } catch (IllegalArgumentException e) {
            throw refused("malformed TerminateSequence (" + e.getMessage() + ")");
        }
        return verified(r, signature, null, config, verifier, "TerminateSequence");
    }

    private static Received verified(Request r, byte[] signature, URI replyTo, BftwsConfig config, Verifier verifier,
            String what) throws AxisFault {
        Signed signed = Signed.of(Kind.REQUEST, r.client(), r.encode(), signature);
        if (signed.sender() < config.clientBase() || !signed.verify(verifier)) {
            throw refused("the client's signature does not cover this " + what);
        }
        if (r.namesAnotherClientThan(config.replicatedClients().principal(r.client()))) {
            // core would only record evidence; the sender should hear why nothing happens (SequenceOwner)
            throw refused("sequence " + r.sequenceId() + " is another client's than " + r.client() + ", which signed"
                    + " this " + what);
        }
        return new Received(r, new ControlMessage(signed.encode(), replyTo));
    }

    private static int client(OMElement bft) {
        return Integer.parseInt(bft.getAttributeValue(new QName(ApplicationMessage.CLIENT)));
    }

    private static byte[] signature(OMElement bft) {
        return Base64.getDecoder().decode(bft.getText().strip());
    }

    private static URI replyTo(MessageContext mc) throws AxisFault {
        EndpointReference to = mc.getReplyTo();
        URI uri;
        try {
            uri = to == null || to.getAddress() == null ? null : URI.create(to.getAddress().trim());
        } catch (IllegalArgumentException e) {
            uri = null;
        }
        if (uri == null || !("http".equalsIgnoreCase(uri.getScheme()) || "https".equalsIgnoreCase(uri.getScheme()))) {
            throw refused("wsa:ReplyTo must be the client's http(s) control port");
        }
        return uri;
    }

    private static boolean bool(String v) {
        if ("true".equals(v) || "false".equals(v)) {
            return Boolean.parseBoolean(v);
        }
        throw new IllegalArgumentException("randomized is " + v);
    }

    private static String child(OMElement seq, String name) {
        OMElement e = seq.getFirstChildWithName(new QName(ClientUuidElement.WSRM_11, name));
        if (e == null) {
            throw new IllegalArgumentException("no " + name);
        }
        return e.getText().strip();
    }

    private static AxisFault refused(String why) {
        return Refusal.fault("BFT-WS: application message refused: " + why);
    }
}
