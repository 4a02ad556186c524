package org.bftws.module.transport;

import java.util.concurrent.ExecutorService;

import org.apache.axis2.AxisFault;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.transport.http.server.AxisHttpConnection;
import org.apache.axis2.transport.http.server.DefaultHttpConnectionManager;
import org.apache.axis2.transport.http.server.HttpConnectionManager;
import org.apache.axis2.transport.http.server.HttpFactory;
import org.apache.axis2.transport.http.server.WorkerFactory;
import org.apache.http.params.HttpParams;

/**
 * Axis2's {@link HttpFactory} whose connections drain at most a bounded part of a request body the service left
 * unread ({@link BoundedDrainConnection}), so a refused request frees its worker thread at once instead of
 * holding it until the client has sent the whole declared body. The replica's HTTP transport receiver
 * ({@code org.bftws.module.http.RoutingHttpServer}) is built on it.
 */
public final class BoundedDrainHttpFactory extends HttpFactory {
    /** Serves {@code context} on {@code port} with workers from {@code workers}. */
    public BoundedDrainHttpFactory(ConfigurationContext context, int port, WorkerFactory workers) throws AxisFault {
        super(context, port, workers);
    }

    @Override
    public HttpConnectionManager newRequestConnectionManager(ExecutorService executor, WorkerFactory workerFactory,
            HttpParams params) {
        HttpConnectionManager manager = new DefaultHttpConnectionManager(getConfigurationContext(), executor,
                workerFactory, params, this);
        return new HttpConnectionManager() {
            @Override
            public void process(AxisHttpConnection conn) {
                manager.process(new BoundedDrainConnection(conn));
            }

            @Override
            public void shutdown() {
                manager.shutdown();
            }
        };
    }
}
