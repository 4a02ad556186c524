package org.bftws.module.http;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.axis2.context.ConfigurationContext;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * The GET paths an Axis2 instance serves beside its services: path prefix to {@link HttpRoute}, one registry
 * per ConfigurationContext (so each replica of a group in one JVM has its own). Code registers routes, typically
 * in a module's {@code init}; {@link RoutingHttpServer} looks them up on each GET, so routes registered after the
 * server started are served too. Remote parties only look up: the map's size is what this process registers.
 *
 * <p>A prefix matches the path equal to it and the paths below it ({@code /metrics} matches {@code /metrics}
 * and {@code /metrics/x}, not {@code /metricsx}); the longest matching prefix wins. Prefixes under the
 * instance's service path ({@code /axis2/services}) are refused: a route must never shadow a service.
 */
public final class HttpRoutes {
    private static final Logger LOG = LogManager.getLogger(HttpRoutes.class);

    /** ConfigurationContext property holding an instance's registry. */
    static final String PROPERTY = "org.bftws.module.http.routes";

    private final Map<String, HttpRoute> routes = new ConcurrentHashMap<>();
    private final String servicePath;

    HttpRoutes(String servicePath) {
        this.servicePath = "/" + trimSlashes(servicePath);
    }

    /** The registry of {@code context}, created on first use. */
    public static HttpRoutes of(ConfigurationContext context) {
        synchronized (context) {
            Object existing = context.getProperty(PROPERTY);
            if (existing instanceof HttpRoutes routes) {
                return routes;
            }
            HttpRoutes routes = new HttpRoutes(context.getServiceContextPath());
            context.setProperty(PROPERTY, routes);
            return routes;
        }
    }

    /**
     * Serves GETs of {@code prefix} (and below) with {@code route}.
     *
     * @throws IllegalArgumentException if the prefix is not an absolute path without query, or lies under the
     *                                  service path
     * @throws IllegalStateException    if the prefix is taken already
     */
    public void register(String prefix, HttpRoute route) {
        String p = normalised(prefix);
        if (p.equals(servicePath) || p.startsWith(servicePath + "/") || servicePath.startsWith(p + "/")
                || p.equals("/")) {
            throw new IllegalArgumentException("route " + prefix + " would shadow the services under " + servicePath);
        }
        if (routes.putIfAbsent(p, route) != null) {
            throw new IllegalStateException("route " + p + " is registered already");
        }
    }

    /** Stops serving {@code prefix}; nothing if it was not registered. */
    public void unregister(String prefix) {
        routes.remove(normalised(prefix));
    }

    /** The route of the longest registered prefix that matches {@code path} (no query), if any. */
    public Optional<HttpRoute> find(String path) {
        for (String p = stripTrailingSlash(path); !p.isEmpty(); p = p.substring(0, Math.max(0, p.lastIndexOf('/')))) {
            HttpRoute route = routes.get(p);
            if (route != null) {
                return Optional.of(route);
            }
        }
        return Optional.empty();
    }

    /**
     * The answer to {@code GET path?query} (query "" when there is none) if a route matches {@code path}; a route
     * that throws answers 500, logged without its details reaching the caller.
     */
    public Optional<RouteResponse> answer(String path, String query) {
        return find(path).map(route -> {
            try {
                return route.get(path, query);
            } catch (RuntimeException e) {
                LOG.warn("GET {} failed: {}", path, e.toString());
                return RouteResponse.text(500, "internal error");
            }
        });
    }

    private static String normalised(String prefix) {
        if (prefix == null || !prefix.startsWith("/") || prefix.contains("?") || prefix.contains("#")) {
            throw new IllegalArgumentException("a route prefix is an absolute path without query: " + prefix);
        }
        return prefix.equals("/") ? prefix : stripTrailingSlash(prefix);
    }

    private static String stripTrailingSlash(String path) {
        String p = path;
        while (p.length() > 1 && p.endsWith("/")) {
            p = p.substring(0, p.length() - 1);
        }
        return p;
    }

    private static String trimSlashes(String path) {
        String p = path == null ? "" : path;
        while (p.startsWith("/")) {
            p = p.substring(1);
        }
        while (p.endsWith("/")) {
            p = p.substring(0, p.length() - 1);
        }
        return p;
    }
}
