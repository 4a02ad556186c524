package org.bftws.module.handlers;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMXMLBuilderFactory;
import org.apache.axiom.soap.SOAP11Constants;
import org.apache.axiom.soap.SOAP12Constants;
import org.apache.axiom.soap.SOAPEnvelope;
import org.apache.axiom.soap.SOAPFactory;
import org.apache.axis2.AxisFault;
import org.apache.axis2.addressing.EndpointReference;
import org.apache.axis2.context.MessageContext;
import org.apache.axis2.context.OperationContext;
import org.apache.axis2.wsdl.WSDLConstants;
import org.bftws.core.codec.DecodeException;
import org.bftws.core.engine.Event;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.apache.sandesha2.client.SandeshaClientConstants;
import org.bftws.module.BftwsRuntime;
import org.bftws.module.api.ApplicationRequest;
import org.bftws.module.client.GroupClientRuntime;
import org.bftws.module.api.ApplicationResult;
import org.bftws.module.api.CollectiveRandom;
import org.bftws.module.api.ConfidentialCalls;
import org.bftws.module.api.ReadOnlyCalls;
import org.bftws.module.config.BftwsConfig;
import org.bftws.module.config.SecurityMode;
import org.bftws.module.security.RampartSigning;
import org.bftws.module.xml.Payloads;

/**
 * BFT-WS Out Handler (paper §3.3.1.1). Runs in BFTWSPhase, just before SandeshaOutHandler in RMPhase and
 * before Rampart signs in the Security phase.
 *
 * <p>On a group client ({@code bftws.replicated=true}, {@code bftws.role=client}), a message addressed to
 * the group endpoint is an application request for the replica group: this handler wraps its action and
 * body payload in a core request signed with the client's key, has the client runtime multicast it to every
 * replica (§3.3.1.2) and waits for the Voter's f+1 matching authentic replies (§3.3.1.5), then rebuilds the
 * response envelope from the voted result bytes as the ServiceClient's response and stops the out-flow:
 * nothing goes to the group endpoint itself, which names no host.
 *
 * <p>The request belongs to the ServiceClient's WS-RM sequence with the group, established on its first
 * call by a CreateSequence carrying the client UUID to every replica (§3.3.1.1,
 * {@link org.bftws.module.client.SequenceEstablishment}), and travels to every replica's service endpoint as a
 * WS-RM application message built by the client runtime ({@link org.bftws.module.rm.ApplicationMessage}),
 * numbered within that sequence by core rather than by this instance's Sandesha2 (which would number and
 * retransmit it per replica). A message marked as the sequence's last (Sandesha2's {@code LAST_MESSAGE}
 * property) is followed by the sequence's terminate ({@link GroupClientRuntime#terminate}). Everything else
 * passes unchanged (plain WS-RM to other endpoints).
 *
 * <p>On a replica with {@code bftws.security=rampart}, it leaves the WS-RM acknowledgements of application
 * messages unsigned ({@link RampartSigning#leaveAcknowledgementUnsigned}).
 */
public class BftwsOutHandler extends BftwsHandler {
    /** Message property marking a request this handler has taken over (out-flow handlers may run again). */
    static final String HANDLED = "org.bftws.client.handled";
    private static final Logger LOG = LogManager.getLogger(BftwsOutHandler.class);

    @Override
    protected InvocationResponse invokeReplicated(MessageContext msgContext, BftwsConfig config)
            throws AxisFault {
        if (config.isReplica() && config.security() == SecurityMode.RAMPART) {
            RampartSigning.leaveAcknowledgementUnsigned(msgContext); // before the Security phase
        }
        if (!config.isGroupClient() || !toGroup(msgContext, config) || msgContext.getProperty(HANDLED) != null) {
            return InvocationResponse.CONTINUE;
        }
        msgContext.setProperty(HANDLED, Boolean.TRUE);
        OMElement payload = msgContext.getEnvelope().getBody().getFirstElement();
        if (payload == null) {
            throw new AxisFault("BFT-WS: a request to the replica group needs a body payload element");
        }
        String action = msgContext.getWSAAction() != null ? msgContext.getWSAAction() : msgContext.getSoapAction();
        if (action == null || action.isEmpty()) {
            throw new AxisFault("BFT-WS: a request to the replica group needs an action (Options.setAction)");
        }
        ApplicationRequest request = new ApplicationRequest(config.groupService(msgContext.getTo().getAddress()),
                action, !msgContext.isSOAP11(), Payloads.canonical(payload));
        long timeout = msgContext.getOptions().getTimeOutInMilliSeconds();
        GroupClientRuntime client = BftwsRuntime.client(msgContext);
        Object shared = msgContext.getProperty(GroupClientRuntime.SHARED_SEQUENCE_PROPERTY);
        boolean confidential = ConfidentialCalls.flagged(msgContext);
        if (confidential && shared != null) {
            // BFT-WS §3.4 orders a replicated client's request on p+1 identical copies; sealed separately, the
            // members' copies never are
            throw new AxisFault("BFT-WS: confidential operations are not available to replicated clients (a call"
                    + " on a shared sequence)");
        }
        Event.Delivered voted = shared != null
                ? client.callShared(shared.toString(), messageNumber(msgContext), request.encode(),
                        CollectiveRandom.flagged(msgContext), timeout)
                : client.call(msgContext.getServiceContext(), confidential ? sealing(client, request)
                        : (sequenceId, number) -> request.encode(), CollectiveRandom.flagged(msgContext),
                        ReadOnlyCalls.flagged(msgContext) && !confidential, timeout);
        deliver(msgContext, voted.result(), voted.random());
        if (isLastMessage(msgContext)) {
            terminate(client, msgContext, timeout);
        }
        return InvocationResponse.ABORT;
    }

