package org.bftws.module.wsdl;

import java.util.ArrayList;
import java.util.Set;

import javax.wsdl.Binding;
import javax.wsdl.Definition;
import javax.wsdl.Port;
import javax.wsdl.PortType;
import javax.wsdl.Service;
import javax.wsdl.extensions.soap.SOAPAddress;
import javax.wsdl.extensions.soap12.SOAP12Address;

import org.apache.axiom.om.OMElement;
import org.apache.axis2.AxisFault;
import org.apache.axis2.description.AxisModule;
import org.apache.axis2.description.AxisService;
import org.apache.axis2.description.AxisServiceGroup;
import org.apache.axis2.description.Parameter;
import org.apache.axis2.engine.AxisConfiguration;
import org.apache.axis2.engine.AxisEvent;
import org.apache.axis2.engine.AxisObserver;
import org.apache.axis2.wsdl.WSDLConstants;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.bftws.module.invoker.StateOperations;
import org.bftws.module.transport.ControlPort;

/**
 * The WSDL a replica publishes at {@code ?wsdl} names the replica group, not the replica. A client addresses the
 * group endpoint (BFT-WS paper §3.3.1.2) and its BFT-WS Out Handler and Multicast Sender reach the replicas; a
 * stub generated with a replica's own address would bypass the group and be refused by every replica's In
 * Handler. So for each group service that publishes its own WSDL ({@code useOriginalwsdl}: the WSDL4J
 * definition Axis2 read from the archive's {@code META-INF/NAME.wsdl}), every SOAP address becomes the
 * service's group address — the group endpoint for the main service, its sibling {@code .../services/NAME} for
 * the others, as {@link org.bftws.module.config.BftwsConfig#groupService} resolves them — and Axis2 is told not
 * to write the replica's own address back ({@code modifyUserWSDLPortAddress=false}). Everything else of the
 * WSDL, the {@code bftws:Randomized} policies included, is served as written, but for the service's state
 * operations, which {@link StateOperations} withdraws from the service as it deploys (clients must not reach them).
 *
 * <p>An observer of the replica's Axis2 configuration: services deploy after modules initialise, so each is
 * rewritten as it deploys. Services without a WSDL of their own keep Axis2's generated one.
 */
public final class GroupWsdl implements AxisObserver {
    private static final Logger LOG = LogManager.getLogger(GroupWsdl.class);
    /** Axis2's services.xml parameter: replace the WSDL's addresses by the receiving server's own. */
    public static final String MODIFY_ADDRESS = "modifyUserWSDLPortAddress";

    private final String groupEndpoint;
    private final String mainService;

    /** For a group whose endpoint {@code groupEndpoint} names service {@code mainService}. */
    public GroupWsdl(String groupEndpoint, String mainService) {
        this.groupEndpoint = groupEndpoint;
        this.mainService = mainService;
    }

    @Override
    public void serviceUpdate(AxisEvent event, AxisService service) {
        if (event.getEventType() == AxisEvent.SERVICE_DEPLOY && !ControlPort.SERVICE_NAME.equals(service.getName())) {
            Set<String> withdrawn;
            try {
                withdrawn = StateOperations.withdraw(service);
            } catch (AxisFault e) {
                // A parameter of that name locked by the service: its state operations would stay reachable.
                throw new IllegalStateException("BFT-WS: service " + service.getName() + ": cannot withdraw its"
                        + " state operations from clients", e);
            }
            publish(service, withdrawn);
        }
    }

    /**
     * Points the published WSDL of {@code service} at its group address, if it publishes its own, and leaves out
     * the {@code withdrawn} state operations.
     */
    void publish(AxisService service, Set<String> withdrawn) {
        Definition wsdl = definition(service);
        if (wsdl == null || ControlPort.SERVICE_NAME.equals(service.getName())) {
            return;
        }
        String address = address(service.getName());
        try {
            service.addParameter(MODIFY_ADDRESS, "false");
        } catch (AxisFault e) { // locked in axis2.xml: Axis2 then writes this replica's address into ?wsdl
            LOG.error("service {}: ?wsdl cannot name the group address: {}", service.getName(), e.getMessage());
            return;
        }
        synchronized (service) { // AxisService prints the definition under the same lock
            setAddresses(wsdl, address);
            removeOperations(wsdl, withdrawn);
        }
        LOG.info("service {}: ?wsdl names the group address {}", service.getName(), address);
    }

    /** The address a client of the group calls service {@code name} at. */
    String address(String name) {
        return name.equals(mainService) ? groupEndpoint
                : groupEndpoint.substring(0, groupEndpoint.lastIndexOf('/') + 1) + name;
    }

    /** The WSDL Axis2 read from the service's archive, or null if it generates one from the service. */
    static Definition definition(AxisService s) {
        Parameter p = s.getParameter(WSDLConstants.WSDL_4_J_DEFINITION);
        return p != null && p.getValue() instanceof Definition d ? d : null;
    }

    /** Sets every SOAP 1.1 and 1.2 port address of {@code wsdl} to {@code address}. */
    static void setAddresses(Definition wsdl, String address) {
        for (Object service : wsdl.getServices().values()) {
            for (Object port : ((Service) service).getPorts().values()) {
                for (Object e : ((Port) port).getExtensibilityElements()) {
                    if (e instanceof SOAPAddress a) {
                        a.setLocationURI(address);
                    } else if (e instanceof SOAP12Address a) {
                        a.setLocationURI(address);
                    }
                }
            }
        }
    }

    /** Removes the operations named {@code names} from every port type and binding of {@code wsdl}. */
    static void removeOperations(Definition wsdl, Set<String> names) {
        for (String name : names) {
            for (Object portType : wsdl.getPortTypes().values()) {
                while (((PortType) portType).removeOperation(name, null, null) != null) {
                    // every overload
                }
            }
            for (Object binding : wsdl.getBindings().values()) {
                while (((Binding) binding).removeBindingOperation(name, null, null) != null) {
                    // every overload
                }
            }
        }
    }

    // ---------------------------------------------------------------- the rest of AxisObserver: nothing to do

    @Override
    public void init(AxisConfiguration axisConfig) {
    }

    @Override
    public void serviceGroupUpdate(AxisEvent event, AxisServiceGroup serviceGroup) {
    }

    @Override
    public void moduleUpdate(AxisEvent event, AxisModule module) {
    }

    @Override
    public void addParameter(Parameter param) {
    }

    @Override
    public void removeParameter(Parameter param) {
    }

    @Override
    public void deserializeParameters(OMElement parameterElement) {
    }

    @Override
    public Parameter getParameter(String name) {
        return null;
    }

    @Override
    public ArrayList<Parameter> getParameters() {
        return new ArrayList<>();
    }

    @Override
    public boolean isParameterLocked(String parameterName) {
        return false;
    }
}
