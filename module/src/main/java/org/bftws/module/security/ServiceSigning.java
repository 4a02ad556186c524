package org.bftws.module.security;

import java.util.ArrayList;
import java.util.List;

import org.apache.axiom.om.OMElement;
import org.apache.axis2.AxisFault;
import org.apache.axis2.client.ServiceClient;
import org.apache.axis2.description.AxisModule;
import org.apache.axis2.description.AxisService;
import org.apache.axis2.description.AxisServiceGroup;
import org.apache.axis2.description.Parameter;
import org.apache.axis2.description.ParameterIncludeImpl;
import org.apache.axis2.engine.AxisConfiguration;
import org.apache.axis2.engine.AxisEvent;
import org.apache.axis2.engine.AxisObserver;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.apache.neethi.Policy;
import org.bftws.module.config.BftwsConfigException;
import org.bftws.module.config.BftwsKeys;
import org.bftws.module.transport.ControlPort;

/**
 * Puts every service of a replica's group under the signing policy as soon as Axis2 deploys it (and again on
 * each redeployment): the main service its {@code bftws.replicas} endpoint names and its siblings
 * {@code .../services/NAME}, since a group client sends WS-Security signed CreateSequence and application
 * messages to any of them (paper §3.3.1). The control port is left alone: it carries the replicas' own
 * Ed25519-signed protocol messages and the replies. Axis2 initialises modules before it loads services, so
 * the module cannot attach the policy in its {@code init}; it registers this observer there instead. If the
 * policy cannot be attached, the service is deactivated: it must not serve unsigned when signing was asked
 * for.
 */
public final class ServiceSigning implements AxisObserver {
    private static final Logger LOG = LogManager.getLogger(ServiceSigning.class);

    private final Policy policy;
    private final ParameterIncludeImpl parameters = new ParameterIncludeImpl();

    private ServiceSigning(Policy policy) {
        this.policy = policy;
    }

    /**
     * Signs the exchanges of every group service with {@code policy} from its deployment on.
     *
     * @throws BftwsConfigException naming {@code bftws.security} if rampart.mar is not deployed: checked now,
     *         and unchecked, because Axis2 logs and ignores an AxisFault thrown by a module's init, so only a
     *         runtime exception stops start-up
     */
    public static void install(AxisConfiguration axis, Policy policy) throws AxisFault {
        if (axis.getModule(RampartSigning.RAMPART_MODULE) == null) {
            throw new BftwsConfigException(BftwsKeys.SECURITY.name(),
                    "is rampart, but rampart.mar is not among the repository's modules");
        }
        ServiceSigning observer = new ServiceSigning(policy);
        axis.addObservers(observer);
        for (AxisService already : List.copyOf(axis.getServices().values())) {
            if (isGroupService(already)) {
                observer.sign(already);
            }
        }
    }

    /** Any service deployed on the replica but the control port and client-side (anonymous) services. */
    private static boolean isGroupService(AxisService s) {
        return !ControlPort.SERVICE_NAME.equals(s.getName()) && !s.isClientSide()
                && !s.getName().startsWith(ServiceClient.ANON_SERVICE);
    }

    @Override
    public void serviceUpdate(AxisEvent event, AxisService service) {
        if (event.getEventType() == AxisEvent.SERVICE_DEPLOY && isGroupService(service)) {
            sign(service);
        }
    }

    private void sign(AxisService service) {
        try {
            RampartSigning.require(service, policy);
            LOG.info("bftws: service {} requires WS-Security signatures (Rampart) on its WS-RM sequence and"
                    + " application messages", service.getName());
        } catch (AxisFault e) {
            service.setActive(false);
            LOG.error("bftws: service {} deactivated: cannot require WS-Security signatures: {}", service.getName(),
                    e.getMessage());
        }
    }

    @Override
    public void init(AxisConfiguration axisConfig) {
    }

    @Override
    public void serviceGroupUpdate(AxisEvent event, AxisServiceGroup group) {
    }

    @Override
    public void moduleUpdate(AxisEvent event, AxisModule module) {
    }

    @Override
    public void addParameter(Parameter param) throws AxisFault {
        parameters.addParameter(param);
    }

    @Override
    public void removeParameter(Parameter param) throws AxisFault {
        parameters.removeParameter(param);
    }

    @Override
    public void deserializeParameters(OMElement parameterElement) throws AxisFault {
        parameters.deserializeParameters(parameterElement);
    }

    @Override
    public Parameter getParameter(String name) {
        return parameters.getParameter(name);
    }

    @Override
    public ArrayList<Parameter> getParameters() {
        return parameters.getParameters();
    }

    @Override
    public boolean isParameterLocked(String name) {
        return parameters.isParameterLocked(name);
    }
}
