package org.bftws.module.handlers;

import org.apache.axiom.om.OMElement;
import org.apache.axis2.AxisFault;
import org.apache.axis2.context.MessageContext;
import org.apache.axis2.description.AxisOperation;
import org.apache.axis2.description.AxisService;
import org.apache.sandesha2.storage.beans.RMDBean;
import org.apache.axis2.context.ConfigurationContext;
import org.bftws.core.config.GroupConfig;
import org.bftws.module.BftwsRuntime;
import org.bftws.module.config.BftwsConfig;
import org.bftws.module.config.BftwsKeys;
import org.bftws.module.config.SecurityMode;
import org.bftws.module.metrics.PhaseTrace;
import org.bftws.module.order.BftwsReplica;
import org.bftws.module.order.DkgBootstrap;
import org.bftws.module.rm.ApplicationMessage;
import org.bftws.module.rm.ClientUuidElement;
import org.bftws.module.rm.ReceivedRequest;
import org.bftws.module.rm.RecordedMessages;
import org.bftws.module.rm.UnknownSequenceFault;
import org.bftws.core.crypto.Verifier;
import org.bftws.module.security.SequenceCreators;
import org.bftws.core.message.Request;
import org.bftws.module.transport.ControlMessage;
import org.bftws.module.transport.ControlPort;

/**
 * BFT-WS In Handler (paper §3.3.1.4), first half. Runs in BFTWSPhase, after Dispatch (so only for services
 * and operations with bftws engaged, and for the module's own RM operations) and before SandeshaInHandler
 * in RMPhase; {@link BftwsOrderHandler} is the second half, after SandeshaInHandler.
 *
 * <p>On a replica, a group client's request is a WS-RM application message with a BFT-WS request header
 * ({@link ApplicationMessage}). This handler rebuilds core's signed request from it and checks the client's
 * signature before Sandesha2 records anything; a message that fails is refused with a SOAP fault. A valid
 * one goes on to Sandesha2 (unknown sequence: Sandesha2's WS-RM fault; otherwise the number is recorded and
 * acknowledged) and then to {@link BftwsOrderHandler}. A retransmission Sandesha2 has already seen is
 * dispatched by SandeshaGlobalInHandler to its duplicate operation, where Sandesha2 only acknowledges and
 * drops it; core must still see it (the replica resends its cached reply or relays it to the primary), so
 * this handler hands it to the Total Order Manager itself, as the paper's modified Global In Handler does.
 *
 * <p>BFT-WS control messages (dispatched to the control port service, recognised by service name, not by a
 * client-chosen action) pass on to the control port. Any other application request sent to a replica's
 * service endpoint is refused: executing it outside the total order would make this replica diverge. WS-RM
 * protocol messages (the module's Sandesha2 operations) pass: they change no application state. A
 * CreateSequence must carry the client UUID (§3.3.1.1); one without it, or with a malformed one, is refused
 * before Sandesha2 creates anything. With {@code bftws.security=rampart}, Rampart has verified the message's
 * WS-Security signature against the service's policy before this handler runs, and this handler also
 * requires it to be made by the certificate that signed the sequence's CreateSequence ({@link SequenceCreators}).
 *
 * <p>On a client, the voted response the Out Handler built passes through unchanged.
 */
public class BftwsInHandler extends BftwsHandler {
    /** Sandesha2's operations for duplicates (SandeshaGlobalInHandler re-dispatches seen numbers to them). */
    private static final String DUPLICATE_OPERATION_PREFIX = "Sandesha2OperationDuplicate";

    @Override
    protected InvocationResponse invokeReplicated(MessageContext msgContext, BftwsConfig config)
            throws AxisFault {
        if (!config.isReplica()) {
            return InvocationResponse.CONTINUE;
        }
        AxisService service = msgContext.getAxisService();
        if (service == null || ControlPort.SERVICE_NAME.equals(service.getName())) {
            return InvocationResponse.CONTINUE;
        }
        AxisOperation op = msgContext.getAxisOperation();
        if (ReceivedRequest.isTerminate(msgContext)) {
            return terminateSequence(msgContext, config);
        }
        if (ReceivedRequest.isPresent(msgContext)) {
            return applicationMessage(msgContext, config, op);
        }
        OMElement rmSequence = UnknownSequenceFault.sequenceHeader(msgContext.getEnvelope());
        if (rmSequence != null) {
            // A WS-RM application message without the BFT-WS header. Sandesha2 dispatches one of an unknown
            // sequence to its duplicate operation for SequenceProcessor to fault, which fails in SOAP 1.1.
            String id = UnknownSequenceFault.identifier(rmSequence);
            if (id == null || RecordedMessages.receiving(msgContext.getConfigurationContext(), id) == null) {
                throw UnknownSequenceFault.of(msgContext, rmSequence.getNamespace().getNamespaceURI(),
                        id == null ? "(none)" : id);
            }
        }
        if (op != null && op.isControlOperation()) {
            requireClientUuid(msgContext, config);
            return InvocationResponse.CONTINUE;
        }
        throw Refusal.fault("BFT-WS: service " + service.getName() + " is replicated; send requests to its"
                + " replica group (bftws engaged with " + BftwsKeys.REPLICATED.name() + "=true), not to one replica");
    }

