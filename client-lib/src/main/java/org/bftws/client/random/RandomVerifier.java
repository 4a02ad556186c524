package org.bftws.client.random;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Iterator;

import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMXMLBuilderFactory;
import org.apache.axiom.om.OMXMLParserWrapper;
import org.bftws.core.crypto.threshold.Codec;
import org.bftws.core.crypto.threshold.GroupValue;
import org.bftws.core.crypto.threshold.SchemeId;
import org.bftws.core.crypto.threshold.ThresholdScheme;
import org.bftws.core.keys.GroupKeys;
import org.bftws.core.keys.KeyFileException;
import org.bftws.core.keys.KeyFiles;
import org.bftws.module.api.CollectiveRandom;
import org.bftws.module.api.RandomProof;

/**
 * Checks a collective random number against the group's public key, as any third party can: the number is
 * SHA-256 of the group's unique threshold signature on the signed message (CT algorithm, integrity paper
 * §5), so it is valid iff the signature verifies under the group key of {@code group.pub} and hashes to
 * the number. Only threshold BLS (and Shoup RSA) numbers can be checked so; a CKS coin and the BA
 * algorithm's numbers are refused with the reason. Thread-safe.
 */
public final class RandomVerifier {
    private static final byte[] COIN_DOMAIN = "BFTWS-CT-coin-v1".getBytes(StandardCharsets.US_ASCII);

    /** The answer: valid or not, with the reason (for a valid number: what the group signed). */
    public record Verdict(boolean valid, String reason) {
        static Verdict invalid(String reason) {
            return new Verdict(false, reason);
        }

        @Override
        public String toString() {
            return (valid ? "valid: " : "invalid: ") + reason;
        }
    }

    private final GroupKeys group;
    private final String keyId;

    public RandomVerifier(GroupKeys group) {
        this.group = group;
        this.keyId = RandomProof.keyId(group.threshold());
    }

    /** A verifier for the group whose public keys {@code groupPub} ({@code scripts/keygen}'s group.pub) holds. */
    public static RandomVerifier of(Path groupPub) throws KeyFileException {
        return new RandomVerifier(KeyFiles.readGroup(groupPub));
    }

    /** The id of this group's key, as {@code groupKey} of {@code <bftws:RandomProof>} names it. */
    public String keyId() {
        return keyId;
    }

    /** Checks {@code random} (the {@code <bftws:Random>} value) against its proof. */
    public Verdict verify(byte[] random, RandomProof proof) {
        if (proof == null) {
            return Verdict.invalid("no <bftws:RandomProof>: nothing to check the number against");
        }
        if (!proof.algorithm().equals("ct")) {
            return Verdict.invalid("the " + proof.algorithm() + " algorithm's numbers are not publicly verifiable:"
                    + " they combine contributions that only the group's replicas see and sign (integrity paper §4);"
                    + " use CT with threshold BLS (bftws.randomness.algorithm=ct, bftws.randomness.scheme=bls)");
        }
        SchemeId scheme;
        try {
            scheme = SchemeId.fromLabel(proof.scheme());
        } catch (IllegalArgumentException e) {
            return Verdict.invalid("unknown threshold scheme '" + proof.scheme() + "'");
        }
        if (!RandomProof.publiclyVerifiable(scheme)) {
            return Verdict.invalid("a " + scheme.label() + " coin is not publicly verifiable: its value can be"
                    + " checked only with k replicas' shares and their proofs, which are not published; use"
                    + " bftws.randomness.scheme=bls");
        }
        if (!proof.groupKey().equals(keyId)) {
            return Verdict.invalid("signed under group key " + proof.groupKey() + ", this group.pub holds " + keyId);
        }
        if (scheme != group.scheme()) {
            return Verdict.invalid("scheme " + scheme.label() + ", the group key is " + group.scheme().label());
        }
        byte[] signature = proof.signature();
        if (signature.length == 0) {
            return Verdict.invalid("no combined signature (one coin per batch: the number is derived from the"
                    + " batch's coin and is not shown)");
        }
        if (random == null || !MessageDigest.isEqual(sha256(signature), random)) {
            return Verdict.invalid("the number is not SHA-256 of the signature");
        }
        ThresholdScheme ts = group.thresholdScheme();
        if (!ts.verifyCombined(group.threshold(), proof.message(), new GroupValue(scheme, signature, new byte[0]))) {
            return Verdict.invalid("the signature does not verify under the group key for this message");
        }
        return new Verdict(true, "the group's " + scheme.label() + " signature on " + describe(proof.message()));
    }

    /**
     * Checks the {@code <bftws:Random>} and {@code <bftws:RandomProof>} headers of a captured envelope, or of
     * any XML document holding both elements (a SOAP header, or the two blocks under one root).
     */
    public Verdict verifyCaptured(String xml) {
        if (xml.contains("<!DOCTYPE")) {
            return Verdict.invalid("a document type declaration: refused");
        }
        OMElement random;
        OMElement proof;
        try {
            OMXMLParserWrapper builder = OMXMLBuilderFactory.createOMBuilder(
                    new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
            OMElement root = builder.getDocumentElement();
            random = find(root, CollectiveRandom.HEADER.getLocalPart());
            proof = find(root, RandomProof.HEADER.getLocalPart());
        } catch (RuntimeException e) {
            return Verdict.invalid("not an XML document: " + e.getClass().getSimpleName());
        }
        if (random == null) {
            return Verdict.invalid("no <bftws:Random> element");
        }
        try {
            return verify(HexFormat.of().parseHex(random.getText().trim()), proof == null ? null
                    : RandomProof.fromElement(proof));
        } catch (IllegalArgumentException e) {
            return Verdict.invalid("malformed header: " + e.getMessage());
        }
    }

    /** The first element in the urn:bftws namespace with this local name, depth-first (the root included). */
    private static OMElement find(OMElement e, String local) {
        if (CollectiveRandom.NAMESPACE.equals(e.getNamespaceURI()) && local.equals(e.getLocalName())) {
            return e;
        }
        for (Iterator<OMElement> it = e.getChildElements(); it.hasNext();) {
            OMElement found = find(it.next(), local);
            if (found != null) {
                return found;
            }
        }
        return null;
    }

    /** "coin of request D at sequence number n of group G" for a CoinMessage; "the message HEX" otherwise. */
    static String describe(byte[] message) {
        try {
            Codec.Reader r = new Codec.Reader(message);
            byte[] domain = r.bytes();
            byte[] groupId = r.bytes();
            long seq = ((long) r.u32() << 32) | (r.u32() & 0xffffffffL);
            byte[] digest = r.bytes();
            r.end();
            if (java.util.Arrays.equals(domain, COIN_DOMAIN)) {
                return "the coin of request " + HexFormat.of().formatHex(digest) + " at sequence number " + seq
                        + " of group " + new String(groupId, StandardCharsets.UTF_8);
            }
        } catch (RuntimeException e) {
            // not a coin message: described by its bytes
        }
        return "the message " + HexFormat.of().formatHex(message);
    }

    static byte[] sha256(byte[] b) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(b);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 unavailable", e);
        }
    }
}
