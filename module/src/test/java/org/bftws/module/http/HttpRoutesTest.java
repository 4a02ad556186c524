package org.bftws.module.http;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.fail;

import org.junit.Test;

/** The route registry: prefix matching, and the prefixes it refuses. */
public class HttpRoutesTest {
    private static final HttpRoute A = (path, query) -> RouteResponse.ok(RouteResponse.TEXT, "a");
    private static final HttpRoute B = (path, query) -> RouteResponse.ok(RouteResponse.TEXT, "b");

    @Test
    public void aPrefixMatchesItselfAndThePathsBelowItAndTheLongestWins() {
        HttpRoutes routes = new HttpRoutes("axis2/services");
        routes.register("/metrics", A);
        routes.register("/metrics/deep/", B);
        assertSame(A, routes.find("/metrics").orElseThrow());
        assertSame(A, routes.find("/metrics/").orElseThrow());
        assertSame(A, routes.find("/metrics/x").orElseThrow());
        assertSame(B, routes.find("/metrics/deep").orElseThrow());
        assertSame(B, routes.find("/metrics/deep/y/z").orElseThrow());
        assertFalse(routes.find("/metricsx").isPresent());
        assertFalse(routes.find("/").isPresent());
        assertFalse(routes.find("/axis2/services/Echo").isPresent());
        routes.unregister("/metrics/deep");
        assertSame(A, routes.find("/metrics/deep/y").orElseThrow());
    }

    @Test
    public void refusesPrefixesThatShadowServicesOrAreNotPaths() {
        HttpRoutes routes = new HttpRoutes("/axis2/services/");
        for (String bad : new String[] {"/", "/axis2", "/axis2/services", "/axis2/services/Echo", "metrics",
                "/metrics?x", ""}) {
            try {
                routes.register(bad, A);
                fail("registered " + bad);
            } catch (IllegalArgumentException expected) {
                // refused
            }
        }
        routes.register("/axis2x", A);
        assertSame(A, routes.find("/axis2x").orElseThrow());
    }

    @Test
    public void aTakenPrefixIsNotReplaced() {
        HttpRoutes routes = new HttpRoutes("axis2/services");
        routes.register("/metrics", A);
        try {
            routes.register("/metrics/", B);
            fail("replaced a route");
        } catch (IllegalStateException expected) {
            assertEquals("route /metrics is registered already", expected.getMessage());
        }
        assertSame(A, routes.find("/metrics").orElseThrow());
    }
}
