package org.bftws.module.invoker;

import java.util.Iterator;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

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
 * Checkpoints cover every one of them that keeps state ({@link #statefulServices()}).
 */
public final class GroupServices {
    /** How often {@link #awaitStateful} looks at the deployed services again. */
    private static final long DEPLOYMENT_POLL_MILLIS = 50;

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

    /**
     * The group's services that keep state, sorted by name: those whose class implements
     * {@link org.bftws.module.api.StatefulService} or that have a {@value TotalOrderInvoker#GET_STATE} operation. Every replica
     * deploys the same archives, so every replica finds the same names; checkpoints capture these services'
     * states in this order (§3.3.1.8, {@link ServiceStates}).
     */
    public SortedSet<String> statefulServices() {
        SortedSet<String> names = new TreeSet<>();
        for (AxisService s : axis.getServices().values()) {
            if (!ControlPort.SERVICE_NAME.equals(s.getName()) && keepsState(s)) {
                names.add(s.getName());
            }
        }
        return names;
    }

    /**
     * The stateful services once they include {@code names}, or after {@code timeoutMillis} as they are then. A
     * replica restarted from its journal installs its checkpoint while Axis2 is still deploying the services
     * (the module initialises first, and Axis2 signals no end of deployment): its set_state waits for them here,
     * polling every {@value #DEPLOYMENT_POLL_MILLIS} ms.
     */
    public SortedSet<String> awaitStateful(Set<String> names, long timeoutMillis) {
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000;
        SortedSet<String> here = statefulServices();
        while (!here.containsAll(names) && System.nanoTime() < deadline) {
            try {
                Thread.sleep(DEPLOYMENT_POLL_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            here = statefulServices();
        }
        return here;
    }

    private static boolean keepsState(AxisService s) {
        return StateOperations.named(s, TotalOrderInvoker.GET_STATE) != null
                || StateOperations.implementsStatefulService(s);
    }

    /** The application operation of {@code s} named {@code name}, or null (module-added operations excluded). */
    static AxisOperation operationNamed(AxisService s, String name) {
        for (Iterator<AxisOperation> it = s.getOperations(); it.hasNext(); ) {
            AxisOperation op = it.next();
            if (!op.isControlOperation() && op.getName() != null && name.equals(op.getName().getLocalPart())) {
                return op;
            }
        }
        return null;
    }

    /**
     * Looks the operation up as Axis2's dispatchers would: by WS-Addressing action, then by SOAPAction. The state
     * operations ({@link StateOperations}) are refused: only the Total Order Manager runs them.
     */
    public static AxisOperation operation(AxisService service, String action) throws AxisFault {
        AxisOperation op = service.getOperationByAction(action);
        if (op == null) {
            op = service.getOperationBySOAPAction(action);
        }
        String reserved = StateOperations.refusal(service, action, op);
        if (reserved != null) {
            throw new AxisFault(reserved);
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
