package org.bftws.module.client;

import java.io.ByteArrayOutputStream;

import javax.xml.stream.XMLStreamException;

import org.apache.axiom.soap.SOAPEnvelope;
import org.apache.neethi.Policy;
import org.bftws.core.message.ReplyBundle;
import org.bftws.module.security.ReplySignatures;
import org.bftws.module.transport.ControlGuard;
import org.bftws.module.transport.ControlMessage;

/**
 * A rampart client's control port admits a reply only if it is WS-Security signed by the replica whose
 * Ed25519 identity signed the {@code ReplyBundle} inside (paper §3.3.1: replies are WS-Security signed). The
 * identity read here is not yet authenticated: the Voter checks the Ed25519 signature afterwards, so a reply
 * that names another replica than its X.509 signer is refused here, and one that lies about it inside fails
 * there. Created only with {@code bftws.security=rampart}, so {@code none} loads no WSS4J class.
 */
final class SignedReplyGuard implements ControlGuard {
    private final ReplySignatures signatures;

    SignedReplyGuard(Policy policy, int n) {
        this.signatures = ReplySignatures.of(policy, n);
    }

    @Override
    public boolean admit(SOAPEnvelope envelope, ControlMessage message) {
        int replica;
        byte[] bytes;
        try {
            replica = ReplyBundle.decode(message.signedBytes()).sender();
            bytes = bytes(envelope);
        } catch (RuntimeException e) {
            return false; // not a reply: the client takes nothing else on its control port
        }
        return signatures.admit(bytes, replica);
    }

    long refused(int replica) {
        return signatures.refused(replica);
    }

    private static byte[] bytes(SOAPEnvelope envelope) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            envelope.serialize(out); // with caching: the receiver has read the body already
        } catch (XMLStreamException e) {
            throw new IllegalStateException("cannot serialise a received control message", e);
        }
        return out.toByteArray();
    }
}
