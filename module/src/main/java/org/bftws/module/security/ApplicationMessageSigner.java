package org.bftws.module.security;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.UnaryOperator;

import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.apache.neethi.Policy;
import org.apache.ws.security.WSConstants;
import org.apache.ws.security.WSEncryptionPart;
import org.apache.ws.security.WSSecurityException;
import org.apache.ws.security.components.crypto.Crypto;
import org.apache.ws.security.message.WSSecHeader;
import org.apache.ws.security.message.WSSecSignature;
import org.apache.ws.security.message.WSSecTimestamp;
import org.bftws.module.rm.ApplicationMessage;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

/**
 * Puts a WS-Security header on a group client's WS-RM application message (BFT-WS paper §3.3.1: the
 * client↔replica messages are WS-Security signed; here with {@code bftws.security=rampart}): a timestamp, the
 * client's X.509 certificate as a binary security token, and an RSA-SHA256 signature (exclusive C14N,
 * SHA-256 digests) over the Body, the timestamp, {@code wsrm:Sequence}, the BFT-WS {@code Request} header and
 * the WS-Addressing headers. The header is laid out as Rampart's policy asks (Strict layout: timestamp
 * first, the token before the signature that references it), so each replica's Rampart checks it against
 * the service's policy like any other signed message. Made with WSS4J 1.6.16, the library Rampart uses.
 *
 * <p>Called by the Multicast Sender's thread when it first builds the envelope, which all replicas then
 * share: one signature per multicast, never on an ordering thread. Thread-safe: WSS4J's objects are made
 * per message; the keystore ({@link SigningKeys}) is shared read-only.
 *
 * <p>{@link #forReplies} signs a replica's control messages to a client (its replies) the same way, over the
 * Body and the timestamp only: a replica's replies are then WS-Security signed as the paper's are (§3.3.1).
 */
public final class ApplicationMessageSigner implements UnaryOperator<byte[]> {
    private static final Logger LOG = LogManager.getLogger(ApplicationMessageSigner.class);
    private static final String WSA = "http://www.w3.org/2005/08/addressing";
    private static final String WSRM = "http://docs.oasis-open.org/ws-rx/wsrm/200702";
    private static final String[] WSA_HEADERS = {"To", "Action", "MessageID", "ReplyTo", "FaultTo"};
    private static final String RSA_SHA256 = "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256";
    private static final String SHA256 = "http://www.w3.org/2001/04/xmlenc#sha256";

    /** Rampart's default timestamp time-to-live (seconds): a replica refuses the message after it. */
    private static final long TIME_TO_LIVE_SECONDS = 300;
    private static final DateTimeFormatter XSD_DATE_TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    private final SigningKeys keys;
    private final Clock clock;
    /** What the signature covers, found in the envelope being signed. */
    private final Function<Document, List<WSEncryptionPart>> parts;
    private final String what;
    /**
     * False for replies: the client's control port checks the header in its message receiver, which Axis2 calls
     * after its mustUnderstand check, so a mustUnderstand header would be refused as not understood.
     */
    private final boolean mustUnderstand;

    private ApplicationMessageSigner(SigningKeys keys, Clock clock, Function<Document, List<WSEncryptionPart>> parts,
            String what, boolean mustUnderstand) {
        this.keys = keys;
        this.clock = clock;
        this.parts = parts;
        this.what = what;
        this.mustUnderstand = mustUnderstand;
    }

    /** A signer with the key and keystore the policy's {@code ramp:RampartConfig} names. */
    public static ApplicationMessageSigner of(Policy policy) {
        return of(policy, Clock.systemUTC());
    }

    /** As {@link #of(Policy)}, timestamps taken from {@code clock} (tests make expired messages with it). */
    public static ApplicationMessageSigner of(Policy policy, Clock clock) {
        return new ApplicationMessageSigner(SigningKeys.of(policy), clock, ApplicationMessageSigner::applicationParts,
                "an application message", true);
    }

