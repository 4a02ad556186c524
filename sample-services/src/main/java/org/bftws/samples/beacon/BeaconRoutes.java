package org.bftws.samples.beacon;

import org.apache.axis2.context.ConfigurationContext;
import org.bftws.module.http.HttpRoutes;
import org.bftws.module.http.RouteResponse;

/**
 * drand's HTTP API on the replica's HTTP port, under {@value #PREFIX}: {@code /info}, {@code /public/latest},
 * {@code /public/{round}}, the same under {@code /{chainhash}/}, and the replicas' {@code /partial/{round}}.
 * JSON as drand's v1 API; 404 for a round not due yet or an unknown path, 503 while the beacon cannot run or
 * fewer than k replicas answered.
 */
final class BeaconRoutes {
    static final String PREFIX = "/beacon";
    private static final String JSON = "application/json";

    private BeaconRoutes() {
    }

    static void register(ConfigurationContext context, BeaconLifeCycle lifeCycle) {
        HttpRoutes routes = HttpRoutes.of(context);
        routes.unregister(PREFIX); // a redeployed service replaces its route
        routes.register(PREFIX, (path, query) -> answer(lifeCycle.beacon(), path.substring(PREFIX.length())));
    }

    static RouteResponse answer(Beacon beacon, String path) {
        if (beacon == null) {
            return RouteResponse.text(503, "the beacon is not running on this replica (it needs the group's"
                    + " threshold BLS key; see the replica's log)");
        }
        Beacon.Reply r = beacon.get(path);
        return r.status() == 200 ? RouteResponse.ok(JSON, r.json())
                : new RouteResponse(r.status(), JSON, r.json().getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
}
