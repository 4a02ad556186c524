package org.bftws.perf.echo;

import java.nio.file.Path;

import org.bftws.client.embedded.EmbeddedAxis2Server;
import org.bftws.client.group.ThreeTierGroups;

/**
 * Experiment 2 (BFT-WS paper §4.1.2), BFT-WS: a listening client → 4 middle replicas running relay.aar →
 * 4 backend echo replicas ({@link ThreeTierGroups}); the middle replicas are one replicated client of the
 * backend (§3.4 filtering: a nested request is ordered once 2 of them sent it identically, and executes
 * once), so every call is ordered twice and voted twice. All in this JVM on 127.0.0.1.
 */
final class ThreeTierBftwsMode implements EchoMode {
    @Override
    public String name() {
        return "bftws";
    }

    @Override
    public String description() {
        return "BFT-WS three-tier: client -> 4 middle replicas (relay, f = 1) -> 4 backend echo replicas (f = 1); "
                + "the middle replicas call the backend as one replicated client (p+1 = 2 filter, one execution)";
    }

    @Override
    public Deployment start(EchoSetup setup, Path work) throws Exception {
        return ClosingDeployment.start(closer -> {
            ThreeTierGroups tiers = closer.register(ThreeTierGroups.start(setup.artifacts(), setup.conf(),
                    work.resolve("tiers")));
            EmbeddedAxis2Server client = closer.register(tiers.client(setup.artifacts(), setup.conf(),
                    work.resolve("client")));
            return () -> {
                ServiceClientCaller c = new ServiceClientCaller(client.context(), ThreeTierGroups.MIDDLE_ENDPOINT,
                        false);
                c.client.engageModule("bftws");
                return c;
            };
        });
    }
}
