package org.bftws.module.http;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.fail;

import java.util.Map;

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

    @Test
    public void aPublicRoutesAnswersErrorsIncludedAllowAnyOriginAndOthersDoNot() {
        HttpRoutes routes = new HttpRoutes("axis2/services");
        routes.registerPublic("/beacon", (path, query) -> path.endsWith("/info") ? RouteResponse.ok(RouteResponse.TEXT, "i")
                : path.endsWith("/broken") ? failing() : RouteResponse.text(404, "no such path"));
        routes.register("/metrics", A);
        for (String path : new String[] {"/beacon/info", "/beacon/nothing", "/beacon/broken"}) {
            assertEquals(path, "*", routes.answer(path, "").orElseThrow().headers().get("Access-Control-Allow-Origin"));
        }
        assertEquals(404, routes.answer("/beacon/nothing", "").orElseThrow().status());
        assertEquals(500, routes.answer("/beacon/broken", "").orElseThrow().status());
        assertEquals(Map.of(), routes.answer("/metrics", "").orElseThrow().headers());
        assertFalse(routes.answer("/other", "").isPresent());
    }

    @Test
    public void aPreflightOfAPublicRouteIsAllowedGetAndItsHeadersOthersOnlyLearnTheMethods() {
        HttpRoutes routes = new HttpRoutes("axis2/services");
        routes.registerPublic("/beacon", A);
        routes.register("/metrics", A);
        RouteResponse pre = routes.preflight("/beacon/public/latest", "Content-Type, X-Requested-With").orElseThrow();
        assertEquals(200, pre.status());
        assertEquals(0, pre.body().length);
        assertEquals("*", pre.headers().get("Access-Control-Allow-Origin"));
        assertEquals("GET, OPTIONS", pre.headers().get("Access-Control-Allow-Methods"));
        assertEquals("Content-Type, X-Requested-With", pre.headers().get("Access-Control-Allow-Headers"));
        assertEquals("86400", pre.headers().get("Access-Control-Max-Age"));
        assertEquals("GET, OPTIONS", pre.headers().get("Allow"));
        // requested headers that are no list of header names are not echoed
        assertNull(routes.preflight("/beacon/info", "x\r\nSet-Cookie: a=b").orElseThrow().headers()
                .get("Access-Control-Allow-Headers"));
        assertNull(routes.preflight("/beacon/info", null).orElseThrow().headers().get("Access-Control-Allow-Headers"));
        RouteResponse metrics = routes.preflight("/metrics", "Content-Type").orElseThrow();
        assertEquals(200, metrics.status());
        assertEquals(Map.of("Allow", "GET, OPTIONS"), metrics.headers());
        assertFalse(routes.preflight("/other", null).isPresent());
    }

    private static RouteResponse failing() {
        throw new IllegalStateException("route failed");
    }
}
