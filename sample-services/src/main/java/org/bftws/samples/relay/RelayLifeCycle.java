package org.bftws.samples.relay;

import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.description.AxisService;
import org.apache.axis2.engine.ServiceLifeCycle;

/**
 * Closes the relay's backend client (its Axis2 context and HTTP listener) when the hosting Axis2
 * instance terminates; the client itself is opened on the first relayed call ({@link BackendCall#of}).
 */
public class RelayLifeCycle implements ServiceLifeCycle {
    @Override
    public void startUp(ConfigurationContext context, AxisService service) {
        // nothing yet: the backend may not be running when the middle tier deploys
    }

    @Override
    public void shutDown(ConfigurationContext context, AxisService service) {
        BackendCall.closeFor(service);
    }
}
