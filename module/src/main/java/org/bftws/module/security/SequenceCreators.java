package org.bftws.module.security;

import java.security.cert.X509Certificate;
import java.util.List;

import org.apache.axis2.AxisFault;
import org.apache.axis2.context.MessageContext;
import org.apache.ws.security.WSConstants;
import org.apache.ws.security.WSSecurityEngineResult;
import org.apache.ws.security.handler.WSHandlerConstants;
import org.apache.ws.security.handler.WSHandlerResult;
import org.bftws.module.handlers.Refusal;

/**
 * Binds a WS-RM sequence to the party that created it (BFT-WS paper §3.3.1: client↔replica messages are
 * WS-Security signed; here the signature also says who may send on a sequence). A replica records the X.509
 * certificate that signed a sequence's CreateSequence, as Rampart verified it, and accepts an application
 * message of that sequence only if the same certificate signed it. Without this, a known sequence would only
 * prove that some holder of a trusted certificate created it, not that the same party sends on it.
 *
 * <p>Reads Rampart's verification results ({@link WSHandlerConstants#RECV_RESULTS}) from the message context:
 * loaded only with {@code bftws.security=rampart}, where WSS4J is on the class path.
 */
public final class SequenceCreators {
    private SequenceCreators() {
    }

    /**
     * The one certificate whose signature Rampart verified on {@code mc}, or null if none did (or several
     * different ones did: then no single party speaks for the message).
     */
    public static X509Certificate signerOf(MessageContext mc) {
        X509Certificate signer = null;
        for (WSSecurityEngineResult r : signatureResults(mc.getProperty(WSHandlerConstants.RECV_RESULTS))) {
            X509Certificate c = (X509Certificate) r.get(WSSecurityEngineResult.TAG_X509_CERTIFICATE);
            if (c == null || (signer != null && !signer.equals(c))) {
                return null;
            }
            signer = c;
        }
        return signer;
    }

    /**
     * Refuses {@code mc}, an application message of {@code sequenceId}, unless the certificate that signed the
     * sequence's CreateSequence ({@code creator}) signed it too.
     */
    public static void requireCreator(MessageContext mc, String sequenceId, X509Certificate creator)
            throws AxisFault {
        X509Certificate signer = signerOf(mc);
        if (creator == null || signer == null || !creator.equals(signer)) {
            throw Refusal.fault("BFT-WS: application message refused: sequence " + sequenceId
                    + " was created by another party's certificate than the one that signed this message");
        }
    }

    private static List<WSSecurityEngineResult> signatureResults(Object recv) {
        List<WSSecurityEngineResult> out = new java.util.ArrayList<>();
        if (recv instanceof List<?> handlerResults) {
            for (Object h : handlerResults) {
                if (h instanceof WSHandlerResult wr) {
                    for (WSSecurityEngineResult r : wr.getResults()) {
                        if (Integer.valueOf(WSConstants.SIGN).equals(r.get(WSSecurityEngineResult.TAG_ACTION))) {
                            out.add(r);
                        }
                    }
                }
            }
        }
        return out;
    }
}
