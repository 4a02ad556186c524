package org.bftws.client.embedded;

import java.util.Base64;
import java.util.Iterator;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.axiom.om.OMElement;
import org.apache.axiom.soap.SOAPHeaderBlock;
import org.apache.axis2.context.MessageContext;
import org.apache.axis2.handlers.AbstractHandler;
import org.bftws.core.message.ReplyBundle;
import org.bftws.module.transport.ControlMessage;

/**
 * In a client's {@code Transport} phase, before its control port checks the WS-Security signature: while
 * {@link #victim} is a replica id, moves the signed timestamp's Created of that replica's replies one second on
 * (the Ed25519-signed reply inside stays intact, so only the WS-Security check can catch it).
 */
final class ReplyTamperer extends AbstractHandler {
    static volatile int victim = -1;
    static final AtomicInteger tampered = new AtomicInteger();
    private static final String WSU = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd";

    @Override
    public InvocationResponse invoke(MessageContext mc) {
        OMElement body = mc.getEnvelope().getBody().getFirstElement();
        if (victim >= 0 && body != null && ControlMessage.ELEMENT.equals(body.getQName()) && fromVictim(body)) {
            OMElement created = created(mc);
            if (created != null) {
                String t = created.getText();
                created.setText(t.substring(0, 17) + (t.charAt(17) == '0' ? '1' : '0') + t.substring(18));
                tampered.incrementAndGet();
            }
        }
        return InvocationResponse.CONTINUE;
    }

    private static boolean fromVictim(OMElement body) {
        try {
            return ReplyBundle.decode(Base64.getDecoder().decode(body.getText().strip())).sender() == victim;
        } catch (RuntimeException e) {
            return false;
        }
    }

    private static OMElement created(MessageContext mc) {
        if (mc.getEnvelope().getHeader() == null) {
            return null;
        }
        for (Iterator<?> it = mc.getEnvelope().getHeader().getChildElements(); it.hasNext(); ) {
            SOAPHeaderBlock block = (SOAPHeaderBlock) it.next();
            if ("Security".equals(block.getLocalName())) {
                OMElement ts = block.getFirstChildWithName(new javax.xml.namespace.QName(WSU, "Timestamp"));
                return ts == null ? null : ts.getFirstChildWithName(new javax.xml.namespace.QName(WSU, "Created"));
            }
        }
        return null;
    }
}
