package org.bftws.module.invoker;

import java.util.HashMap;
import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;

import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMFactory;
import org.apache.axiom.soap.SOAPBody;
import org.apache.axiom.soap.SOAPEnvelope;
import org.apache.axiom.soap.SOAPFactory;
import org.apache.axiom.soap.SOAPFault;
import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axis2.AxisFault;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.context.MessageContext;
import org.apache.axis2.context.OperationContext;
import org.apache.axis2.context.ServiceContext;
import org.apache.axis2.context.ServiceGroupContext;
import org.apache.axis2.description.AxisOperation;
import org.apache.axis2.description.AxisService;
import org.apache.axis2.description.Parameter;
import org.apache.axis2.description.TransportOutDescription;
import org.apache.axis2.engine.DependencyManager;
import org.apache.axis2.engine.MessageReceiver;
import org.apache.axis2.wsdl.WSDLConstants;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.apache.sandesha2.client.SandeshaClientConstants;
import org.bftws.core.codec.DecodeException;
import org.bftws.core.message.Request;
import org.bftws.module.api.ApplicationRequest;
import org.bftws.module.api.ApplicationResult;
import org.bftws.module.api.CollectiveRandom;
import org.bftws.module.api.RandomProof;
import org.bftws.module.api.StatefulService;
import org.bftws.module.order.ReplicatedService;
import org.bftws.module.xml.Payloads;
import org.bftws.module.xml.XmlLimits;

/**
 * The Total Order Invoker (paper §3.3.1.7): delivers each committed request, in the total order the Total
 * Order Manager hands it over (on its execution thread), to the replicated Web service through the service
 * operation's normal Axis2 message receiver, and returns the response payload as the result the replica
 * signs.
 *
 * <p>The request is rebuilt from the <em>signed</em> operation bytes ({@link ApplicationRequest}): action and
 * payload as the client signed them, parsed with Axiom's SOAP parser configuration (no DTDs). The target
 * service is one of the group's ({@link GroupServices}): the main one this replica's {@code bftws.replicas}
 * endpoint names, or another service deployed on the replicas that the client addressed under the group
 * endpoint. Any of them may keep state: checkpoints capture every stateful service's state, sorted by service
 * name ({@link ServiceStates}). A randomized request
 * (integrity paper §4–§5) gets its collective random number in a {@code <bftws:Random>} header and through
 * {@link CollectiveRandom}; other requests get neither. The message
 * receiver runs in-process without the in-flow (the request was already accepted and ordered); its response
 * goes through the out-flow as usual and ends at a transport that sends nothing
 * ({@link CapturingTransportSender}).
 *
 * <p>One {@link ServiceContext} per service serves every ordered request, so each service object is created
 * once per replica whatever the service's scope: a replica's state lives in those objects. Checkpoints
 * ({@code get_state}) and state transfer ({@code set_state}) use {@link StatefulService} if a service's class
 * implements it, else the service's own operations named {@value #GET_STATE} and {@value #SET_STATE}
 * (reserved, under these names and StatefulService's method names: {@link StateOperations}); a service with neither must be stateless, and with
 * no stateful service at all the checkpointed state is empty.
 */
public final class TotalOrderInvoker implements ReplicatedService {
    private static final Logger LOG = LogManager.getLogger(TotalOrderInvoker.class);
    /** The label Axis2 gives the response message context in an in-out operation context. */
    private static final String OUT = WSDLConstants.MESSAGE_LABEL_OUT_VALUE;
    /**
     * How long set_state waits for the checkpoint's services to deploy (a replica restarted from its journal
     * installs state before Axis2 has deployed them): a minute covers a slow container's start.
     */
    private static final long DEPLOYMENT_WAIT_MILLIS = 60_000;

    /** Operation names of the state pair (paper §3.3.1.8), for services that do not implement StatefulService. */
    public static final String GET_STATE = "get_state";
    public static final String SET_STATE = "set_state";
    /** Namespace of the {@code <bftws:get_state/>} request element and of the state operations' action. */
    public static final String STATE_NAMESPACE = "urn:bftws:state";

    private final ConfigurationContext context;
    private final GroupServices services;
    private final XmlLimits limits;
    private final String serviceName;
    private final TransportOutDescription capture = CapturingTransportSender.description();

    /** One service of the group with its one service object. */
    private record Bound(AxisService service, ServiceGroupContext groupContext, ServiceContext context) {}

    /** Created on first use: services may deploy after the module initialises. Execution thread only. */
    private final Map<String, Bound> bound = new HashMap<>();
    private boolean warnedStateless;

    /** @param limits the shape every client payload is checked against before it is built (bftws.xml.*) */
    public TotalOrderInvoker(ConfigurationContext context, GroupServices services, XmlLimits limits) {
        this.context = context;
        this.services = services;
        this.limits = limits;
        this.serviceName = services.mainService();
    }

    /** The main service: the one the replicas' endpoints name. */
    public String serviceName() {
        return serviceName;
    }

    @Override
    public byte[] execute(Request request, byte[] random) {
        return execute(request, random, null);
    }

