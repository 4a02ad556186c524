package org.bftws.module.invoker;

import org.apache.axis2.AxisFault;
import org.apache.axis2.description.AxisOperation;
import org.apache.axis2.description.AxisService;
import org.apache.axis2.engine.AxisConfiguration;
import org.bftws.module.transport.ControlPort;

/**
 * The services a replica group replicates: every application service deployed on its replicas (the In
 * Handler refuses direct requests to all of them), addressed as {@code GROUP/.../services/NAME}. The main
 * service is the one the replicas' {@code bftws.replicas} endpoints name; a request names "" for it. The
 * Total Order Invoker and the randomized-operation check resolve requests here, alike on every replica.
 */
public final class GroupServices {
    private final AxisConfiguration axis;
    private final String mainService;

    public GroupServices(AxisConfiguration axis, String mainService) {
        this.axis = axis;
        this.mainService = mainService;
    }

    public String mainService() {
        return mainService;
    }

    /** The name a request's service field stands for. */
    public String name(String requested) {
        return requested.isEmpty() ? mainService : requested;
    }

    /** The deployed service a request names; the control port is not an application service. */
    public AxisService service(String requested) throws AxisFault {
        String name = name(requested);
        AxisService s = ControlPort.SERVICE_NAME.equals(name) ? null : axis.getService(name);
        if (s == null) {
            throw new AxisFault("BFT-WS: replicated service " + name + " is not deployed");
        }
        return s;
    }

    /** Looks the operation up as Axis2's dispatchers would: by WS-Addressing action, then by SOAPAction. */
    public static AxisOperation operation(AxisService service, String action) throws AxisFault {
        AxisOperation op = service.getOperationByAction(action);
        if (op == null) {
            op = service.getOperationBySOAPAction(action);
        }
        if (op == null) {
            throw new AxisFault("BFT-WS: service " + service.getName() + " has no operation for action " + action);
        }
        if (op.isControlOperation()) {
            // Operations a module added (Sandesha2's WS-RM protocol operations): not the application's, and
            // not deterministic (Sandesha2 draws UUIDs); a client must not reach them through ordering.
            throw new AxisFault("BFT-WS: action " + action + " is not an operation of service " + service.getName());
        }
        return op;
    }
}
