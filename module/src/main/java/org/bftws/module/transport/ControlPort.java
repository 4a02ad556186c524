package org.bftws.module.transport;

import java.net.URI;

import javax.xml.namespace.QName;

import org.apache.axis2.AxisFault;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.description.AxisOperation;
import org.apache.axis2.description.AxisService;
import org.apache.axis2.description.InOnlyAxisOperation;
import org.apache.axis2.engine.AxisConfiguration;

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
 */
public final class ControlPort {
    public static final String SERVICE_NAME = "BftwsControl";

    private final AxisConfiguration axisConfig;
    private final ControlMessageReceiver receiver;

    private ControlPort(AxisConfiguration axisConfig, ControlMessageReceiver receiver) {
        this.axisConfig = axisConfig;
        this.receiver = receiver;
    }

    /** Adds the control service to {@code context}; messages go to {@code sink}. */
    public static ControlPort deploy(ConfigurationContext context, ControlSink sink, int maxBytes)
            throws AxisFault {
        return deploy(context, sink, maxBytes, ControlGuard.NONE);
    }

    /** As above, each well-formed message first checked by {@code guard}. */
    public static ControlPort deploy(ConfigurationContext context, ControlSink sink, int maxBytes,
            ControlGuard guard) throws AxisFault {
        AxisService service = new AxisService(SERVICE_NAME);
        AxisOperation op = new InOnlyAxisOperation(new QName(ControlMessage.NAMESPACE, "message"));
        ControlMessageReceiver receiver = new ControlMessageReceiver(sink, maxBytes, guard);
        op.setMessageReceiver(receiver);
        op.setSoapAction(ControlMessage.ACTION);
        service.addOperation(op);
        service.mapActionToOperation(ControlMessage.ACTION, op);
        AxisConfiguration axisConfig = context.getAxisConfiguration();
        axisConfig.addService(service);
        return new ControlPort(axisConfig, receiver);
    }

    /** The control port beside a service endpoint of the same Axis2 instance. */
    public static URI controlUri(URI serviceEndpoint) {
        return serviceEndpoint.resolve(SERVICE_NAME);
    }

    /** Messages dropped as malformed or oversized. */
    public long refused() {
        return receiver.refused();
    }

    public void undeploy() throws AxisFault {
        axisConfig.removeService(SERVICE_NAME);
    }
}
