package org.bftws.module.order;

import org.apache.axis2.AxisFault;
import org.apache.axis2.description.AxisService;
import org.apache.axis2.engine.AxisConfiguration;

/**
 * BFT-WS §3.3.2 (configuration II): a replica that only orders need not deploy the group's service, yet
 * clients multicast their WS-RM messages to its service endpoint like to any other replica. When the main
 * service named by the replica's {@code bftws.replicas} endpoint is not deployed there, this stand-in of the
 * same name takes them: it has no operation of its own, so every application message goes to the module's
 * {@code BftwsApplicationRequest} operation (BftwsRequestDispatcher) and on to the Total Order Manager,
 * through Sandesha2 as anywhere else. Nothing behind it executes: core hands such a replica nothing to
 * execute, and it never replies to clients.
 */
public final class AgreementOnlyService {
    private AgreementOnlyService() {
    }

    /** Deploys the stand-in for {@code name} unless a service of that name is deployed; true if it did. */
    public static boolean deployIfAbsent(AxisConfiguration axis, String name) throws AxisFault {
        if (axis.getService(name) != null) {
            return false;
        }
        axis.addService(new AxisService(name));
        return true;
    }
}
