package org.bftws.module.http;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Optional;

import org.apache.axis2.context.MessageContext;
import org.apache.axis2.transport.http.HTTPWorker;
import org.apache.axis2.transport.http.server.AxisHttpRequest;
import org.apache.axis2.transport.http.server.AxisHttpResponse;
import org.apache.axis2.transport.http.server.Worker;
import org.apache.http.Header;
import org.apache.http.HttpException;

/**
 * One request on SimpleHTTPServer's connection: a GET whose path a registered {@link HttpRoute} matches is
 * answered by that route, an OPTIONS of such a path by {@link HttpRoutes#preflight}; every other request goes
 * to Axis2's own {@link HTTPWorker}, unchanged.
 */
final class RoutingWorker implements Worker {
    private final Worker axis2 = new HTTPWorker();

    @Override
    public void service(AxisHttpRequest request, AxisHttpResponse response, MessageContext msgContext)
            throws HttpException, IOException {
        String method = request.getMethod();
        if ("GET".equals(method) || "OPTIONS".equals(method)) {
            String uri = request.getRequestURI();
            int q = uri.indexOf('?');
            String path = q < 0 ? uri : uri.substring(0, q);
            HttpRoutes routes = HttpRoutes.of(msgContext.getConfigurationContext());
            Optional<RouteResponse> answer;
            if ("GET".equals(method)) {
                answer = routes.answer(path, q < 0 ? "" : uri.substring(q + 1));
            } else {
                Header requested = request.getFirstHeader("Access-Control-Request-Headers");
                answer = routes.preflight(path, requested == null ? null : requested.getValue());
            }
            if (answer.isPresent()) {
                write(response, answer.get());
                return;
            }
        }
        axis2.service(request, response, msgContext);
    }

    private static void write(AxisHttpResponse response, RouteResponse answer) throws IOException {
        response.setStatus(answer.status());
        answer.headers().forEach(response::setHeader);
        if (answer.body().length > 0) {
            response.setContentType(answer.contentType());
        }
        try (OutputStream out = response.getOutputStream()) {
            out.write(answer.body());
        }
    }
}
