package org.bftws.module.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

import org.apache.axis2.builder.BuilderUtil;
import org.apache.axis2.context.MessageContext;
import org.apache.axis2.transport.http.HTTPWorker;
import org.apache.axis2.transport.http.server.AxisHttpRequest;
import org.apache.axis2.transport.http.server.AxisHttpResponse;
import org.apache.axis2.transport.http.server.Worker;
import org.apache.http.Header;
import org.apache.http.HttpException;
import org.apache.http.HttpStatus;

/**
 * One request on SimpleHTTPServer's connection: a GET whose path a registered {@link HttpRoute} matches is
 * answered by that route, an OPTIONS of such a path by {@link HttpRoutes#preflight}; a POST to a path with a
 * {@link DirectPost} is offered to it first ({@link HttpRoutes#registerPost}), unless the path refuses the
 * connection's peer: that POST is answered 503 unread ({@link PostRefusal}); every other request, and a POST the receiver
 * declined, goes to Axis2's own {@link HTTPWorker}, unchanged, unless its Content-Type names a charset this JVM
 * lacks: that one is refused here with a SOAP fault Axis2 could not write.
 */
final class RoutingWorker implements Worker {
    private static final byte[] UNSUPPORTED_CHARSET = ("<soapenv:Envelope xmlns:soapenv="
            + "\"http://schemas.xmlsoap.org/soap/envelope/\"><soapenv:Body><soapenv:Fault><faultcode>soapenv:Client"
            + "</faultcode><faultstring>the charset of the request's Content-Type is not supported</faultstring>"
            + "</soapenv:Fault></soapenv:Body></soapenv:Envelope>").getBytes(StandardCharsets.UTF_8);
    /**
     * The answer to a refused POST ({@link PostRefusal}): its body is not read. A status of 400 and above makes the
     * connection say {@code Connection: close} and skip draining the body ({@code BoundedDrainConnection}).
     */
    private static final RouteResponse REFUSED = RouteResponse.text(HttpStatus.SC_SERVICE_UNAVAILABLE,
            "refused: this sender is not heard for now");
    private final Worker axis2 = new HTTPWorker();

    @Override
    public void service(AxisHttpRequest request, AxisHttpResponse response, MessageContext msgContext)
            throws HttpException, IOException {
        String method = request.getMethod();
        if ("GET".equals(method) || "OPTIONS".equals(method)) {
            String uri = request.getRequestURI();
            int q = uri.indexOf('?');
            String path = q < 0 ? uri : uri.substring(0, q);
            HttpRoutes routes = HttpRoutes.existing(msgContext.getConfigurationContext());
            Optional<RouteResponse> answer;
            if (routes == null) {
                answer = Optional.empty();
            } else if ("GET".equals(method)) {
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
        if ("POST".equals(method) && refused(request, msgContext)) {
            write(response, REFUSED);
            return;
        }
        if ("POST".equals(method) && direct(request, response, msgContext)) {
            return;
        }
        if (!charsetSupported(request.getContentType())) {
            refuseCharset(response);
            return;
        }
        axis2.service(request, response, msgContext);
    }

    /**
     * Whether the charset the request's Content-Type names (as Axis2 reads it, UTF-8 if none) is one this JVM
     * has. Axis2 writes its answer, a fault included, in the request's charset: with one it cannot encode, it
     * failed while writing the fault and closed the connection without any answer.
     */
    static boolean charsetSupported(String contentType) {
        if (contentType == null) {
            return true;
        }
        try {
            return Charset.isSupported(BuilderUtil.getCharSetEncoding(contentType));
        } catch (IllegalArgumentException illegalName) {
            return false;
        }
    }

    /** 415 with a SOAP 1.1 Client fault in UTF-8: the request cannot be read, nor answered in its charset. */
    private static void refuseCharset(AxisHttpResponse response) throws IOException {
        response.setStatus(HttpStatus.SC_UNSUPPORTED_MEDIA_TYPE);
        response.setContentType("text/xml; charset=utf-8");
        try (OutputStream out = response.getOutputStream()) {
            out.write(UNSUPPORTED_CHARSET);
        }
    }

    /** Whether the POST's path (or one above it) refuses its connection's peer: it is answered unread. */
    private static boolean refused(AxisHttpRequest request, MessageContext msgContext) {
        HttpRoutes routes = HttpRoutes.existing(msgContext.getConfigurationContext());
        if (routes == null) {
            return false;
        }
        String uri = request.getRequestURI();
        int q = uri.indexOf('?');
        return routes.refusesPost(q < 0 ? uri : uri.substring(0, q),
                (String) msgContext.getProperty(MessageContext.REMOTE_ADDR));
    }

    /**
     * Offers a POST's body to the path's {@link DirectPost}: true if it took it (answered 202 here). Otherwise
     * what was read is put back for Axis2. A body declared longer than the receiver's limit is not read here.
     */
    private static boolean direct(AxisHttpRequest request, AxisHttpResponse response, MessageContext msgContext)
            throws IOException {
        String uri = request.getRequestURI();
        if (uri.indexOf('?') >= 0) {
            return false;
        }
        HttpRoutes routes = HttpRoutes.existing(msgContext.getConfigurationContext());
        DirectPost post = routes == null ? null : routes.findPost(uri);
        if (post == null) {
            return false;
        }
        InputStream in = request.getInputStream();
        if (!(in instanceof ReplayableBody body) || declared(request) > post.maxBodyBytes()) {
            return false;
        }
        byte[] head = in.readNBytes(post.maxBodyBytes() + 1);
        if (head.length <= post.maxBodyBytes() && post.accept(head, request.getContentType(),
                (String) msgContext.getProperty(MessageContext.REMOTE_ADDR))) {
            response.setStatus(HttpStatus.SC_ACCEPTED);
            return true;
        }
        body.unread(head);
        return false;
    }

    /** The declared Content-Length, 0 if none (chunked) or unreadable: the read above is bounded anyway. */
    private static long declared(AxisHttpRequest request) {
        Header h = request.getFirstHeader("Content-Length");
        try {
            return h == null ? 0 : Long.parseLong(h.getValue().trim());
        } catch (NumberFormatException e) {
            return 0;
        }
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
