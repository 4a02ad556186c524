package org.bftws.samples.beacon;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

/**
 * The other replicas' partials over their HTTP ports: GET {@code BASE/beacon/partial/{round}}, BASE the scheme,
 * host and port of the replica's endpoint in {@code bftws.replicas}. A reply larger than 4 KiB, slower than
 * the timeout or not 200 counts as no partial.
 */
final class HttpPeers implements Beacon.Peers {
    private static final int MAX_BODY = 4096;
    private final List<URI> bases;
    private final Duration timeout;
    private final HttpClient http;

    /** {@code bases.get(i - 1)}: the base URL of the replica of key index i. */
    HttpPeers(List<URI> bases, Duration timeout) {
        this.bases = List.copyOf(bases);
        this.timeout = timeout;
        this.http = HttpClient.newBuilder().connectTimeout(timeout).build();
    }

    /** The base URL (scheme, host, port) of an endpoint. */
    static URI base(URI endpoint) {
        return URI.create(endpoint.getScheme() + "://" + endpoint.getRawAuthority());
    }

    @Override
    public String partial(int index, long round) {
        HttpRequest get = HttpRequest.newBuilder(bases.get(index - 1).resolve("/beacon/partial/" + round))
                .timeout(timeout).GET().build();
        try {
            HttpResponse<InputStream> r = http.send(get, HttpResponse.BodyHandlers.ofInputStream());
            try (InputStream in = r.body()) {
                byte[] body = in.readNBytes(MAX_BODY + 1);
                return r.statusCode() == 200 && body.length <= MAX_BODY ? new String(body, StandardCharsets.UTF_8) : null;
            }
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
