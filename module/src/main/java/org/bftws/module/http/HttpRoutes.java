package org.bftws.module.http;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

import org.apache.axis2.context.ConfigurationContext;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * The GET paths an Axis2 instance serves beside its services: path prefix to {@link HttpRoute}, and the POST
 * paths it reads without Axis2's handler chain ({@link DirectPost}) or refuses, unread, from some senders
 * ({@link PostRefusal}); one registry
 * per ConfigurationContext (so each replica of a group in one JVM has its own). Code registers routes, typically
 * in a module's {@code init}; {@link RoutingHttpServer} looks them up on each GET, so routes registered after the
 * server started are served too. Remote parties only look up: the map's size is what this process registers.
 *
 * <p>A prefix matches the path equal to it and the paths below it ({@code /metrics} matches {@code /metrics}
 * and {@code /metrics/x}, not {@code /metricsx}); the longest matching prefix wins. Prefixes under the
 * instance's service path ({@code /axis2/services}) are refused: a route must never shadow a service.
 *
 * <p>A route registered as {@linkplain #registerPublic public} may be read by web pages of any origin: its answers
 * carry {@code Access-Control-Allow-Origin: *} (CORS, as drand's public HTTP relays answer), and a CORS preflight
 * ({@code OPTIONS}) of its paths is allowed GET. Other routes answer OPTIONS with their {@code Allow} only, so a
 * browser keeps other origins' pages from reading them.
 */
public final class HttpRoutes {
    private static final Logger LOG = LogManager.getLogger(HttpRoutes.class);

    /** ConfigurationContext property holding an instance's registry. */
    static final String PROPERTY = "org.bftws.module.http.routes";

    /** What a CORS preflight of a public route is allowed: GET, without credentials, cached for a day. */
    static final Map<String, String> PUBLIC_PREFLIGHT = Map.of("Access-Control-Allow-Origin", "*",
            "Access-Control-Allow-Methods", "GET, OPTIONS", "Access-Control-Max-Age", "86400");
    private static final Map<String, String> PUBLIC = Map.of("Access-Control-Allow-Origin", "*");
    private static final Map<String, String> ALLOW = Map.of("Allow", "GET, OPTIONS");
    /** A preflight's requested headers that are echoed as allowed: a short comma-separated list of names. */
    private static final Pattern HEADER_NAMES =
            Pattern.compile("[A-Za-z0-9-]{1,64}(\\s*,\\s*[A-Za-z0-9-]{1,64}){0,15}");

    private record Registered(HttpRoute route, boolean crossOrigin) {
    }

    private final Map<String, Registered> routes = new ConcurrentHashMap<>();
    /** POST receivers by exact path ({@link DirectPost}). */
    private final Map<String, DirectPost> posts = new ConcurrentHashMap<>();
    /** Refusals of POSTs by path, for that path and the paths below it ({@link PostRefusal}). */
    private final Map<String, PostRefusal> refusals = new ConcurrentHashMap<>();
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

    /** The registry of {@code context} if one was created, else null: the request path only reads. */
    static HttpRoutes existing(ConfigurationContext context) {
        return context.getProperty(PROPERTY) instanceof HttpRoutes routes ? routes : null;
    }

    /** The path under which {@code context} serves {@code service}, e.g. {@code /axis2/services/Echo}. */
    public static String servicePath(ConfigurationContext context, String service) {
        String base = trimSlashes(context.getServiceContextPath());
        return "/" + (base.isEmpty() ? "" : base + "/") + service;
    }

    /**
     * POSTs to {@code path} (exactly, without query) are offered to {@code post} first ({@link DirectPost}).
     *
     * @throws IllegalStateException if a receiver is registered at {@code path} already
     */
    public void registerPost(String path, DirectPost post) {
        if (posts.putIfAbsent(path, post) != null) {
            throw new IllegalStateException("a direct POST receiver is registered at " + path + " already");
        }
    }

    /** Stops offering POSTs to {@code path}; nothing if none was registered. */
    public void unregisterPost(String path) {
        posts.remove(path);
    }

    /** The POST receiver of {@code path}, or null. */
    DirectPost findPost(String path) {
        return posts.get(path);
    }

    /**
     * POSTs to {@code path} or below it (with or without a query) whose connection {@code refusal} refuses are
     * answered unread ({@link PostRefusal}); every other POST is served as before.
     *
     * @throws IllegalStateException if a refusal is registered at {@code path} already
     */
    public void refusePosts(String path, PostRefusal refusal) {
        if (refusals.putIfAbsent(normalised(path), refusal) != null) {
            throw new IllegalStateException("a refusal of POSTs is registered at " + path + " already");
        }
    }

    /** Stops refusing POSTs to {@code path}; nothing if no refusal was registered. */
    public void unrefusePosts(String path) {
        refusals.remove(normalised(path));
    }

    /**
     * Whether a POST to {@code path} (no query) from {@code remoteAddress} is refused: by the refusal registered
     * at the path or at the nearest path above it. Axis2 dispatches {@code /services/S/anything} to service S, so
     * the paths below a refused one are refused too.
     */
    boolean refusesPost(String path, String remoteAddress) {
        if (refusals.isEmpty()) {
            return false;
        }
        PostRefusal r = nearest(refusals, path);
        return r != null && r.refuses(remoteAddress);
    }

    /**
     * Serves GETs of {@code prefix} (and below) with {@code route}.
     *
     * @throws IllegalArgumentException if the prefix is not an absolute path without query, or lies under the
     *                                  service path
     * @throws IllegalStateException    if the prefix is taken already
     */
    public void register(String prefix, HttpRoute route) {
        add(prefix, route, false);
    }

    /**
     * Serves GETs of {@code prefix} (and below) with {@code route} to any origin: public data that web pages
     * elsewhere may read (CORS {@code Access-Control-Allow-Origin: *}). Same checks as {@link #register}.
     */
    public void registerPublic(String prefix, HttpRoute route) {
        add(prefix, route, true);
    }

    private void add(String prefix, HttpRoute route, boolean crossOrigin) {
        String p = normalised(prefix);
        if (p.equals(servicePath) || p.startsWith(servicePath + "/") || servicePath.startsWith(p + "/")
                || p.equals("/")) {
            throw new IllegalArgumentException("route " + prefix + " would shadow the services under " + servicePath);
        }
        if (routes.putIfAbsent(p, new Registered(route, crossOrigin)) != null) {
            throw new IllegalStateException("route " + p + " is registered already");
        }
    }

    /** Stops serving {@code prefix}; nothing if it was not registered. */
    public void unregister(String prefix) {
        routes.remove(normalised(prefix));
    }

    /** The route of the longest registered prefix that matches {@code path} (no query), if any. */
    public Optional<HttpRoute> find(String path) {
        return registered(path).map(Registered::route);
    }

    private Optional<Registered> registered(String path) {
        return Optional.ofNullable(nearest(routes, path));
    }

    /** The value of the longest key of {@code byPath} that is {@code path} or a path above it, or null. */
    private static <V> V nearest(Map<String, V> byPath, String path) {
        for (String p = stripTrailingSlash(path); !p.isEmpty(); p = p.substring(0, Math.max(0, p.lastIndexOf('/')))) {
            V v = byPath.get(p);
            if (v != null) {
                return v;
            }
        }
        return null;
    }

    /**
     * The answer to {@code GET path?query} (query "" when there is none) if a route matches {@code path}; a route
     * that throws answers 500, logged without its details reaching the caller. A public route's answers, errors
     * included, carry {@code Access-Control-Allow-Origin: *}.
     */
    public Optional<RouteResponse> answer(String path, String query) {
        return registered(path).map(r -> {
            RouteResponse answer;
            try {
                answer = r.route().get(path, query);
            } catch (RuntimeException e) {
                LOG.warn("GET {} failed: {}", path, e.toString());
                answer = RouteResponse.text(500, "internal error");
            }
            return r.crossOrigin() ? answer.withHeaders(PUBLIC) : answer;
        });
    }

    /**
     * The answer to {@code OPTIONS path} if a route matches {@code path}: 200, empty (not 204: Axis2's response
     * writer sends a Content-Length, which a 204 must not carry), with {@code Allow: GET, OPTIONS};
     * for a public route also the CORS preflight's answer (any origin, GET, the requested headers when
     * {@code requestedHeaders} is a short list of header names, cached for a day).
     *
     * @param requestedHeaders the preflight's {@code Access-Control-Request-Headers}, or null
     */
    public Optional<RouteResponse> preflight(String path, String requestedHeaders) {
        return registered(path).map(r -> {
            RouteResponse answer = new RouteResponse(200, RouteResponse.TEXT, new byte[0], ALLOW);
            if (!r.crossOrigin()) {
                return answer;
            }
            answer = answer.withHeaders(PUBLIC_PREFLIGHT);
            return requestedHeaders != null && HEADER_NAMES.matcher(requestedHeaders.trim()).matches()
                    ? answer.withHeaders(Map.of("Access-Control-Allow-Headers", requestedHeaders.trim())) : answer;
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
