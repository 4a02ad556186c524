package org.bftws.module.invoker;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.axis2.AxisFault;
import org.apache.axis2.description.AxisEndpoint;
import org.apache.axis2.description.AxisOperation;
import org.apache.axis2.description.AxisService;
import org.apache.axis2.description.Parameter;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.apache.ws.commons.schema.XmlSchema;
import org.apache.ws.commons.schema.XmlSchemaElement;
import org.bftws.module.api.StatefulService;

/**
 * The state capture and install operations of a group service (paper §3.3.1.8: {@code get_state} and
 * {@code set_state}), which only the Total Order Manager may run, for checkpoints and state transfer. A client
 * that reached them could read a replica's whole state, or replace it at every replica in the total order.
 *
 * <p>They are the operations named {@value TotalOrderInvoker#GET_STATE} and {@value TotalOrderInvoker#SET_STATE}
 * of any service, and, for a service whose class implements {@link StatefulService}, those named after its
 * methods {@code getState} and {@code setState}: Axis2 makes an operation of every public method of a POJO
 * service, and its message receivers (RPC or AXIOM) call the method an operation is named after. When a group
 * service deploys on a replica, {@link #withdraw} takes them out of the service: no dispatcher finds them and
 * neither Axis2's generated WSDL nor a WSDL of the service's own offers them. The Total Order Invoker
 * still reaches {@code get_state}/{@code set_state} here ({@link #named}); a request whose action names any of
 * them, ordered or read-only, is refused with {@link #refusal}, alike at every replica.
 */
public final class StateOperations {
    private static final Logger LOG = LogManager.getLogger(StateOperations.class);
    /** The service parameter that holds what {@link #withdraw} took out (not an axis2.xml parameter). */
    static final String WITHDRAWN = "org.bftws.withdrawnStateOperations";
    /** The paper's names (§3.3.1.8): reserved in every service. */
    private static final Set<String> PAPER_NAMES = Set.of(TotalOrderInvoker.GET_STATE, TotalOrderInvoker.SET_STATE);
    /** {@link StatefulService}'s methods: reserved in a service whose class implements it. */
    private static final Set<String> JAVA_NAMES = Set.of("getState", "setState");

    /** The withdrawn operations by name, and every action, SOAP action or name a request could reach them by. */
    private record Withdrawn(Map<String, AxisOperation> byName, Map<String, String> nameByAlias) {
    }

    private StateOperations() {
    }

    /**
     * Takes the state operations out of {@code service} (at deployment, before any request can reach it), keeping
     * them for the Total Order Invoker. Returns the names taken out.
     */
    public static Set<String> withdraw(AxisService service) throws AxisFault {
        Set<String> names = reservedNames(service);
        Map<String, AxisOperation> byName = new HashMap<>();
        Map<String, String> nameByAlias = new HashMap<>();
        List<AxisOperation> found = new ArrayList<>();
        for (Iterator<AxisOperation> it = service.getOperations(); it.hasNext(); ) {
            AxisOperation op = it.next();
            if (!op.isControlOperation() && op.getName() != null && names.contains(op.getName().getLocalPart())) {
                found.add(op);
            }
        }
        for (AxisOperation op : found) {
            String name = op.getName().getLocalPart();
            byName.put(name, op);
            nameByAlias.put(name, name);
            for (String alias : aliases(op)) {
                nameByAlias.put(alias, name);
            }
            service.removeOperation(op.getName());
            for (AxisEndpoint endpoint : service.getEndpoints().values()) {
                // the generated WSDL's bindings come from here, not from the service's operations
                if (endpoint.getBinding() != null) {
                    endpoint.getBinding().removeChild(op.getName());
                }
            }
        }
        if (!found.isEmpty()) {
            removeSchemaElements(service, byName.keySet());
            service.addParameter(new Parameter(WITHDRAWN, new Withdrawn(Map.copyOf(byName), Map.copyOf(nameByAlias))));
            LOG.info("service {}: state operations {} are the Total Order Manager's; withdrawn from clients and"
                    + " from ?wsdl", service.getName(), byName.keySet());
        }
        return byName.keySet();
    }

    /**
     * Why a request for {@code action} of {@code service} is refused, or null if the action names no state
     * operation. {@code op} is the operation the action resolved to, or null.
     */
    public static String refusal(AxisService service, String action, AxisOperation op) {
        String name = null;
        if (op != null && op.getName() != null && reservedNames(service).contains(op.getName().getLocalPart())) {
            name = op.getName().getLocalPart();
        } else if (op == null && action != null) {
            Withdrawn w = withdrawn(service);
            name = w == null ? null : w.nameByAlias().get(action);
        }
        return name == null ? null : "BFT-WS: operation " + name + " of service " + service.getName()
                + " captures or installs the service's state for checkpoints and state transfer (paper §3.3.1.8);"
                + " it is reserved for the Total Order Manager and refused to clients";
    }

    /** The state operation {@code name} of {@code service} (withdrawn or, if it never was, in place), or null. */
    static AxisOperation named(AxisService service, String name) {
        Withdrawn w = withdrawn(service);
        AxisOperation op = w == null ? null : w.byName().get(name);
        return op != null ? op : GroupServices.operationNamed(service, name);
    }

    /** Whether {@code service}'s class implements {@link StatefulService}, checked without creating an object. */
    static boolean implementsStatefulService(AxisService service) {
        Parameter p = service.getParameter("ServiceClass");
        if (p == null || !(p.getValue() instanceof String name)) {
            return false;
        }
        ClassLoader loader = service.getClassLoader() != null ? service.getClassLoader()
                : StateOperations.class.getClassLoader();
        try {
            return StatefulService.class.isAssignableFrom(Class.forName(name.trim(), false, loader));
        } catch (ClassNotFoundException | LinkageError e) {
            return false; // then the service cannot be bound at all: its requests get a fault on every replica
        }
    }

    private static Set<String> reservedNames(AxisService service) {
        if (!implementsStatefulService(service)) {
            return PAPER_NAMES;
        }
        Set<String> names = new HashSet<>(PAPER_NAMES);
        names.addAll(JAVA_NAMES);
        return names;
    }

    /**
     * Removes the request and response elements Axis2 generated for the operations {@code names} (a POJO's
     * {@code getState}, {@code getStateResponse}, ...) from the service's schemas, which its generated WSDL
     * embeds.
     */
    private static void removeSchemaElements(AxisService service, Set<String> names) {
        for (XmlSchema schema : service.getSchema()) {
            schema.getItems().removeIf(item -> item instanceof XmlSchemaElement e && generatedFor(e.getName(), names));
            schema.getElements().keySet().removeIf(q -> generatedFor(q.getLocalPart(), names));
        }
    }

    private static boolean generatedFor(String element, Set<String> names) {
        return element != null && (names.contains(element)
                || element.endsWith("Response") && names.contains(element.substring(0, element.length() - 8)));
    }

    private static List<String> aliases(AxisOperation op) {
        List<String> aliases = new ArrayList<>();
        if (op.getWSAMappingList() != null) {
            aliases.addAll(op.getWSAMappingList());
        }
        for (String a : new String[] {op.getSoapAction(), op.getInputAction()}) {
            if (a != null && !a.isEmpty()) {
                aliases.add(a);
            }
        }
        return aliases;
    }

    private static Withdrawn withdrawn(AxisService service) {
        Parameter p = service.getParameter(WITHDRAWN);
        return p != null && p.getValue() instanceof Withdrawn w ? w : null;
    }
}