    @Override
    public byte[] execute(Request request, byte[] random, RandomProof proof) {
        ApplicationRequest q;
        try {
            q = ApplicationRequest.decode(request.operation());
        } catch (DecodeException e) {
            return ApplicationResult.fault("BFT-WS: not an application request").encode();
        }
        try {
            return invoke(request, q, random, proof).encode();
        } catch (AxisFault e) {
            return ApplicationResult.fault(reason(e)).encode();
        } catch (RuntimeException e) {
            // The class name only: messages may hold addresses or hash codes that differ between replicas.
            return ApplicationResult.fault("BFT-WS: the service failed: " + e.getClass().getName()).encode();
        }
    }

    private ApplicationResult invoke(Request request, ApplicationRequest q, byte[] random, RandomProof proof)
            throws AxisFault {
        Bound target = bound(q.service());
        // Refuses the state operations: a client must not read or replace the state itself (StateOperations).
        AxisOperation op = GroupServices.operation(target.service(), q.action());
        // Deterministic, so anything the service derives from it is alike on every replica.
        return run(target, op, q.action(), q.soap12(), Payloads.parse(q.payload(), limits),
                "urn:bftws:request:" + request.sequenceId() + "#" + request.messageNumber(), random, proof);
    }

    /**
     * Runs one request through {@code op}'s own message receiver, in-process and without the in-flow; the
     * response passes the operation's out-flow and ends at {@link CapturingTransportSender}.
     */
    private ApplicationResult run(Bound target, AxisOperation op, String action, boolean soap12, OMElement payload,
            String messageId, byte[] random, RandomProof proof) throws AxisFault {
        SOAPFactory factory = soap12 ? OMAbstractFactory.getSOAP12Factory() : OMAbstractFactory.getSOAP11Factory();
        SOAPEnvelope envelope = factory.getDefaultEnvelope();
        envelope.getBody().addChild(payload);

        MessageContext in = context.createMessageContext();
        in.setServerSide(true);
        in.setAxisService(target.service());
        in.setServiceGroupContext(target.groupContext());
        in.setServiceContext(target.context());
        in.setAxisOperation(op);
        in.setAxisMessage(op.getMessage(WSDLConstants.MESSAGE_LABEL_IN_VALUE));
        OperationContext oc = target.context().createOperationContext(op);
        // Sandesha2's out handler must not try to make the captured response part of some WS-RM sequence.
        oc.setProperty(SandeshaClientConstants.UNRELIABLE_MESSAGE, "true");
        oc.addMessageContext(in);
        in.setOperationContext(oc);
        in.setEnvelope(envelope);
        CollectiveRandom.deliver(in, random, proof); // nothing for requests that are not randomized
        in.setSoapAction(action);
        in.setWSAAction(action);
        in.setMessageID(messageId);
        in.setTransportIn(context.getAxisConfiguration().getTransportIn("http"));
        in.setIncomingTransportName("http");
        in.setTransportOut(capture);

        MessageReceiver receiver = op.getMessageReceiver();
        if (receiver == null) {
            return ApplicationResult.fault("BFT-WS: operation " + op.getName().getLocalPart() + " has no message receiver");
        }
        try {
            receiver.receive(in);
            return result(oc.getMessageContext(OUT));
        } finally {
            // Nothing else will complete this exchange (no transport is waiting for it): release it.
            context.unregisterOperationContext(in.getMessageID());
            oc.cleanup();
        }
    }

    private static ApplicationResult result(MessageContext out) throws AxisFault {
        if (out == null || out.getEnvelope() == null) {
            return ApplicationResult.empty();
        }
        SOAPBody body = out.getEnvelope().getBody();
        if (body.hasFault()) {
            return ApplicationResult.fault(faultReason(body.getFault()));
        }
        OMElement payload = body.getFirstElement();
        return payload == null ? ApplicationResult.empty() : ApplicationResult.payload(Payloads.serialize(payload));
    }

    private static String faultReason(SOAPFault fault) {
        return fault.getReason() == null ? "" : fault.getReason().getText();
    }

    private static String reason(AxisFault e) {
        String r = e.getReason();
        return r == null ? String.valueOf(e.getMessage()) : r;
    }

    // ---------------------------------------------------------------- get_state / set_state

    /**
     * {@code get_state} of the group: each stateful service's state ({@link StatefulService#getState()} if its
     * object implements it, else the response payload of its {@value #GET_STATE} operation, sent
     * {@code <bftws:get_state/>}), in {@link ServiceStates}' canonical form; empty with no stateful service.
     * A failure stops this replica (the Total Order Manager fails stop), as the group tolerates.
     */
    @Override
    public byte[] getState() {
        SortedMap<String, byte[]> states = new TreeMap<>();
        for (String name : services.statefulServices()) {
            states.put(name, stateOf(boundForState(name)));
        }
        if (states.isEmpty()) {
            warnStateless();
        }
        return ServiceStates.encode(states);
    }

