package org.bftws.perf.echo;

import java.nio.file.Path;

import org.apache.axis2.context.ConfigurationContext;
import org.bftws.client.embedded.Axis2Repository;
import org.bftws.client.embedded.EmbeddedAxis2Server;
import org.bftws.client.group.ThreeTierGroups;

/**
 * Experiment 2's baseline: plain Axis2 client → plain middle server (relay.aar, no bftws engaged) → plain
 * backend echo server; the relay calls the backend with a plain ServiceClient (its client repository is
 * conf/axis2-client.xml, bftws.replicated=false, so it engages no module).
 */
final class ThreeTierPlainMode implements EchoMode {
    private static final String NO_BFTWS = "<module ref=\"bftws\"/>";

    @Override
    public String name() {
        return "plain";
    }

    @Override
    public String description() {
        return "plain Axis2 three-tier: client -> middle server (relay) -> backend echo server, no module engaged";
    }

    @Override
    public Deployment start(EchoSetup setup, Path work) throws Exception {
        return ClosingDeployment.start(closer -> {
            Path backendXml = setup.axis2Xml(work.resolve("backend-conf"), "axis2-replica.xml", "", NO_BFTWS);
            EmbeddedAxis2Server backend = closer.register(
                    EmbeddedAxis2Server.start(setup.server(work.resolve("backend"), backendXml)));
            Path nested = setup.client(work.resolve("middle-client"), setup.conf().resolve("axis2-client.xml")).root();
            Path middleXml = setup.axis2Xml(work.resolve("middle-conf"), "axis2-replica.xml",
                    ThreeTierGroups.relayParameters(nested, backend.serviceUrl("Echo"), ServiceClientCaller.TIMEOUT_MS),
                    NO_BFTWS);
            EmbeddedAxis2Server middle = closer.register(EmbeddedAxis2Server.start(Axis2Repository
                    .at(work.resolve("middle")).axis2Xml(middleXml)
                    .module(setup.artifacts().resolve("modules/bftws.mar"))
                    .module(setup.artifacts().resolve("modules/addressing.mar"))
                    .service(setup.artifacts().resolve("services/relay.aar")).build()));
            ConfigurationContext client = setup.client(work.resolve("client"),
                    setup.conf().resolve("axis2-client.xml")).createConfigurationContext();
            closer.register(client::terminate);
            String url = middle.serviceUrl("Relay");
            return () -> new ServiceClientCaller(client, url, true);
        });
    }
}
