package org.bftws.module.transport;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import org.apache.http.HttpEntity;
import org.apache.http.client.config.RequestConfig;
import org.apache.http.client.methods.CloseableHttpResponse;
import org.apache.http.client.methods.HttpPost;
import org.apache.http.entity.ByteArrayEntity;
import org.apache.http.impl.client.CloseableHttpClient;
import org.apache.http.impl.client.HttpClients;
import org.apache.http.impl.conn.PoolingHttpClientConnectionManager;

/**
 * One control message as one SOAP one-way HTTP POST, and what its answer means for the Multicast Sender's
 * acknowledgement (BFT-WS paper §3.3.1.2). Apache HttpClient 4, which Axis2's own HTTP sender uses (no new
 * dependency): on 4 loopback replicas it gave 8.5-10 ms per ordered request against 13 ms with
 * java.net.http, which also cannot be closed on Java 17. Kept-alive connections, up to a window's worth per
 * destination; no automatic retries (the sender retransmits itself, with backoff).
 */
final class HttpPoster implements AutoCloseable {
    /** How a destination answered a POST. */
    enum Outcome {
        /** HTTP 2xx: received (a one-way message is answered 202). */
        ACKNOWLEDGED,
        /** A SOAP fault or a 4xx: the destination received the message and refused it; sending it again won't help. */
        REFUSED,
        /** No answer (connection, timeout) or a 5xx without a SOAP fault: retransmit. */
        FAILED
    }

    /** Bytes of an error response read to tell a SOAP fault from a broken server; faults here are short. */
    private static final int FAULT_PEEK_BYTES = 8192;

    private final CloseableHttpClient http;
    private final PoolingHttpClientConnectionManager connections;
    private final SenderCounters counters;

    /** @param connections connections at most (all destinations); {@code perDestination} at most to one */
    HttpPoster(int connections, int perDestination, int timeoutMillis, SenderCounters counters) {
        this.counters = counters;
        RequestConfig rc = RequestConfig.custom().setConnectTimeout(timeoutMillis).setSocketTimeout(timeoutMillis)
                .setConnectionRequestTimeout(timeoutMillis).build();
        this.connections = new PoolingHttpClientConnectionManager();
        this.connections.setMaxTotal(connections);
        this.connections.setDefaultMaxPerRoute(perDestination);
        this.http = HttpClients.custom().setDefaultRequestConfig(rc).disableAutomaticRetries()
                .disableCookieManagement().disableRedirectHandling().setConnectionManager(this.connections).build();
    }

    /** Closes kept-alive connections unused for {@code millis} (those to destinations dropped as idle). */
    void closeIdle(long millis) {
        connections.closeExpiredConnections();
        connections.closeIdleConnections(millis, TimeUnit.MILLISECONDS);
    }

    Outcome post(URI to, OutboundSoap m) {
        HttpPost post = new HttpPost(to);
        if (m.soap12()) {
            post.setHeader("Content-Type", "application/soap+xml; charset=UTF-8; action=\"" + m.soapAction() + "\"");
        } else {
            post.setHeader("Content-Type", "text/xml; charset=UTF-8");
            post.setHeader("SOAPAction", "\"" + m.soapAction() + "\"");
        }
        byte[] envelope;
        try {
            envelope = m.envelope();
        } catch (RuntimeException e) {
            return Outcome.REFUSED; // an envelope that cannot be built will not be built on a retry either
        }
        post.setEntity(new ByteArrayEntity(envelope));
        counters.posts.incrementAndGet();
        counters.postedBytes.addAndGet(envelope.length);
        try (CloseableHttpResponse rsp = http.execute(post)) {
            int status = rsp.getStatusLine().getStatusCode();
            String head = peek(post, rsp.getEntity()); // read (and so free) the connection before classifying
            if (status / 100 == 2) {
                return Outcome.ACKNOWLEDGED;
            }
            return status / 100 == 5 && !isSoapFault(head) ? Outcome.FAILED : Outcome.REFUSED;
        } catch (IOException | RuntimeException e) {
            return Outcome.FAILED;
        }
    }

    /** A SOAP 1.1 or 1.2 fault, whatever the prefixes: an Envelope whose Body holds a Fault. */
    static boolean isSoapFault(String body) {
        return body.contains("Envelope") && body.contains("Fault");
    }

    /**
     * The start of the response body. A one-way answer is empty and a fault short, so both are read to their end
     * and the kept-alive connection is reused; anything longer is cut off with its connection (closing the
     * response unread), so a peer streaming an endless body holds the thread no longer than one read.
     */
    private static String peek(HttpPost post, HttpEntity entity) throws IOException {
        if (entity == null) {
            return "";
        }
        InputStream in = entity.getContent();
        byte[] head = in.readNBytes(FAULT_PEEK_BYTES);
        if (head.length < FAULT_PEEK_BYTES) {
            in.close(); // at its end: hands the connection back for reuse
        } else {
            post.abort(); // closing the stream would read the rest first
        }
        return new String(head, StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws IOException {
        http.close(); // also unblocks a thread waiting on a slow peer
    }
}
