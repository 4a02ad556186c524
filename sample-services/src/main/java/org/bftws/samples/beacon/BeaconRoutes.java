package org.bftws.samples.beacon;

import java.nio.charset.StandardCharsets;

import org.apache.axis2.context.ConfigurationContext;
import org.bftws.module.http.HttpRoutes;
import org.bftws.module.http.RouteResponse;

/**
 * drand's HTTP API on the replica's HTTP port, under {@value #PREFIX}: {@code /info}, {@code /public/latest},
 * {@code /public/{round}}, the same under {@code /{chainhash}/}, and the replicas' {@code /partial/{round}}.
 * JSON as drand's v1 API; 404 for a round not due yet or an unknown path, 503 while the module has not loaded the
 * keys or fewer than k replicas answered, 501 where this replica's keys cannot serve the beacon (the reason in
 * the body). Public data: every answer carries {@code Access-Control-Allow-Origin: *}, as drand's HTTP relays'
 * do, so that drand's JavaScript client in a web page of any origin may read it ({@link HttpRoutes#registerPublic}).
 */
final class BeaconRoutes {
    static final String PREFIX = "/beacon";
    private static final String JSON = "application/json";

    private BeaconRoutes() {
    }

    static void register(ConfigurationContext context, BeaconLifeCycle lifeCycle) {
        HttpRoutes routes = HttpRoutes.of(context);
        routes.unregister(PREFIX); // a redeployed service replaces its route
        routes.registerPublic(PREFIX, (path, query) -> answer(lifeCycle, path.substring(PREFIX.length())));
    }

    static RouteResponse answer(BeaconLifeCycle lifeCycle, String path) {
        Beacon beacon = lifeCycle.beacon();
        if (beacon == null) {
            String refused = lifeCycle.refused();
            return refused != null ? json(Beacon.Reply.error(501, "the beacon is off on this replica: " + refused))
                    : json(Beacon.Reply.error(503, "the beacon is not running yet: the replica is starting"));
        }
        return json(beacon.get(path));
    }

    private static RouteResponse json(Beacon.Reply r) {
        return new RouteResponse(r.status(), JSON, r.json().getBytes(StandardCharsets.UTF_8));
    }
}