    /**
     * A confidential call's operation bytes (SINTRA §2.6): the payload sealed under the group key for the
     * request's (sequence id, message number); service and action in clear.
     */
    private static GroupClientRuntime.OperationBytes sealing(GroupClientRuntime client, ApplicationRequest request) {
        return (sequenceId, number) -> new ApplicationRequest(request.service(), request.action(), request.soap12(),
                client.seal(sequenceId, number, request.payload()), true).encode();
    }

    /** A shared sequence's call names its message number ({@link GroupClientRuntime#MESSAGE_NUMBER_PROPERTY}). */
    private static long messageNumber(MessageContext msgContext) throws AxisFault {
        Object n = msgContext.getProperty(GroupClientRuntime.MESSAGE_NUMBER_PROPERTY);
        if (!(n instanceof Long number)) {
            throw new AxisFault("BFT-WS: a call on a shared sequence needs its message number (a Long) in "
                    + GroupClientRuntime.MESSAGE_NUMBER_PROPERTY);
        }
        return number;
    }

    /** Sandesha2's client API marks a sequence's last message so (SandeshaClientConstants.LAST_MESSAGE). */
    private static boolean isLastMessage(MessageContext msgContext) {
        Object last = msgContext.getProperty(SandeshaClientConstants.LAST_MESSAGE);
        return Boolean.TRUE.equals(last) || "true".equals(last);
    }

    /**
     * After the last message, as Sandesha2's Out Handler does (paper §3.3.1.1). The call itself was answered:
     * a terminate that f+1 replicas do not confirm in time leaves the sequence open at some replicas (its
     * tombstone missing, no harm to anyone else) and must not turn the voted reply into a failure.
     */
    private static void terminate(GroupClientRuntime client, MessageContext msgContext, long timeout) {
        try {
            client.terminate(msgContext.getServiceContext(), timeout);
        } catch (AxisFault e) {
            LOG.warn("bftws client: the sequence's terminate was not confirmed: {}", e.getMessage());
        }
    }

    private static boolean toGroup(MessageContext msgContext, BftwsConfig config) {
        EndpointReference to = msgContext.getTo();
        return to != null && config.isGroupEndpoint(to.getAddress());
    }

    /**
     * Puts the voted response where Axis2's OutInAxisOperationClient looks for it: the operation context's
     * "In" message context, which it then passes through the in-flow to the caller. A voted fault becomes a
     * SOAP fault there, so the caller gets an AxisFault as from a plain service. One-way operations have no
     * "In" message: the call returns once f+1 replicas confirmed execution. A randomized operation's voted
     * random number goes into a {@code <bftws:Random>} header of the response ({@link CollectiveRandom}).
     */
    private static void deliver(MessageContext request, byte[] voted, byte[] random) throws AxisFault {
        ApplicationResult result;
        try {
            result = ApplicationResult.decode(voted);
        } catch (DecodeException e) {
            result = ApplicationResult.fault("BFT-WS: the replicas agreed on a result this client cannot read");
        }
        OperationContext oc = request.getOperationContext();
        MessageContext response = oc == null ? null : oc.getMessageContext(WSDLConstants.MESSAGE_LABEL_IN_VALUE);
        if (response == null) {
            if (result.kind() == ApplicationResult.Kind.FAULT) {
                throw new AxisFault(result.faultReason());
            }
            return;
        }
        boolean soap11 = request.isSOAP11();
        SOAPEnvelope envelope;
        if (result.kind() == ApplicationResult.Kind.FAULT) {
            envelope = faultEnvelope(soap11, result.faultReason());
        } else {
            SOAPFactory factory = soap11 ? OMAbstractFactory.getSOAP11Factory() : OMAbstractFactory.getSOAP12Factory();
            envelope = factory.getDefaultEnvelope();
            if (result.kind() == ApplicationResult.Kind.PAYLOAD) {
                envelope.getBody().addChild(Payloads.parse(result.payload()));
            }
        }
        response.setEnvelope(envelope);
        CollectiveRandom.deliver(response, random, null);
        response.setProperty(HANDLED, Boolean.TRUE);
    }

    private static SOAPEnvelope faultEnvelope(boolean soap11, String reason) {
        String text = Payloads.escape(reason);
        String xml = soap11
                ? "<s:Envelope xmlns:s=\"" + SOAP11Constants.SOAP_ENVELOPE_NAMESPACE_URI + "\"><s:Body><s:Fault>"
                        + "<faultcode>s:Server</faultcode><faultstring>" + text + "</faultstring>"
                        + "</s:Fault></s:Body></s:Envelope>"
                : "<s:Envelope xmlns:s=\"" + SOAP12Constants.SOAP_ENVELOPE_NAMESPACE_URI + "\"><s:Body><s:Fault>"
                        + "<s:Code><s:Value>s:Receiver</s:Value></s:Code><s:Reason><s:Text xml:lang=\"en\">" + text
                        + "</s:Text></s:Reason></s:Fault></s:Body></s:Envelope>";
        SOAPEnvelope env = OMXMLBuilderFactory.createSOAPModelBuilder(
                new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)), "UTF-8").getSOAPEnvelope();
        env.build();
        return env;
    }
}
