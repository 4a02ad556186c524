package org.bftws.module.security;

import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLongArray;

import org.apache.logging.log4j.LogManager;
import org.bftws.module.RateLimitedLog;
import org.apache.neethi.Policy;
import org.apache.ws.security.WSConstants;
import org.apache.ws.security.WSDataRef;
import org.apache.ws.security.WSSecurityEngine;
import org.apache.ws.security.WSSecurityEngineResult;
import org.apache.ws.security.WSSecurityException;
import org.apache.ws.security.components.crypto.Crypto;
import org.apache.ws.security.components.crypto.CryptoType;
import org.bftws.module.config.BftwsConfigException;
import org.bftws.module.config.BftwsKeys;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * The client's check of a replica's WS-Security signature on its replies (BFT-WS paper §3.3.1: the
 * client↔replica messages are WS-Security signed), before the Voter sees them: WSS4J verifies the header
 * (signature, certificate trusted by this client's keystore, timestamp not expired), the signature must cover
 * the envelope's own Body and Timestamp, and its certificate must be the one this client's keystore holds for
 * the replica whose Ed25519 identity signed the reply inside, under the alias {@code replica-(id+1)}. Anything
 * else is refused and counted per replica: the reply is then missing, one of that replica's f failures.
 *
 * <p>Runs on the control port's HTTP worker threads; WSS4J's objects are made per message.
 */
public final class ReplySignatures {
    private static final RateLimitedLog LOG = new RateLimitedLog(LogManager.getLogger(ReplySignatures.class));

    private final Crypto crypto;
    private final X509Certificate[] replicas;
    private final AtomicLongArray refused;

    private ReplySignatures(Crypto crypto, X509Certificate[] replicas) {
        this.crypto = crypto;
        this.replicas = replicas;
        this.refused = new AtomicLongArray(replicas.length);
    }

    /**
     * @throws BftwsConfigException naming {@code bftws.security.policy} if the policy's keystore lacks a
     *         replica's certificate (checked at start, not on the first reply)
     */
    public static ReplySignatures of(Policy policy, int n) {
        Crypto crypto = SigningKeys.of(policy).crypto();
        X509Certificate[] certs = new X509Certificate[n];
        for (int id = 0; id < n; id++) {
            certs[id] = certificate(crypto, alias(id));
        }
        return new ReplySignatures(crypto, certs);
    }

    /** The keystore alias of replica {@code id}'s certificate (as {@code GeneratedKeystores} names them). */
    public static String alias(int id) {
        return "replica-" + (id + 1);
    }

    /** Whether {@code envelope} carries a valid signature by {@code replica}'s certificate; counts refusals. */
    public boolean admit(byte[] envelope, int replica) {
        String why = refusal(envelope, replica);
        if (why == null) {
            return true;
        }
        long count = replica >= 0 && replica < replicas.length ? refused.incrementAndGet(replica) : 0;
        LOG.warn("reply of replica " + replica, "bftws client: reply of replica {} refused ({} so"
                + " far): {}", replica, count, why);
        return false;
    }

    /** Replies of {@code replica} refused so far. */
    public long refused(int replica) {
        return refused.get(replica);
    }

    private String refusal(byte[] envelope, int replica) {
        if (replica < 0 || replica >= replicas.length) {
            return "no such replica";
        }
        try {
            Document doc = DomEnvelopes.parse(envelope);
            List<WSSecurityEngineResult> results = new WSSecurityEngine().processSecurityHeader(doc, null, null,
                    crypto);
            if (results == null) {
                return "no WS-Security header";
            }
            return judge(doc, results, replicas[replica]);
        } catch (WSSecurityException | RuntimeException e) {
            return e.getMessage();
        }
    }

    /** WSS4J checked what is signed; here: by whom, and whether the Body and Timestamp are among it. */
    private static String judge(Document doc, List<WSSecurityEngineResult> results, X509Certificate expected) {
        List<Element> signed = new ArrayList<>();
        X509Certificate signer = null;
        boolean timestamp = false;
        for (WSSecurityEngineResult r : results) {
            int action = (Integer) r.get(WSSecurityEngineResult.TAG_ACTION);
            if (action == WSConstants.TS) {
                timestamp = true;
            } else if (action == WSConstants.SIGN) {
                signer = (X509Certificate) r.get(WSSecurityEngineResult.TAG_X509_CERTIFICATE);
                @SuppressWarnings("unchecked")
                List<WSDataRef> refs = (List<WSDataRef>) r.get(WSSecurityEngineResult.TAG_DATA_REF_URIS);
                refs.forEach(ref -> signed.add(ref.getProtectedElement()));
            }
        }
        if (signer == null || !timestamp) {
            return "no signature or no timestamp";
        }
        if (!signed.contains(body(doc)) || signed.stream().noneMatch(ReplySignatures::isTimestamp)) {
            return "the Body or the Timestamp is not signed";
        }
        return signer.equals(expected) ? null : "signed by another certificate than the replica's";
    }

    /** The envelope's own Body (a child of the Envelope: not one hidden in a header, as in signature wrapping). */
    private static Element body(Document doc) {
        Element envelope = doc.getDocumentElement();
        for (Node c = envelope.getFirstChild(); c != null; c = c.getNextSibling()) {
            if (c instanceof Element e && WSConstants.ELEM_BODY.equals(e.getLocalName())
                    && envelope.getNamespaceURI().equals(e.getNamespaceURI())) {
                return e;
            }
        }
        return null;
    }

    private static boolean isTimestamp(Element e) {
        return WSConstants.WSU_NS.equals(e.getNamespaceURI())
                && WSConstants.TIMESTAMP_TOKEN_LN.equals(e.getLocalName());
    }

    private static X509Certificate certificate(Crypto crypto, String alias) {
        CryptoType type = new CryptoType(CryptoType.TYPE.ALIAS);
        type.setAlias(alias);
        try {
            X509Certificate[] certs = crypto.getX509Certificates(type);
            if (certs != null && certs.length > 0) {
                return certs[0];
            }
        } catch (WSSecurityException e) {
            // reported below, naming the alias
        }
        throw new BftwsConfigException(BftwsKeys.SECURITY_POLICY.name(),
                "its keystore has no certificate " + alias + " (a replica's replies are checked against it)");
    }
}
