package org.bftws.module.transport;

import java.util.concurrent.ExecutorService;

import org.apache.axis2.AxisFault;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.description.TransportInDescription;
import org.apache.axis2.transport.http.SimpleHTTPServer;
import org.apache.axis2.transport.http.server.AxisHttpConnection;
import org.apache.axis2.transport.http.server.DefaultHttpConnectionManager;
import org.apache.axis2.transport.http.server.HttpConnectionManager;
import org.apache.axis2.transport.http.server.HttpFactory;
import org.apache.axis2.transport.http.server.WorkerFactory;
import org.apache.http.params.HttpParams;

/**
 * Axis2's {@link SimpleHTTPServer} whose connections drain at most a bounded part of a request body the
 * service left unread ({@link BoundedDrainConnection}), so a refused request frees its worker thread at
 * once. A replica's {@code axis2.xml} names it as the {@code http} transport receiver; everything else
 * (port, thread pool, socket timeout parameters) is Axis2's.
 */
public class BoundedDrainHttpServer extends SimpleHTTPServer {
    /** For {@code axis2.xml}: {@link #init} reads the port and the pool parameters. */
    public BoundedDrainHttpServer() {
    }

    /** Serves {@code context} on {@code port} (0: the operating system picks). */
    public BoundedDrainHttpServer(ConfigurationContext context, int port) throws AxisFault {
        super(new Factory(context, port));
    }

    @Override
    public void init(ConfigurationContext context, TransportInDescription transportIn) throws AxisFault {
        super.init(context, transportIn);
        httpFactory = new Factory(context, httpFactory.getPort());
    }

    /** Axis2's factory with connections wrapped in {@link BoundedDrainConnection}. */
    private static final class Factory extends HttpFactory {
        Factory(ConfigurationContext context, int port) throws AxisFault {
            super(context, port);
        }

        @Override
        public HttpConnectionManager newRequestConnectionManager(ExecutorService executor,
                WorkerFactory workerFactory, HttpParams params) {
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
}
