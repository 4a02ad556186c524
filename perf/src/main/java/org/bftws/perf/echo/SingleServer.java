package org.bftws.perf.echo;

import java.nio.file.Path;

import org.apache.axis2.context.ConfigurationContext;
import org.bftws.client.embedded.EmbeddedAxis2Server;
import org.bftws.perf.echo.EchoMode.Caller;
import org.bftws.perf.echo.EchoMode.Deployment;

/**
 * What the plain and WS-RM baselines share: one embedded echo server from {@code serverXml}, one client
 * context, optionally Rampart signing on both ends ({@link EchoSigning}), and callers that differ only in how
 * their ServiceClient is prepared.
 */
final class SingleServer {
    /** Prepares a new caller's ServiceClient (e.g. engages WS-RM); runs before signing is added. */
    interface CallerSetup {
        void apply(ServiceClientCaller caller) throws Exception;
    }

    private SingleServer() {
    }

    /**
     * @param plainCaller passed to {@link ServiceClientCaller} (a caller without modules)
     */
    static Deployment start(EchoSetup setup, Path work, Path serverXml, boolean signed, boolean plainCaller,
            CallerSetup callerSetup) throws Exception {
        Closer closer = new Closer();
        try {
            EmbeddedAxis2Server server = closer.register(
                    EmbeddedAxis2Server.start(setup.server(work.resolve("server"), serverXml)));
            ConfigurationContext client = setup.client(work.resolve("client"),
                    setup.conf().resolve("axis2-client.xml")).createConfigurationContext();
            closer.register(client::terminate);
            EchoSigning signing = signed ? EchoSigning.generate(work) : null;
            if (signing != null) {
                signing.secureServer(server, "Echo");
            }
            String url = setup.serviceUrl(closer, server, "Echo");
            Deployment deployment = new Deployment() {
                @Override
                public Caller newCaller() throws Exception {
                    ServiceClientCaller c = new ServiceClientCaller(client, url, plainCaller);
                    callerSetup.apply(c);
                    if (signing != null) {
                        signing.secureClient(c.client);
                    }
                    return c;
                }

                @Override
                public void close() throws Exception {
                    closer.close();
                }
            };
            if (signing != null) {
                EchoSigning.prime(deployment);
            }
            return deployment;
        } catch (Exception | Error e) {
            closer.close();
            throw e;
        }
    }
}
