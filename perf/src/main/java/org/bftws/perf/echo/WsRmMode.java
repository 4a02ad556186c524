package org.bftws.perf.echo;

import java.nio.file.Path;
import java.util.UUID;

import org.apache.axis2.context.ConfigurationContext;
import org.apache.sandesha2.Sandesha2Constants;
import org.apache.sandesha2.client.SandeshaClientConstants;
import org.bftws.client.embedded.EmbeddedAxis2Server;

/**
 * Baseline the targets are stated against: Axis2 + Sandesha2 WS-RM 1.1, through bftws.mar with no
 * replica group (bftws.mar is a superset of Sandesha2: README, installation). The server is
 * conf/axis2-replica.xml as shipped (bftws engaged globally, {@code bftws.replicated=false}); each caller
 * is a ServiceClient with bftws engaged and its own WS-RM sequence, synchronous request-reply.
 */
final class WsRmMode implements EchoMode {
    private final boolean signed;

    /** Unsigned. */
    WsRmMode() {
        this(false);
    }

    /**
     * @param signed Rampart X.509 signatures on every message of the sequence, RM control messages included
     *               ({@link EchoSigning}: the policy sits on the client's AxisService, DEPENDENCIES.md)
     */
    WsRmMode(boolean signed) {
        this.signed = signed;
    }

    @Override
    public String name() {
        return signed ? "wsrm-signed" : "wsrm";
    }

    @Override
    public String description() {
        return "Axis2 + Sandesha2 WS-RM 1.1 through bftws.mar without a group: one embedded server, one RM sequence per client"
                + (signed ? "; Rampart 1.7.1 X.509 signatures both ways (AsymmetricBinding, Basic256Sha256)" : "");
    }

    @Override
    public Deployment start(EchoSetup setup, Path work) throws Exception {
        Closer closer = new Closer();
        try {
            EmbeddedAxis2Server server = closer.register(EmbeddedAxis2Server.start(
                    setup.server(work.resolve("server"), setup.conf().resolve("axis2-replica.xml"))));
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
                    ServiceClientCaller c = new ServiceClientCaller(client, url, false);
                    c.client.engageModule("bftws");
                    c.client.getOptions().setProperty(SandeshaClientConstants.RM_SPEC_VERSION,
                            Sandesha2Constants.SPEC_VERSIONS.v1_1);
                    c.client.getOptions().setProperty(SandeshaClientConstants.SEQUENCE_KEY,
                            "perf-" + UUID.randomUUID());
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
