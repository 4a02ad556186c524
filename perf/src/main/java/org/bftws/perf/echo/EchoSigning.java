package org.bftws.perf.echo;

import java.nio.file.Path;
import java.util.List;

import org.apache.axis2.AxisFault;
import org.apache.axis2.client.ServiceClient;
import org.apache.axis2.description.AxisService;
import org.apache.neethi.Policy;
import org.bftws.client.embedded.EmbeddedAxis2Server;
import org.bftws.client.security.GeneratedKeystores;
import org.bftws.client.security.SigningPolicy;
import org.bftws.module.security.RampartSigning;

/**
 * Rampart X.509 signing of the echo exchange, both directions (echo with and without WS-Security
 * signing): keystores made at run time in the mode's work directory (client and service, each trusting
 * the other), one WS-SecurityPolicy per party, attached to the server's Echo service and to each caller's
 * ServiceClient.
 */
final class EchoSigning {
    static final String CLIENT = "client";
    static final String SERVICE = "service";

    private final Policy clientPolicy;
    private final Policy servicePolicy;

    private EchoSigning(Policy clientPolicy, Policy servicePolicy) {
        this.clientPolicy = clientPolicy;
        this.servicePolicy = servicePolicy;
    }

    static EchoSigning generate(Path work) throws Exception {
        Path dir = work.resolve("keys");
        GeneratedKeystores keys = GeneratedKeystores.generate(dir, List.of(CLIENT, SERVICE));
        return new EchoSigning(RampartSigning.load(SigningPolicy.write(dir, keys, CLIENT, SERVICE)),
                RampartSigning.load(SigningPolicy.write(dir, keys, SERVICE, SigningPolicy.REQUEST_SIGNER)));
    }

    void secureServer(EmbeddedAxis2Server server, String serviceName) throws AxisFault {
        AxisService service = server.context().getAxisConfiguration().getService(serviceName);
        RampartSigning.require(service, servicePolicy);
    }

    void secureClient(ServiceClient client) throws AxisFault {
        RampartSigning.require(client, clientPolicy);
    }

    /**
     * One signed call before anything is timed: the first signature in a JVM costs ≈2 s (class loading,
     * WSS4J and XML-Security initialisation; docs/design/dependencies.md), more than a smoke run's warm-up window.
     */
    static void prime(EchoMode.Deployment deployment) throws Exception {
        try (EchoMode.Caller caller = deployment.newCaller()) {
            caller.echo(EchoPayload.elements(1));
        }
    }
}
