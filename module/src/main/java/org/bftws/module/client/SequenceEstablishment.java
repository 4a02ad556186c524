package org.bftws.module.client;

import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMFactory;
import org.apache.axiom.om.OMNamespace;
import org.apache.axis2.AxisFault;
import org.apache.axis2.addressing.AddressingConstants;
import org.apache.axis2.addressing.EndpointReference;
import org.apache.axis2.client.Options;
import org.apache.axis2.client.ServiceClient;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.neethi.Policy;
import org.apache.sandesha2.client.SandeshaClientConstants;
import org.bftws.module.config.BftwsConfig;
import org.bftws.module.config.BftwsKeys;
import org.bftws.module.config.SecurityMode;
import org.bftws.module.config.ReplicaEndpoint;
import org.bftws.module.rm.ClientUuidElement;
import org.bftws.module.security.RampartSigning;

/**
 * Establishes a group client's WS-RM sequence with the replica group (paper §3.3.1.1–3.3.1.2): a WS-RM 1.1
 * CreateSequence carrying the client UUID goes to every replica endpoint at once; each replica's Sandesha2
 * creates the sequence with the id derived from (UUID, group endpoint) and answers with it on the HTTP
 * response (AcksTo anonymous). The client adopts the id once f+1 replicas named the same one: at least one of
 * them is correct, so it is the id the correct replicas use. It waits for the rest only a short grace (a
 * replica may be down).
 */
public final class SequenceEstablishment {
    /** How long, after the id is settled, the remaining replicas may take to answer (see awaitStragglers). */
    static final long STRAGGLER_GRACE_MILLIS = 500;
    private static final String CREATE_SEQUENCE_ACTION = ClientUuidElement.WSRM_11 + "/CreateSequence";

    private SequenceEstablishment() {
    }

    /**
     * The sequence id f+1 replicas answered with.
     *
     * @throws AxisFault if no f+1 replicas agree within {@code timeoutMillis}
     */
    public static String establish(ConfigurationContext context, BftwsConfig config, int client, UUID clientUuid,
            long timeoutMillis) throws AxisFault {
        ClientUuidElement.Claim claim = new ClientUuidElement.Claim(clientUuid, client);
        Policy signing = signingPolicy(config);
        LinkedBlockingQueue<Object> answers = new LinkedBlockingQueue<>();
        ExecutorService pool = Executors.newFixedThreadPool(config.n(), r -> {
            Thread t = new Thread(r, "bftws-client-create-sequence");
            t.setDaemon(true);
            return t;
        });
        try {
            for (ReplicaEndpoint r : config.replicas()) {
                pool.execute(() -> answers.add(answerOf(context, r.endpoint(), claim, timeoutMillis, signing)));
            }
            return vote(answers, config, clientUuid, timeoutMillis);
        } finally {
            pool.shutdown(); // sends to slow replicas finish (or time out) in the background
        }
    }

    /**
     * With {@code bftws.security=rampart} the policy that signs CreateSequence and verifies the replicas'
     * answers (§3.3.1: client↔replica messages are WS-Security signed); null without.
     */
    static Policy signingPolicy(BftwsConfig config) throws AxisFault {
        if (config.security() != SecurityMode.RAMPART) {
            return null;
        }
        try {
            return RampartSigning.load(config.securityPolicy());
        } catch (IOException e) {
            throw new AxisFault("BFT-WS: " + BftwsKeys.SECURITY_POLICY.name() + ": " + e.getMessage());
        }
    }

