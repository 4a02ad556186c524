package org.bftws.module.security;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

import org.apache.axis2.AxisFault;
import org.apache.axis2.Constants;
import org.apache.axis2.client.ServiceClient;
import org.apache.axis2.context.MessageContext;
import org.apache.axis2.description.AxisBindingMessage;
import org.apache.axis2.description.AxisModule;
import org.apache.axis2.description.AxisService;
import org.apache.neethi.Policy;
import org.apache.neethi.PolicyEngine;
import org.bftws.module.rm.ClientUuidElement;

/**
 * Puts an {@link AxisService} under a WS-SecurityPolicy enforced by Rampart (paper §3.3.1: client↔replica
 * messages are WS-Security signed; protocol messages between replicas keep their own signatures). The
 * policy is attached to the service itself, not passed as the {@code rampartPolicy} option: with WS-RM
 * some control messages (CreateSequence, acknowledgements) otherwise leave unsigned (docs/design/dependencies.md).
 * Needs {@code rampart.mar} deployed in the repository; nothing here links against Rampart's classes.
 */
public final class RampartSigning {
    public static final String RAMPART_MODULE = "rampart";
    private static final String SEQUENCE_ACKNOWLEDGEMENT = ClientUuidElement.WSRM_11 + "/SequenceAcknowledgement";

    private RampartSigning() {
    }

    /** Parses a WS-Policy file (e.g. one with an AsymmetricBinding and a RampartConfig assertion). */
    public static Policy load(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return PolicyEngine.getPolicy(in);
        } catch (RuntimeException e) {
            throw new IOException("not a WS-Policy document: " + file + " (" + e.getMessage() + ")", e);
        }
    }

    /** Every message of {@code service}, in and out, must satisfy {@code policy}. */
    public static void require(AxisService service, Policy policy) throws AxisFault {
        AxisModule rampart = service.getAxisConfiguration().getModule(RAMPART_MODULE);
        if (rampart == null) {
            throw new AxisFault("BFT-WS: WS-Security signing needs rampart.mar in the repository's modules");
        }
        service.getPolicySubject().attachPolicy(policy);
        service.engageModule(rampart);
    }

    /**
     * Leaves a replica's WS-RM {@code SequenceAcknowledgement} (the answer on an application message's HTTP
     * response) out of Rampart's signing: the client's Multicast Sender does not read acknowledgements (core's
     * retransmission decides, until f+1 signed replies are voted), so a signature on them would cost each
     * replica an RSA signature per request that nobody checks. Axis2 takes a message's effective policy from
     * the binding message its context names; a binding message of its own, attached to no binding, has none,
     * so Rampart adds nothing. Other messages are left alone.
     */
    public static void leaveAcknowledgementUnsigned(MessageContext msgContext) {
        if (SEQUENCE_ACKNOWLEDGEMENT.equals(msgContext.getWSAAction())) {
            msgContext.setProperty(Constants.AXIS_BINDING_MESSAGE, new AxisBindingMessage());
        }
    }

    /** A client's requests are signed and its replies verified: the policy on the client's own AxisService. */
    public static void require(ServiceClient client, Policy policy) throws AxisFault {
        require(client.getAxisService(), policy);
    }
}
