package org.bftws.module.transport;

import java.net.URI;
import java.util.concurrent.atomic.AtomicLong;

import javax.xml.namespace.QName;

import org.apache.axis2.AxisFault;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.description.AxisOperation;
import org.apache.axis2.description.AxisService;
import org.apache.axis2.description.InOnlyAxisOperation;
import org.apache.axis2.engine.AxisConfiguration;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.bftws.module.config.BftwsKeys;
import org.bftws.module.http.DirectPost;
import org.bftws.module.http.HttpRoutes;
import org.bftws.module.http.PostRefusal;

/**
 * The BFT-WS control port of one Axis2 instance: a service named {@value #SERVICE_NAME} with one in-only
 * operation, dispatched by the fixed action {@link ControlMessage#ACTION}. Replicas receive pre-prepare,
 * prepare, commit, checkpoint, view-change and state-transfer messages here, and client requests; a client
 * receives replies here (paper §3.3.1.4: control messages go to the Total Order Manager, replies to the
 * Voter).
 *
 * <p>Deployed programmatically rather than as an .aar so that nothing an operator deploys can shadow it,
 * and so a client (which engages bftws per ServiceClient and hosts no service) can have one too. Its URL
 * sits beside the replica's service endpoint: {@link #controlUri} resolves {@value #SERVICE_NAME} against
 * the endpoint listed in {@code bftws.replicas}, e.g. {@code .../axis2/services/Echo} →
 * {@code .../axis2/services/BftwsControl}.
 *
 * <p><b>Direct receive.</b> A control port without a guard (every replica's, and a client's with
 * {@code bftws.security=none}) also registers a {@link DirectPost} at its path: on the module's HTTP server
 * ({@code RoutingHttpServer}) a POST whose body is the plain envelope a {@link ControlMessage} writes is read
 * with one StAX pass ({@link ControlEnvelopeReader}) and handed to the sink without Axiom's tree or Axis2's
 * handler chain (Addressing, Security, Sandesha2, the BFT-WS handlers: none of which acts on a control message),
 * and answered 202 as Axis2 answers it. Any other body goes through the service below, unchanged, so every
 * refusal keeps its SOAP fault. Client-facing WS-RM traffic never comes here: it keeps Sandesha2 and Rampart.
 * A guarded port (a Rampart client's, which checks the envelope's WS-Security header) and a port behind
 * another HTTP front end (a servlet container) receive through Axis2 only.
 */
public final class ControlPort {
    public static final String SERVICE_NAME = "BftwsControl";
    private static final Logger LOG = LogManager.getLogger(ControlPort.class);

    /** Both kept: a stopped server's context no longer has its configuration when the port is undeployed. */
    private final AxisConfiguration axisConfig;
    private final HttpRoutes routes;
    private final ControlMessageReceiver receiver;
    private final AtomicLong direct = new AtomicLong();
    private final String path;

    private ControlPort(ConfigurationContext context, ControlMessageReceiver receiver) {
        this.axisConfig = context.getAxisConfiguration();
        this.routes = HttpRoutes.of(context);
        this.receiver = receiver;
        this.path = HttpRoutes.servicePath(context, SERVICE_NAME);
    }

    /**
     * Adds the control service to {@code context}; messages go to {@code sink}, each well-formed one first
     * checked by {@code guard}. Without a guard, POST bodies up to {@code directBodyBytes} are read directly
     * (0: never; {@code BftwsConfig.controlDirectBodyBytes}).
     */
    public static ControlPort deploy(ConfigurationContext context, ControlSink sink, int maxBytes,
            ControlGuard guard, int directBodyBytes) throws AxisFault {
        AxisService service = new AxisService(SERVICE_NAME);
        AxisOperation op = new InOnlyAxisOperation(new QName(ControlMessage.NAMESPACE, "message"));
        ControlMessageReceiver receiver = new ControlMessageReceiver(sink, maxBytes, guard);
        op.setMessageReceiver(receiver);
        op.setSoapAction(ControlMessage.ACTION);
        service.addOperation(op);
        service.mapActionToOperation(ControlMessage.ACTION, op);
        AxisConfiguration axisConfig = context.getAxisConfiguration();
        axisConfig.addService(service);
        ControlPort port = new ControlPort(context, receiver);
        if (guard == ControlGuard.NONE && directBodyBytes > 0) {
            port.routes.registerPost(port.path, port.directPost(sink, maxBytes, directBodyBytes));
        } else if (directBodyBytes > 0) {
            LOG.info("control port {}: messages go through Axis2's handler chain, where each one's envelope is"
                    + " checked ({} applies to ports without that check only)", port.path,
                    BftwsKeys.CONTROL_DIRECT_RECEIVE.name());
        }
        return port;
    }

    private DirectPost directPost(ControlSink sink, int maxBytes, int maxBody) {
        return new DirectPost() {
            @Override
            public int maxBodyBytes() {
                return maxBody;
            }

            @Override
            public boolean accept(byte[] body, String contentType, String remoteAddress) {
                ControlMessage m = ControlEnvelopeReader.read(body, contentType, maxBytes);
                if (m == null) {
                    return false;
                }
                direct.incrementAndGet();
                sink.deliver(m.from(remoteAddress));
                return true;
            }
        };
    }

    /**
     * POSTs to this port that {@code refusal} refuses are answered on the module's HTTP server before their body
     * is read, whether they would have been received directly or through Axis2 ({@link PostRefusal}).
     */
    public void refuse(PostRefusal refusal) {
        routes.refusePosts(path, refusal);
    }

    /** The control port beside a service endpoint of the same Axis2 instance. */
    public static URI controlUri(URI serviceEndpoint) {
        return serviceEndpoint.resolve(SERVICE_NAME);
    }

    /** Messages dropped as malformed or oversized. */
    public long refused() {
        return receiver.refused();
    }

    /** Messages received directly, without Axis2's handler chain (see the class comment). */
    public long receivedDirect() {
        return direct.get();
    }

    public void undeploy() throws AxisFault {
        routes.unregisterPost(path);
        routes.unrefusePosts(path);
        axisConfig.removeService(SERVICE_NAME);
    }
}
