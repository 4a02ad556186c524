package org.bftws.module.http;

/**
 * What answers a GET for one path prefix on a replica's HTTP port, beside Axis2's services (registered in
 * {@link HttpRoutes}). Called on an HTTP worker thread, possibly by several at once: it must be thread-safe,
 * quick, and must not block on the ordering thread.
 */
@FunctionalInterface
public interface HttpRoute {
    /**
     * The answer to {@code GET path?query}.
     *
     * @param path  the request's path, starting with the route's prefix
     * @param query the query string after '?', or "" when there is none
     */
    RouteResponse get(String path, String query);
}
