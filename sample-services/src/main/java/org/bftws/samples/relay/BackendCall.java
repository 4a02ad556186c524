package org.bftws.samples.relay;

import java.io.File;
import java.util.concurrent.ConcurrentLinkedQueue;

import org.apache.axiom.om.OMElement;
import org.apache.axis2.AxisFault;
import org.apache.axis2.addressing.EndpointReference;
import org.apache.axis2.client.Options;
import org.apache.axis2.client.ServiceClient;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.context.ConfigurationContextFactory;
import org.apache.axis2.description.AxisService;
import org.apache.axis2.description.Parameter;
import org.apache.axis2.engine.ListenerManager;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.bftws.core.replication.ReplicatedClients;
import org.bftws.module.client.GroupClientRuntime;
import org.bftws.module.config.BftwsKeys;

/**
 * The nested invocation of a middle-tier replica (BFT-WS paper §3.4): the middle tier acts as a client of
 * the backend. It runs a client-role Axis2 instance in the same JVM, from the repository that the service
 * parameter {@value #REPOSITORY} names (its own {@code axis2.xml}: for a replicated backend
 * {@code bftws.role=client}, the backend group's endpoints and public keys, this replica's own client key
 * and {@code bftws.client.replyEndpoint} on the HTTP listener started here); {@link ServiceClient}s on it,
 * with bftws engaged when that axis2.xml says {@code bftws.replicated=true}, call {@value #ENDPOINT}.
 *
 * <p>Determinism (§3.3: every correct replica must produce the same reply): the relay's answer is the
 * backend's reply or, if the backend's voted reply is a SOAP fault, a fault whose reason is derived from
 * that fault alone. Local, replica-specific outcomes (a timeout, a refused connection, fewer than f+1
 * matching backend replies in time) never become a reply: the call is retried until the backend answers,
 * so a middle replica that cannot reach the backend stays blocked rather than diverging.
 *
 * <p>Parameters are looked up on the service and, failing that, in the hosting axis2.xml, so each replica
 * of the middle tier names its own repository without changing the shared .aar.
 */
public final class BackendCall {
    /** Directory of the client-role Axis2 repository used for the nested calls (required). */
    public static final String REPOSITORY = "relay.backend.repository";
    /** The backend's endpoint: a replica group's endpoint, or a plain service's URL (required). */
    public static final String ENDPOINT = "relay.backend.endpoint";
    /** The backend operation's action (default: echo's). */
    public static final String ACTION = "relay.backend.action";
    /** How long one attempt waits for the backend's (voted) reply before it is retried (default 10 s). */
    public static final String ATTEMPT_MILLIS = "relay.backend.attemptMillis";
    private static final String DEFAULT_ACTION = "urn:bftws:samples:echo:echo";
    private static final long DEFAULT_ATTEMPT_MILLIS = 10000;
    /** The name of the sequence the middle replicas share with the backend (bftws.replicatedClients). */
    public static final String SHARED_SEQUENCE = "relay";
    /** Where the open BackendCall is kept on the AxisService. */
    private static final String HELD = "relay.backend.call";
    private static final Log LOG = LogFactory.getLog(BackendCall.class);

    private final ConfigurationContext context;
    private final String endpoint;
    private final String action;
    private final long attemptMillis;
    private final boolean replicated;
    /** The nested client is a member of a replicated client: calls go on the shared sequence. */
    private final boolean shared;
    /** One ServiceClient per concurrent caller: a replica executes on one thread, a plain server on many. */
    private final ConcurrentLinkedQueue<ServiceClient> idle = new ConcurrentLinkedQueue<ServiceClient>();

    private BackendCall(ConfigurationContext context, String endpoint, String action, long attemptMillis) {
        this.context = context;
        this.endpoint = endpoint;
        this.action = action;
        this.attemptMillis = attemptMillis;
        Parameter p = context.getAxisConfiguration().getParameter(BftwsKeys.REPLICATED.name());
        this.replicated = p != null && "true".equals(String.valueOf(p.getValue()).trim());
        Parameter members = context.getAxisConfiguration().getParameter(BftwsKeys.REPLICATED_CLIENTS.name());
        this.shared = replicated && members != null
                && !ReplicatedClients.parse(String.valueOf(members.getValue())).isEmpty();
    }

    /** The service's backend client, opened on first use. */
    public static BackendCall of(AxisService service) throws AxisFault {
        synchronized (service) {
            Parameter held = service.getParameter(HELD);
            if (held != null && held.getValue() instanceof BackendCall) {
                return (BackendCall) held.getValue();
            }
            BackendCall call = open(service);
            service.addParameter(HELD, call);
            return call;
        }
    }

    /** Closes the service's backend client, if one was opened. */
    public static void closeFor(AxisService service) {
        synchronized (service) {
            Parameter held = service.getParameter(HELD);
            if (held != null && held.getValue() instanceof BackendCall) {
                ((BackendCall) held.getValue()).close();
                try {
                    service.removeParameter(held);
                } catch (AxisFault e) {
                    LOG.warn("relay: could not forget the closed backend client", e);
                }
            }
        }
    }