    /**
     * {@code set_state}: installs each service's part of a checkpoint ({@link StatefulService#setState} if
     * implemented, else its {@value #SET_STATE} operation, whose request payload is the element its
     * {@value #GET_STATE} returned on the replicas that took the checkpoint), in name order. The checkpoint
     * must cover exactly this replica's stateful services: the replicas deploy the same archives.
     */
    @Override
    public void setState(byte[] state) {
        SortedMap<String, byte[]> states;
        try {
            states = ServiceStates.decode(state);
        } catch (DecodeException e) {
            throw new IllegalStateException("BFT-WS: a checkpoint's application state does not decode", e);
        }
        SortedSet<String> here = services.awaitStateful(states.keySet(), DEPLOYMENT_WAIT_MILLIS);
        if (!states.keySet().equals(here)) {
            throw new IllegalStateException("BFT-WS: a checkpoint holds the state of services " + states.keySet()
                    + " but this replica's stateful services are " + here);
        }
        for (Map.Entry<String, byte[]> e : states.entrySet()) {
            install(boundForState(e.getKey()), e.getValue());
        }
    }

    private byte[] stateOf(Bound b) {
        StatefulService s = stateful(b.context());
        if (s != null) {
            return s.getState();
        }
        return runStateOperation(b, GET_STATE, stateElement(GET_STATE)).payload();
    }

    private void install(Bound b, byte[] state) {
        StatefulService s = stateful(b.context());
        if (s != null) {
            s.setState(state);
            return;
        }
        OMElement payload;
        try {
            payload = Payloads.parse(state);
        } catch (AxisFault e) {
            throw new IllegalStateException("BFT-WS: a checkpoint of service " + b.service().getName()
                    + " is not XML", e);
        }
        runStateOperation(b, SET_STATE, payload);
    }

    /** Runs the service's state operation {@code name}; its absence or fault stops this replica. */
    private ApplicationResult runStateOperation(Bound b, String name, OMElement payload) {
        String service = b.service().getName();
        AxisOperation op = StateOperations.named(b.service(), name);
        if (op == null) {
            throw new IllegalStateException("BFT-WS: service " + service + " keeps state but has no " + name);
        }
        ApplicationResult r;
        try {
            r = run(b, op, STATE_NAMESPACE + ":" + name, false, payload, "urn:bftws:" + name, null, null);
        } catch (AxisFault e) {
            r = ApplicationResult.fault(reason(e));
        }
        if (r.kind() == ApplicationResult.Kind.FAULT) {
            throw new IllegalStateException("BFT-WS: " + name + " of service " + service + " failed: "
                    + r.faultReason());
        }
        return r;
    }

    private static OMElement stateElement(String name) {
        OMFactory f = OMAbstractFactory.getOMFactory();
        return f.createOMElement(name, f.createOMNamespace(STATE_NAMESPACE, "bftws"));
    }

    private Bound boundForState(String name) {
        try {
            return bound(name);
        } catch (AxisFault e) {
            throw new IllegalStateException("BFT-WS: cannot reach service " + name + " for its state", e);
        }
    }

    private static StatefulService stateful(ServiceContext sc) {
        Object impl = sc.getProperty(ServiceContext.SERVICE_OBJECT);
        return impl instanceof StatefulService s ? s : null;
    }

    private void warnStateless() {
        if (!warnedStateless) {
            warnedStateless = true;
            LOG.info("no service of the group implements {} or has {}/{} operations: checkpoints carry an empty"
                    + " state (stateless services)", StatefulService.class.getName(), GET_STATE, SET_STATE);
        }
    }

    // ---------------------------------------------------------------- the service and its one object

    /** The group's service a request names ("" = the main one), bound on first use. */
    private Bound bound(String requested) throws AxisFault {
        String name = services.name(requested);
        Bound b = bound.get(name);
        if (b != null) {
            return b;
        }
        AxisService s = services.service(requested);
        ServiceGroupContext sgc = context.createServiceGroupContext(s.getAxisServiceGroup());
        ServiceContext sc = sgc.getServiceContext(s);
        Object impl = newServiceObject(s, sc);
        if (impl != null) {
            sc.setProperty(ServiceContext.SERVICE_OBJECT, impl);
        }
        b = new Bound(s, sgc, sc);
        bound.put(name, b);
        LOG.info("total order invoker bound to service {}", name);
        return b;
    }

    /**
     * The service object, created now (rather than by the message receiver on the first request) so that
     * get_state and set_state reach the same object before any request ran. Null if the service names no
     * {@code ServiceClass} (the receiver then creates what it needs).
     */
    private static Object newServiceObject(AxisService s, ServiceContext sc) throws AxisFault {
        Parameter p = s.getParameter("ServiceClass");
        if (p == null || p.getValue() == null) {
            return null;
        }
        ClassLoader loader = s.getClassLoader() != null ? s.getClassLoader() : TotalOrderInvoker.class.getClassLoader();
        try {
            Class<?> type = Class.forName(((String) p.getValue()).trim(), true, loader);
            Object impl = type.getDeclaredConstructor().newInstance();
            DependencyManager.initServiceObject(impl, sc);
            return impl;
        } catch (ReflectiveOperationException | LinkageError e) {
            throw new AxisFault("BFT-WS: cannot create the object of service " + s.getName(), e);
        }
    }
}
