package org.bftws.module.api;

import java.util.HexFormat;
import java.util.Iterator;

import javax.xml.namespace.QName;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.soap.SOAPEnvelope;
import org.apache.axiom.soap.SOAPFactory;
import org.apache.axiom.soap.SOAPHeader;
import org.apache.axiom.soap.SOAPHeaderBlock;
import org.apache.axis2.AxisFault;
import org.apache.axis2.client.ServiceClient;
import org.apache.axis2.context.MessageContext;
import org.apache.axis2.context.OperationContext;
import org.apache.axis2.wsdl.WSDLConstants;

/**
 * The collective random number of a randomized operation (integrity paper §4–§5), where services and
 * clients read it.
 *
 * <p><b>Service side.</b> The Total Order Invoker delivers a randomized request with the number in a SOAP
 * header {@code <bftws:Random xmlns:bftws="urn:bftws">HEX</bftws:Random>} on the request envelope it builds
 * (nothing of the client's envelope is kept, so a client cannot supply it) and in a message context property;
 * {@link #current()} reads the property of the message being executed on this thread. Requests of other
 * operations carry neither. <b>Client side.</b> The BFT-WS Out Handler puts the number the Voter accepted
 * with f+1 matching replies on the response envelope, in the same header; {@link #ofLastReply} reads it
 * after {@code sendReceive}.
 */
public final class CollectiveRandom {
    public static final String NAMESPACE = "urn:bftws";
    public static final QName HEADER = new QName(NAMESPACE, "Random", "bftws");
    /**
     * Message context property with the number (byte[]), set only by the Total Order Invoker. Unlike a
     * header, no client can set it, so it is also safe where the module runs without a group.
     */
    public static final String PROPERTY = "org.bftws.random";
    /** Message context property with the number's {@link RandomProof}, set only by the Total Order Invoker. */
    public static final String PROOF_PROPERTY = "org.bftws.random.proof";

    /**
     * Client {@code Options} property (Boolean): this call is of a randomized operation. The client signs
     * the flag into its request (integrity paper §4); the replicas check it against the operation's
     * declaration, so a client cannot make them draw numbers for operations that need none. Default false.
     */
    public static final String RANDOMIZED_OPTION = "org.bftws.randomized";

    private CollectiveRandom() {
    }

    /** Whether the caller flagged this call as randomized ({@link #RANDOMIZED_OPTION}). */
    public static boolean flagged(MessageContext request) {
        return Boolean.TRUE.equals(request.getOptions().getProperty(RANDOMIZED_OPTION));
    }

    /**
     * The random number delivered with the request this thread is executing (a copy), or null when the
     * request has none: not randomized, randomness off, or not executed through a replica group.
     */
    public static byte[] current() {
        MessageContext mc = MessageContext.getCurrentMessageContext();
        Object random = mc == null ? null : mc.getProperty(PROPERTY);
        return random instanceof byte[] r ? r.clone() : null;
    }

    /** The number of the last voted reply {@code client} received, or null if that reply carried none. */
    public static byte[] ofLastReply(ServiceClient client) {
        OperationContext oc = client.getLastOperationContext();
        if (oc == null) {
            return null;
        }
        try {
            MessageContext in = oc.getMessageContext(WSDLConstants.MESSAGE_LABEL_IN_VALUE);
            return in == null || in.getEnvelope() == null ? null : fromHeader(in.getEnvelope());
        } catch (AxisFault e) {
            return null; // an operation context without an "In" message: a one-way call has no reply
        }
    }

    /**
     * Marks {@code mc} as carrying {@code random} with its {@code proof} (may be null): the properties and the
     * {@code <bftws:Random>} and {@code <bftws:RandomProof>} headers (nothing for an empty number).
     */
    public static void deliver(MessageContext mc, byte[] random, RandomProof proof) {
        if (random == null || random.length == 0) {
            return;
        }
        mc.setProperty(PROPERTY, random.clone());
        addHeader(mc.getEnvelope(), random);
        if (proof != null) {
            mc.setProperty(PROOF_PROPERTY, proof);
            proof.addHeader(mc.getEnvelope());
        }
    }

    /**
     * What a third party needs to check {@link #current()} (see {@link RandomProof}), or null when the request
     * this thread is executing has no number.
     */
    public static RandomProof currentProof() {
        MessageContext mc = MessageContext.getCurrentMessageContext();
        Object proof = mc == null ? null : mc.getProperty(PROOF_PROPERTY);
        return proof instanceof RandomProof p ? p : null;
    }

    /** Adds {@code <bftws:Random>HEX</bftws:Random>} to the envelope's header (created if absent). */
    public static void addHeader(SOAPEnvelope envelope, byte[] random) {
        SOAPFactory factory = (SOAPFactory) envelope.getOMFactory();
        SOAPHeader header = envelope.getHeader() != null ? envelope.getHeader() : factory.createSOAPHeader(envelope);
        SOAPHeaderBlock block = header.addHeaderBlock(HEADER.getLocalPart(),
                factory.createOMNamespace(NAMESPACE, HEADER.getPrefix()));
        block.setText(HexFormat.of().formatHex(random));
    }

    /**
     * The number in the envelope's {@code <bftws:Random>} header, or null if there is none.
     *
     * @throws IllegalArgumentException if the header is not lower- or upper-case hex
     */
    public static byte[] fromHeader(SOAPEnvelope envelope) {
        SOAPHeader header = envelope.getHeader();
        if (header == null) {
            return null;
        }
        Iterator<?> it = header.getChildrenWithName(HEADER);
        if (!it.hasNext()) {
            return null;
        }
        return HexFormat.of().parseHex(((OMElement) it.next()).getText().trim());
    }

    /** Lower-case hex, as in the header; "" for null. */
    public static String hex(byte[] random) {
        return random == null ? "" : HexFormat.of().formatHex(random);
    }
}
