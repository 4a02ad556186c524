package org.bftws.client.embedded;

import org.apache.axis2.AxisFault;
import org.apache.axis2.context.ConfigurationContext;

/**
 * An Axis2 instance serving a repository over HTTP on 127.0.0.1: either Axis2's own
 * {@link EmbeddedAxis2Server} or Axis2's servlet in a servlet container ({@link TomcatAxis2Server}). Both
 * serve {@code http://127.0.0.1:PORT/axis2/services/NAME}, so a group's {@code bftws.replicas} reads alike
 * whichever container its replicas run in.
 */
public interface Axis2Server extends AutoCloseable {
    /** The port requests are accepted on. */
    int port();

    /** {@code http://127.0.0.1:PORT/axis2/services/NAME}. */
    String serviceUrl(String serviceName);

    /** The instance's Axis2 context, e.g. to inspect deployed services or add a test handler. */
    ConfigurationContext context();

    /** Stops accepting requests, then shuts the modules down (bftws stops its threads). */
    @Override
    void close() throws AxisFault;
}