    /**
     * A replica's signer of its control messages to clients (replies): Body and timestamp signed. The client's
     * control port checks it with {@link ReplySignatures}, not with Rampart.
     */
    public static ApplicationMessageSigner forReplies(Policy policy, Clock clock) {
        return new ApplicationMessageSigner(SigningKeys.of(policy), clock, ApplicationMessageSigner::replyParts,
                "a reply", false);
    }

    /** The envelope with its WS-Security header. */
    @Override
    public byte[] apply(byte[] envelope) {
        Document doc = DomEnvelopes.parse(envelope);
        try {
            sign(doc, keys.crypto());
        } catch (WSSecurityException e) {
            // The Multicast Sender drops an envelope it cannot build; say why here (never the envelope or key).
            LOG.error("bftws: cannot WS-Security sign {}: {}", what, e.getMessage());
            throw new IllegalStateException("cannot WS-Security sign " + what + ": " + e.getMessage(), e);
        }
        return DomEnvelopes.serialise(doc);
    }

    private void sign(Document doc, Crypto crypto) throws WSSecurityException {
        WSSecHeader header = new WSSecHeader();
        header.setMustUnderstand(mustUnderstand);
        header.insertSecurityHeader(doc);
        WSSecTimestamp timestamp = new WSSecTimestamp();
        timestamp.setTimeToLive((int) TIME_TO_LIVE_SECONDS);
        timestamp.build(doc, header);
        stamp(timestamp.getElement(), clock.instant());
        WSSecSignature signature = new WSSecSignature();
        signature.setUserInfo(keys.user(), keys.password());
        // AlwaysToRecipient initiator token: the certificate travels in the message, referenced directly.
        signature.setKeyIdentifierType(WSConstants.BST_DIRECT_REFERENCE);
        signature.setSignatureAlgorithm(RSA_SHA256);
        signature.setDigestAlgo(SHA256);
        signature.setSigCanonicalization(WSConstants.C14N_EXCL_OMIT_COMMENTS);
        signature.prepare(doc, crypto, header);
        signature.computeSignature(signature.addReferencesToSign(parts.apply(doc), header), false, null);
        signature.prependBSTElementToHeader(header);
        Element security = header.getSecurityHeader();
        security.insertBefore(timestamp.getElement(), security.getFirstChild()); // Strict layout: timestamp first
    }

    /** Created and Expires from this signer's clock (WSS4J takes the system's). */
    private static void stamp(Element timestamp, Instant created) {
        Element c = (Element) timestamp.getElementsByTagNameNS(WSConstants.WSU_NS, WSConstants.CREATED_LN).item(0);
        Element e = (Element) timestamp.getElementsByTagNameNS(WSConstants.WSU_NS, WSConstants.EXPIRES_LN).item(0);
        c.setTextContent(XSD_DATE_TIME.format(created));
        e.setTextContent(XSD_DATE_TIME.format(created.plusSeconds(TIME_TO_LIVE_SECONDS)));
    }

    private static List<WSEncryptionPart> replyParts(Document doc) {
        String soapNs = doc.getDocumentElement().getNamespaceURI();
        List<WSEncryptionPart> parts = new ArrayList<>();
        parts.add(new WSEncryptionPart(WSConstants.ELEM_BODY, soapNs, "Element"));
        parts.add(new WSEncryptionPart(WSConstants.TIMESTAMP_TOKEN_LN, WSConstants.WSU_NS, "Element"));
        return parts;
    }

    /** A TerminateSequence (rm.TerminateMessage) has no wsrm:Sequence header: its Identifier is in the Body. */
    private static List<WSEncryptionPart> applicationParts(Document doc) {
        List<WSEncryptionPart> parts = replyParts(doc);
        if (doc.getElementsByTagNameNS(WSRM, "Sequence").getLength() > 0) {
            parts.add(new WSEncryptionPart("Sequence", WSRM, "Element"));
        }
        parts.add(new WSEncryptionPart(ApplicationMessage.HEADER.getLocalPart(),
                ApplicationMessage.HEADER.getNamespaceURI(), "Element"));
        for (String name : WSA_HEADERS) {
            parts.add(new WSEncryptionPart(name, WSA, "Element"));
        }
        return parts;
    }
}
