package org.bftws.module.http;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/** An {@link HttpRoute}'s answer: the HTTP status, the Content-Type, the body and any further headers. */
public record RouteResponse(int status, String contentType, byte[] body, Map<String, String> headers) {
    /** Plain text in UTF-8. */
    public static final String TEXT = "text/plain; charset=utf-8";

    public RouteResponse {
        if (status < 100 || status > 599) {
            throw new IllegalArgumentException("HTTP status " + status);
        }
        Objects.requireNonNull(contentType, "contentType");
        body = Objects.requireNonNull(body, "body").clone();
        headers = Map.copyOf(headers);
    }

    /** No further headers. */
    public RouteResponse(int status, String contentType, byte[] body) {
        this(status, contentType, body, Map.of());
    }

    /** 200 with {@code text} in UTF-8 as {@code contentType}. */
    public static RouteResponse ok(String contentType, String text) {
        return new RouteResponse(200, contentType, text.getBytes(StandardCharsets.UTF_8));
    }

    /** {@code status} with a one-line plain-text reason. */
    public static RouteResponse text(int status, String reason) {
        return new RouteResponse(status, TEXT, (reason + "\n").getBytes(StandardCharsets.UTF_8));
    }

    /** This answer with {@code more} headers added (a name given again replaces the earlier value). */
    public RouteResponse withHeaders(Map<String, String> more) {
        Map<String, String> all = new LinkedHashMap<>(headers);
        all.putAll(more);
        return new RouteResponse(status, contentType, body, all);
    }

    @Override
    public byte[] body() {
        return body.clone();
    }
}
