package org.bftws.client.embedded;

import java.net.URI;

import org.apache.axis2.AxisFault;
import org.apache.axis2.addressing.EndpointReference;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.transport.http.SimpleHTTPServer;
import org.bftws.module.client.GroupClientRuntime;
import org.bftws.module.http.RoutingHttpServer;

/**
 * An Axis2 server in this JVM: the repository's services behind {@link RoutingHttpServer} (Axis2's
 * {@link SimpleHTTPServer} with the bounded drain of refused request bodies and the instance's GET routes), on a port
 * the operating system picks, reached at {@code http://127.0.0.1:PORT/axis2/services/NAME}.
 *
 * <p>Port 0 and no probing: {@code SimpleHttpServer.start()} waits until its listener socket is open and
 * then knows the real port, so {@link #start} returns only once requests can be accepted and two servers
 * never race for a port. SimpleHTTPServer listens on all interfaces (it has no bind-address setting);
 * everything this class hands out addresses 127.0.0.1, so test traffic stays on loopback.
 */
public final class EmbeddedAxis2Server implements Axis2Server {
    /** The address every URL of this class names. */
    public static final String LOOPBACK = "127.0.0.1";

    private final ConfigurationContext context;
    private final SimpleHTTPServer http;
    private final int port;

    private EmbeddedAxis2Server(ConfigurationContext context, SimpleHTTPServer http, int port) {
        this.context = context;
        this.http = http;
        this.port = port;
    }

    /** Deploys {@code repository} and starts serving it; fails if deployment or binding fails. */
    public static EmbeddedAxis2Server start(Axis2Repository repository) throws AxisFault {
        return start(repository, 0);
    }

    /**
     * As {@link #start(Axis2Repository)}, on a given port: to restart a replica at the endpoint its group
     * lists. 0 lets the operating system pick.
     */
    public static EmbeddedAxis2Server start(Axis2Repository repository, int port) throws AxisFault {
        ConfigurationContext context = repository.createConfigurationContext();
        SimpleHTTPServer http = null;
        try {
            http = new RoutingHttpServer(context, port);
            http.start();
            EndpointReference epr = http.getEPRForService("probe", LOOPBACK);
            int bound = URI.create(epr.getAddress()).getPort();
            // Where this instance serves services: a BFT-WS client tells the replicas to reply there.
            context.setProperty(GroupClientRuntime.LISTENER_BASE_PROPERTY,
                    "http://" + LOOPBACK + ":" + bound + "/axis2/services/");
            return new EmbeddedAxis2Server(context, http, bound);
        } catch (AxisFault | RuntimeException e) {
            if (http != null) {
                http.stop();
            }
            context.terminate();
            throw e;
        }
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public String serviceUrl(String serviceName) {
        return "http://" + LOOPBACK + ":" + port + "/axis2/services/" + serviceName;
    }

    @Override
    public ConfigurationContext context() {
        return context;
    }

    @Override
    public void close() throws AxisFault {
        http.stop();
        context.terminate();
    }

    /** Closes every server that is not null (a group torn down after a test; some may have stopped already). */
    public static void closeAll(EmbeddedAxis2Server... servers) throws AxisFault {
        for (EmbeddedAxis2Server s : servers) {
            if (s != null) {
                s.close();
            }
        }
    }
}
