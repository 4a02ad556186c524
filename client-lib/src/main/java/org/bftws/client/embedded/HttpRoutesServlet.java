package org.bftws.client.embedded;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Optional;
import java.util.function.Supplier;

import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

import org.apache.axis2.context.ConfigurationContext;
import org.bftws.module.http.HttpRoutes;
import org.bftws.module.http.RouteResponse;

/**
 * The servlet container's counterpart of {@link org.bftws.module.http.RoutingHttpServer}: mapped in the root
 * context, it answers GETs of the paths registered in the Axis2 web application's {@link HttpRoutes} (such as
 * {@code /metrics}) on the container's port, and 404 for any other path outside the application. It finds the
 * registry through the application's Axis2 context, so it serves nothing (404) while that context is not there
 * or belongs to another class loader (an installed application, {@link TomcatAxis2Server#startInstalled}).
 */
final class HttpRoutesServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;

    private final transient Supplier<ConfigurationContext> axis2;

    HttpRoutesServlet(Supplier<ConfigurationContext> axis2) {
        this.axis2 = axis2;
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        ConfigurationContext context = axis2.get();
        String query = request.getQueryString();
        Optional<RouteResponse> answer = context == null ? Optional.empty()
                : HttpRoutes.of(context).answer(request.getRequestURI(), query == null ? "" : query);
        if (answer.isEmpty()) {
            response.sendError(HttpServletResponse.SC_NOT_FOUND);
            return;
        }
        byte[] body = answer.get().body();
        response.setStatus(answer.get().status());
        response.setContentType(answer.get().contentType());
        response.setContentLength(body.length);
        try (OutputStream out = response.getOutputStream()) {
            out.write(body);
        }
    }
}