    /** A replica's sequence id, or the exception its CreateSequence ended with. */
    private static Object answerOf(ConfigurationContext context, URI endpoint, ClientUuidElement.Claim claim, long timeoutMillis,
            Policy signing) {
        try {
            ServiceClient sc = new ServiceClient(context, null);
            try {
                Options o = sc.getOptions();
                o.setTo(new EndpointReference(endpoint.toString()));
                o.setAction(CREATE_SEQUENCE_ACTION);
                o.setReplyTo(new EndpointReference(AddressingConstants.Final.WSA_ANONYMOUS_URL));
                o.setTimeOutInMilliSeconds(timeoutMillis);
                // This ServiceClient speaks the RM protocol itself; keep Sandesha2 out of it if it is engaged.
                o.setProperty(SandeshaClientConstants.UNRELIABLE_MESSAGE, "true");
                if (!context.getAxisConfiguration().isEngaged("addressing")) {
                    sc.engageModule("addressing");
                }
                if (signing != null) {
                    RampartSigning.require(sc, signing);
                }
                return identifier(sc.sendReceive(createSequence(claim)));
            } finally {
                // Axis2 hands the pooled HTTP connection back only when the response is read to its end or the
                // transport is cleaned up: the answer is read no further than its identifier, so without this each
                // CreateSequence kept one connection of the context's shared pool (200) until none was left.
                sc.cleanupTransport();
                sc.cleanup();
            }
        } catch (AxisFault | RuntimeException e) {
            return e;
        }
    }

    private static String vote(LinkedBlockingQueue<Object> answers, BftwsConfig config, UUID clientUuid,
            long timeoutMillis) throws AxisFault {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        Map<String, Integer> votes = new HashMap<>();
        List<String> problems = new ArrayList<>();
        for (int received = 0; received < config.n(); received++) {
            Object a;
            try {
                a = answers.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AxisFault("BFT-WS: interrupted while creating the sequence with the replica group");
            }
            if (a == null) {
                break;
            }
            if (a instanceof String id && votes.merge(id, 1, Integer::sum) >= config.f() + 1) {
                awaitStragglers(answers, config.n() - received - 1, deadline);
                return id;
            }
            if (a instanceof Exception e) {
                problems.add(e.getMessage());
            }
        }
        throw new AxisFault("BFT-WS: no " + (config.f() + 1) + " replicas answered CreateSequence for client UUID "
                + clientUuid + " with the same sequence id within " + timeoutMillis + " ms (ids " + votes.keySet()
                + ", failures " + problems + ")");
    }

    /**
     * After f+1 matching answers the id is settled, but the request that follows goes to the primary, which
     * refuses requests of sequences its Sandesha2 has not created yet (an UnknownSequence fault); if it is
     * among the replicas still answering, that first request would wait for the client's retransmission
     * (seconds; measured in perf's randomness experiment). So give the others a short grace to answer —
     * in a healthy group they do within milliseconds; a replica that is down costs at most the grace once
     * per sequence.
     */
    private static void awaitStragglers(LinkedBlockingQueue<Object> answers, int pending, long deadline) {
        long graceEnd = Math.min(deadline, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(STRAGGLER_GRACE_MILLIS));
        try {
            for (int i = 0; i < pending; i++) {
                if (answers.poll(Math.max(0, graceEnd - System.nanoTime()), TimeUnit.NANOSECONDS) == null) {
                    return;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** {@code <wsrm:CreateSequence><wsrm:AcksTo>anonymous</wsrm:AcksTo><bftws:ClientUUID/></wsrm:CreateSequence>}. */
    static OMElement createSequence(ClientUuidElement.Claim claim) {
        OMFactory f = OMAbstractFactory.getOMFactory();
        OMNamespace rm = f.createOMNamespace(ClientUuidElement.WSRM_11, "wsrm");
        OMNamespace wsa = f.createOMNamespace(AddressingConstants.Final.WSA_NAMESPACE, "wsa");
        OMElement cs = f.createOMElement("CreateSequence", rm);
        OMElement address = f.createOMElement("Address", wsa, f.createOMElement("AcksTo", rm, cs));
        address.setText(AddressingConstants.Final.WSA_ANONYMOUS_URL);
        cs.addChild(ClientUuidElement.create(f, claim));
        return cs;
    }

    /** The Identifier of a CreateSequenceResponse. */
    private static String identifier(OMElement response) throws AxisFault {
        if (response != null && "CreateSequenceResponse".equals(response.getLocalName())) {
            Iterator<OMElement> it = response.getChildrenWithLocalName("Identifier");
            if (it.hasNext()) {
                String id = it.next().getText().trim();
                if (!id.isEmpty()) {
                    return id;
                }
            }
        }
        throw new AxisFault("not a CreateSequenceResponse with an Identifier");
    }
}