    private static BackendCall open(AxisService service) throws AxisFault {
        String repository = required(service, REPOSITORY);
        String endpoint = required(service, ENDPOINT);
        String action = optional(service, ACTION, DEFAULT_ACTION);
        long attempt;
        try {
            attempt = Long.parseLong(optional(service, ATTEMPT_MILLIS, String.valueOf(DEFAULT_ATTEMPT_MILLIS)));
        } catch (NumberFormatException e) {
            throw new AxisFault("relay: " + ATTEMPT_MILLIS + " is not a number of milliseconds");
        }
        String xml = new File(repository, "axis2.xml").getPath();
        ConfigurationContext context = ConfigurationContextFactory.createConfigurationContextFromFileSystem(
                repository, xml);
        try {
            if (!context.getAxisConfiguration().getTransportsIn().isEmpty()) {
                // the backend replicas send their replies to this instance's control port (docs/module.md)
                ListenerManager listeners = new ListenerManager();
                listeners.init(context);
                listeners.start();
            }
        } catch (RuntimeException e) {
            terminate(context);
            throw e;
        }
        LOG.info("relay: backend client from " + repository + " calls " + endpoint);
        return new BackendCall(context, endpoint, action, attempt);
    }

    /**
     * Sends {@code request} to the backend as its request and returns the backend's reply: a deterministic
     * function of the backend's (voted) answer only. {@code number} is the nested call's place in the middle
     * tier's total order (1, 2, ...): with {@code bftws.replicatedClients} in the nested client's axis2.xml,
     * its message number on the sequence every middle replica shares, kept across retries.
     */
    public OMElement relay(OMElement request, long number) throws AxisFault {
        ServiceClient client = take();
        if (shared) {
            client.getOptions().setProperty(GroupClientRuntime.SHARED_SEQUENCE_PROPERTY, SHARED_SEQUENCE);
            client.getOptions().setProperty(GroupClientRuntime.MESSAGE_NUMBER_PROPERTY, Long.valueOf(number));
        }
        try {
            for (int attempt = 1; ; attempt++) {
                try {
                    return callOnce(client, request);
                } catch (AxisFault e) {
                    if (e.getFaultMessageContext() != null) {
                        // The backend's own (voted) SOAP fault: the same at every correct middle replica.
                        throw new AxisFault("backend fault: " + reasonOf(e));
                    }
                    retryAfter(attempt, e);
                }
            }
        } finally {
            idle.add(client);
        }
    }

    private OMElement callOnce(ServiceClient client, OMElement request) throws AxisFault {
        try {
            OMElement reply = client.sendReceive(request.cloneOMElement());
            return reply.cloneOMElement();
        } finally {
            if (!replicated) {
                client.cleanupTransport(); // plain HTTP: give the pooled connection back
            }
        }
    }

    /** A failure of this replica's own call (timeout, transport): wait a little and try again. */
    private void retryAfter(int attempt, AxisFault e) throws AxisFault {
        LOG.warn("relay: backend call attempt " + attempt + " failed (" + e.getMessage() + "); retrying");
        try {
            Thread.sleep(Math.min(2000L, 50L * attempt));
        } catch (InterruptedException stop) {
            // Only when this Axis2 instance shuts down: its replica sends no reply any more.
            Thread.currentThread().interrupt();
            throw new AxisFault("relay: interrupted while retrying the backend call");
        }
    }

    private ServiceClient take() throws AxisFault {
        ServiceClient c = idle.poll();
        if (c != null) {
            return c;
        }
        c = new ServiceClient(context, null);
        if (replicated) {
            c.engageModule("bftws");
        }
        Options options = c.getOptions();
        options.setTo(new EndpointReference(endpoint));
        options.setAction(action);
        options.setTimeOutInMilliSeconds(attemptMillis);
        return c;
    }

    private void close() {
        ServiceClient c = idle.poll();
        while (c != null) {
            try {
                c.cleanup();
            } catch (AxisFault e) {
                LOG.warn("relay: closing a backend client failed", e);
            }
            c = idle.poll();
        }
        terminate(context);
    }

    private static void terminate(ConfigurationContext context) {
        try {
            context.terminate();
        } catch (AxisFault e) {
            LOG.warn("relay: terminating the backend client context failed", e);
        }
    }

    private static String reasonOf(AxisFault e) {
        String reason = e.getReason();
        return reason != null ? reason : String.valueOf(e.getMessage());
    }

    private static String required(AxisService service, String name) throws AxisFault {
        String v = optional(service, name, null);
        if (v == null || v.isEmpty()) {
            throw new AxisFault("relay: the parameter " + name + " is not set (services.xml or axis2.xml)");
        }
        return v;
    }

    private static String optional(AxisService service, String name, String fallback) {
        Parameter p = service.getParameter(name);
        if (p == null || p.getValue() == null) {
            return fallback;
        }
        return String.valueOf(p.getValue()).trim();
    }
}
