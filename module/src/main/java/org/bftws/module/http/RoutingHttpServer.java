package org.bftws.module.http;

import org.apache.axis2.AxisFault;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.description.Parameter;
import org.apache.axis2.description.TransportInDescription;
import org.apache.axis2.transport.http.SimpleHTTPServer;
import org.bftws.module.transport.BoundedDrainHttpFactory;

/**
 * Axis2's {@link SimpleHTTPServer} that also answers the GET paths registered in the instance's
 * {@link HttpRoutes} (such as {@code /metrics}); every other request, GET or not, reaches Axis2 as with
 * SimpleHTTPServer, except that a request body the service left unread (a refused oversized request) is drained
 * for a bounded amount and the connection then closed ({@link BoundedDrainHttpFactory}), so the refusal frees
 * its worker thread at once. Name it as the HTTP transport receiver in axis2.xml:
 * <pre>{@code <transportReceiver name="http" class="org.bftws.module.http.RoutingHttpServer">}</pre>
 * and it takes the same parameters (port, thread pool sizes, ...), or construct it as SimpleHTTPServer is.
 */
public class RoutingHttpServer extends SimpleHTTPServer {
    /** As axis2.xml's transportReceiver: configured by {@link #init}. */
    public RoutingHttpServer() {
    }

    /** Serves {@code context} on {@code port} (0: the operating system picks), with the default settings. */
    public RoutingHttpServer(ConfigurationContext context, int port) throws AxisFault {
        super(new BoundedDrainHttpFactory(context, port, RoutingWorker::new));
    }

    @Override
    public void init(ConfigurationContext axisConf, TransportInDescription transportIn) throws AxisFault {
        if (httpFactory == null) {
            // SimpleHTTPServer.init would build a factory of Axis2's plain workers; it keeps one it is given.
            httpFactory = new BoundedDrainHttpFactory(axisConf, port(transportIn), RoutingWorker::new);
        }
        super.init(axisConf, transportIn);
    }

    private static int port(TransportInDescription transportIn) throws AxisFault {
        Parameter param = transportIn.getParameter(PARAM_PORT);
        if (param == null) {
            return DEFAULT_PORT;
        }
        try {
            return Integer.parseInt(((String) param.getValue()).trim());
        } catch (RuntimeException e) {
            throw new AxisFault("http transportReceiver: port is not a number: " + param.getValue());
        }
    }
}
