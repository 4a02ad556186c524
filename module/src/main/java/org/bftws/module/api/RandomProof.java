package org.bftws.module.api;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Iterator;

import javax.xml.namespace.QName;

import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMFactory;
import org.apache.axiom.om.OMNamespace;
import org.apache.axiom.soap.SOAPEnvelope;
import org.apache.axiom.soap.SOAPFactory;
import org.apache.axiom.soap.SOAPHeader;
import org.bftws.core.crypto.threshold.GroupKey;
import org.bftws.core.crypto.threshold.SchemeId;

/**
 * What a third party needs to check a collective random number, beside {@code <bftws:Random>} in the header
 * of a randomized request's envelope at the replica:
 *
 * <pre>{@code
 * <bftws:RandomProof xmlns:bftws="urn:bftws" algorithm="ct" scheme="bls" groupKey="HEX">
 *   <bftws:Message>HEX</bftws:Message>      what the group signed: CoinMessage(group id, n, D(request))
 *   <bftws:Signature>HEX</bftws:Signature>  the combined threshold signature; Random = SHA-256(Signature)
 * </bftws:RandomProof>
 * }</pre>
 *
 * <p>{@code groupKey} is the id of the group key ({@link #keyId}: SHA-256 of its encoding in {@code group.pub}).
 * Only unique signatures checkable with the group key alone carry a {@code Signature}: threshold BLS and Shoup
 * RSA. A CKS coin (its value is g̃^x, checkable only with k shares and their proofs) and the BA algorithm's
 * numbers (an XOR of contributions signed by the replicas' Ed25519 keys, held inside the group) carry the
 * algorithm, scheme and message only, so a verifier can say why it cannot check them.
 */
public record RandomProof(String algorithm, String scheme, String groupKey, byte[] message, byte[] signature) {
    public static final QName HEADER = new QName(CollectiveRandom.NAMESPACE, "RandomProof", "bftws");
    static final QName MESSAGE = new QName(CollectiveRandom.NAMESPACE, "Message", "bftws");
    static final QName SIGNATURE = new QName(CollectiveRandom.NAMESPACE, "Signature", "bftws");
    /** Upper bound on either hex field read from a header (bytes): far above any coin message or signature. */
    public static final int MAX_FIELD_BYTES = 4096;

    public RandomProof {
        message = message.clone();
        signature = signature.clone();
    }

    @Override
    public byte[] message() {
        return message.clone();
    }

    @Override
    public byte[] signature() {
        return signature.clone();
    }

    /** Whether the scheme's combined value is a signature anyone can check with the group key alone. */
    public static boolean publiclyVerifiable(SchemeId scheme) {
        return scheme == SchemeId.BLS || scheme == SchemeId.RSA;
    }

    /** The id of a threshold group key: lower-case hex SHA-256 of its common encoding (BLS: the G2 point). */
    public static String keyId(GroupKey group) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(group.commonEncoding()));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 unavailable", e);
        }
    }

    /** Adds this proof as a {@code <bftws:RandomProof>} header block. */
    public void addHeader(SOAPEnvelope envelope) {
        SOAPFactory factory = (SOAPFactory) envelope.getOMFactory();
        SOAPHeader header = envelope.getHeader() != null ? envelope.getHeader() : factory.createSOAPHeader(envelope);
        OMNamespace ns = factory.createOMNamespace(CollectiveRandom.NAMESPACE, HEADER.getPrefix());
        fill(factory, header.addHeaderBlock(HEADER.getLocalPart(), ns), ns);
    }

    /**
     * Appends {@code <bftws:Random>} with the number and this proof's {@code <bftws:RandomProof>} to {@code
     * parent}: what a service hands on so that its callers can check the number (the header's content).
     */
    public void appendTo(OMElement parent, byte[] random) {
        OMFactory factory = parent.getOMFactory();
        OMNamespace ns = factory.createOMNamespace(CollectiveRandom.NAMESPACE, HEADER.getPrefix());
        factory.createOMElement(CollectiveRandom.HEADER.getLocalPart(), ns, parent)
                .setText(HexFormat.of().formatHex(random));
        fill(factory, factory.createOMElement(HEADER.getLocalPart(), ns, parent), ns);
    }

    private void fill(OMFactory factory, OMElement e, OMNamespace ns) {
        e.addAttribute("algorithm", algorithm, null);
        if (!scheme.isEmpty()) {
            e.addAttribute("scheme", scheme, null);
            e.addAttribute("groupKey", groupKey, null);
        }
        child(factory, e, ns, MESSAGE, message);
        child(factory, e, ns, SIGNATURE, signature);
    }

    private static void child(OMFactory factory, OMElement parent, OMNamespace ns, QName name, byte[] value) {
        if (value.length > 0) {
            factory.createOMElement(name.getLocalPart(), ns, parent).setText(HexFormat.of().formatHex(value));
        }
    }

    /**
     * The {@code <bftws:RandomProof>} header of the envelope, or null if there is none.
     *
     * @throws IllegalArgumentException if it is malformed (no algorithm, a field not hex or too long)
     */
    public static RandomProof fromHeader(SOAPEnvelope envelope) {
        SOAPHeader header = envelope.getHeader();
        Iterator<?> it = header == null ? null : header.getChildrenWithName(HEADER);
        return it == null || !it.hasNext() ? null : fromElement((OMElement) it.next());
    }

    /** A proof from its element (as written by {@link #addHeader}); see {@link #fromHeader}. */
    public static RandomProof fromElement(OMElement e) {
        String algorithm = e.getAttributeValue(new QName("algorithm"));
        if (algorithm == null || algorithm.isBlank()) {
            throw new IllegalArgumentException("RandomProof without an algorithm");
        }
        String scheme = e.getAttributeValue(new QName("scheme"));
        String key = e.getAttributeValue(new QName("groupKey"));
        return new RandomProof(algorithm.trim(), scheme == null ? "" : scheme.trim(), key == null ? "" : key.trim(),
                hexChild(e, MESSAGE), hexChild(e, SIGNATURE));
    }

    private static byte[] hexChild(OMElement e, QName name) {
        OMElement child = e.getFirstChildWithName(name);
        if (child == null) {
            return new byte[0];
        }
        String text = child.getText().trim();
        if (text.length() > 2 * MAX_FIELD_BYTES) {
            throw new IllegalArgumentException(name.getLocalPart() + " longer than " + MAX_FIELD_BYTES + " bytes");
        }
        try {
            return HexFormat.of().parseHex(text);
        } catch (IllegalArgumentException ex) {
            throw new IllegalArgumentException(name.getLocalPart() + " is not hex");
        }
    }
}