    /**
     * A group sequence ends only by its client's signed terminate (paper §3.3.1.1), which goes to the Total
     * Order Manager before Sandesha2 terminates its side: core drops retransmissions itself, and a replica that
     * missed the CreateSequence still learns of the end. An unsigned or foreign TerminateSequence is refused:
     * anyone could otherwise end a client's sequence at some replicas.
     */
    private static InvocationResponse terminateSequence(MessageContext msgContext, BftwsConfig config)
            throws AxisFault {
        if (!ReceivedRequest.isPresent(msgContext)) {
            throw Refusal.fault("BFT-WS: TerminateSequence refused: a group sequence is ended by its client's signed"
                    + " terminate (a bftws:Request header)");
        }
        ConfigurationContext cc = msgContext.getConfigurationContext();
        BftwsReplica replica = BftwsRuntime.replica(cc);
        ReceivedRequest.Received terminate = ReceivedRequest.readTerminate(msgContext, config, requestVerifier(cc, replica));
        String sequenceId = terminate.request().sequenceId();
        requireCreator(msgContext, config, sequenceId);
        if (replica != null) {
            replica.deliverClientRequest(terminate.message());
        }
        if (RecordedMessages.receiving(cc, sequenceId) == null) {
            throw unknownSequence(msgContext, sequenceId); // core has it; Sandesha2 has nothing to terminate
        }
        return InvocationResponse.CONTINUE;
    }

    /** WS-RM's UnknownSequence fault in the namespace group clients speak (WS-RM 1.1). */
    private static AxisFault unknownSequence(MessageContext msgContext, String sequenceId) {
        OMElement header = UnknownSequenceFault.sequenceHeader(msgContext.getEnvelope());
        String ns = header != null ? header.getNamespace().getNamespaceURI() : ClientUuidElement.WSRM_11;
        return UnknownSequenceFault.of(msgContext, ns, sequenceId);
    }

    private static InvocationResponse applicationMessage(MessageContext msgContext, BftwsConfig config,
            AxisOperation op) throws AxisFault {
        ConfigurationContext cc = msgContext.getConfigurationContext();
        BftwsReplica replica = BftwsRuntime.replica(cc);
        long in = PhaseTrace.on() ? System.nanoTime() : 0;
        ReceivedRequest.Received received = ReceivedRequest.read(msgContext, config, requestVerifier(cc, replica));
        ControlMessage request = received.message();
        Request q = received.request();
        if (in != 0) {
            long key = PhaseTrace.request(q.sequenceId(), q.messageNumber());
            PhaseTrace.mark(PhaseTrace.Point.REQUEST_IN, config.replicaId(), key, in);
            PhaseTrace.mark(PhaseTrace.Point.REQUEST_VERIFIED, config.replicaId(), key, System.nanoTime());
        }
        DkgBootstrap dkg = BftwsRuntime.dkg(cc);
        String pending = dkg != null ? dkg.refusal(q)
                : DkgBootstrap.isReserved(q.operation()) ? DkgBootstrap.RESERVED : null;
        if (pending != null) {
            throw Refusal.fault(pending);
        }
        String confidential = replica == null ? null
                : ConfidentialInput.problem(q, replica.manager().confidential(), config);
        if (confidential != null) {
            throw Refusal.fault("BFT-WS: application message refused: " + confidential);
        }
        RMDBean sequence = RecordedMessages.receiving(cc, q.sequenceId());
        if (sequence == null) {
            throw unknownSequence(msgContext, q.sequenceId());
        }
        if (sequence.isTerminated()) {
            // Its client ended it (or Sandesha2's inactivity timeout did): a replay. Refused here with a clear
            // fault; Sandesha2's own SequenceTerminated fault has the SOAP 1.1 problem of UnknownSequence.
            throw Refusal.fault("BFT-WS: sequence " + q.sequenceId() + " is terminated (WS-RM SequenceTerminated)");
        }
        requireCreator(msgContext, config, q.sequenceId());
        boolean duplicate = op != null && op.getName().getLocalPart().startsWith(DUPLICATE_OPERATION_PREFIX);
        if (duplicate) {
            // Sandesha2 sends seen numbers here (and would send unknown sequences, refused above): only
            // recorded numbers go on.
            if (replica != null && RecordedMessages.recorded(sequence, q.messageNumber())) {
                replica.deliverClientRequest(request);
            }
        } else {
            msgContext.setProperty(BftwsOrderHandler.REQUEST, request);
        }
        return InvocationResponse.CONTINUE;
    }

    /** Through the Total Order Manager's pre-verifier: the check here is the only real one a request gets. */
    private static Verifier requestVerifier(ConfigurationContext cc, BftwsReplica replica) {
        return replica != null ? replica.manager().requestVerifier() : BftwsRuntime.keys(cc).verifier();
    }

    /** Rampart has checked the message's signature (Security phase); it must be the sequence creator's. */
    private static void requireCreator(MessageContext msgContext, BftwsConfig config, String sequenceId)
            throws AxisFault {
        if (config.security() == SecurityMode.RAMPART) {
            SequenceCreators.requireCreator(msgContext, sequenceId,
                    RecordedMessages.creator(msgContext.getConfigurationContext(), sequenceId));
        }
    }

    private static void requireClientUuid(MessageContext msgContext, BftwsConfig config) throws AxisFault {
        OMElement createSequence = ClientUuidElement.createSequenceOf(msgContext.getEnvelope());
        if (createSequence == null) {
            return;
        }
        String problem;
        try {
            ClientUuidElement.Claim claim = ClientUuidElement.read(createSequence);
            problem = claim == null ? "no " + ClientUuidElement.NAME + " in it"
                    : claim.client() < config.n() ? "client id " + claim.client() + " is a replica's"
                    : claim.client() < config.clientBase() ? "client id " + claim.client() + " is below "
                            + GroupConfig.MAX_REPLICAS + " = " + config.clientBase() + ", kept for added replicas"
                    : null;
        } catch (IllegalArgumentException e) {
            problem = e.getMessage();
        }
        if (problem != null) {
            throw Refusal.fault("BFT-WS: CreateSequence refused (" + problem + "): a replica group's sequence id"
                    + " is derived from the client UUID (BFT-WS paper §3.3.1.1)");
        }
    }
}
