package org.bftws.samples.state;

import java.lang.management.ManagementFactory;

import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * Publishes a sample service's state as the platform MBean {@code org.bftws.samples:type=ServiceState,name=NAME},
 * so something in the replica's JVM can compare it across replicas without a call through the group (which
 * would be ordered, and would not say what each replica holds). Only a view: the service's own state pair
 * ({@code get_state}/{@code set_state}) is what checkpoints and state transfer use.
 *
 * <p>No lambdas and no string {@code +}: Axis2 1.7 parses service bytecode (docs/design/dependencies.md).
 */
public final class ServiceState implements ServiceStateMBean {
    public static final String DOMAIN = "org.bftws.samples";

    /** What a service hands over: its state as canonical text. */
    public interface Source {
        String stateText();
    }

    private final Source source;

    private ServiceState(Source source) {
        this.source = source;
    }

    @Override
    public String getState() {
        return source.stateText();
    }

    /**
     * Registers {@code source} under {@code name}, replacing an earlier registration (a redeployed service). A
     * failure to register is ignored: the view is optional and the service works without it.
     */
    public static void publish(String name, Source source) {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        try {
            ObjectName objectName = new ObjectName(DOMAIN.concat(":type=ServiceState,name=").concat(name));
            if (server.isRegistered(objectName)) {
                server.unregisterMBean(objectName);
            }
            server.registerMBean(new ServiceState(source), objectName);
        } catch (JMException | RuntimeException e) {
            // optional view (e.g. a security manager forbids MBeans): the service itself is unaffected
        }
    }
}
