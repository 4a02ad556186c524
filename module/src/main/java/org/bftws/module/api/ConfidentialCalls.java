package org.bftws.module.api;

import java.util.Base64;

import javax.xml.namespace.QName;

import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMFactory;
import org.apache.axis2.context.MessageContext;

/**
 * Calls of confidential operations (SINTRA §2.6, secure causal atomic broadcast): operations declared
 * {@code <bftws:Confidential/>} in the service's WSDL, whose payload the client encrypts under the group's
 * TDH2 key so that no replica, and so no f colluding ones, reads it before its place in the order is fixed.
 *
 * <p><b>Client side.</b> The caller sets {@link #OPTION} on the call's {@code Options}; the BFT-WS Out
 * Handler then replaces the body's payload element by {@code <bftws:Sealed xmlns:bftws="urn:bftws">BASE64
 * </bftws:Sealed>}, the ciphertext labelled with the request's sequence id and message number. Service and
 * action stay in clear. <b>Replica side.</b> The In Handler refuses a sealed payload that fails its check and
 * a confidential operation received in clear; the Total Order Invoker executes the opened plaintext.
 */
public final class ConfidentialCalls {
    /** Client {@code Options} property (Boolean): this call is of a confidential operation. Default false. */
    public static final String OPTION = "org.bftws.confidential";
    /** The body element carrying a sealed payload. */
    public static final QName SEALED = new QName(CollectiveRandom.NAMESPACE, "Sealed", "bftws");

    private ConfidentialCalls() {
    }

    /** Whether the caller flagged this call as confidential ({@link #OPTION}). */
    public static boolean flagged(MessageContext request) {
        return Boolean.TRUE.equals(request.getOptions().getProperty(OPTION));
    }

    /** The body element carrying {@code ciphertext}. */
    public static OMElement sealedElement(OMFactory f, byte[] ciphertext) {
        OMElement e = f.createOMElement(SEALED);
        e.setText(Base64.getEncoder().encodeToString(ciphertext));
        return e;
    }

    /** Whether {@code payload} is a sealed payload element. */
    public static boolean isSealed(OMElement payload) {
        return payload != null && SEALED.equals(payload.getQName());
    }

    /** The ciphertext a sealed element carries. @throws IllegalArgumentException if it is not base64 */
    public static byte[] ciphertext(OMElement sealed) {
        return Base64.getDecoder().decode(sealed.getText().strip());
    }
}
