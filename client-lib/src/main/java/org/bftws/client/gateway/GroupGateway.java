package org.bftws.client.gateway;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import javax.xml.stream.XMLStreamException;

import org.apache.axiom.om.OMElement;
import org.apache.axis2.AxisFault;
import org.apache.axis2.client.ServiceClient;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.bftws.client.GroupClients;
import org.bftws.client.gateway.SoapMessages.BadRequest;
import org.bftws.module.Threads;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * A voting gateway for SOAP clients that are not BFT-WS clients (.NET, CXF, zeep, gSOAP, ...): it runs on the
 * client's side of the trust boundary and accepts plain SOAP 1.1 and 1.2 over HTTP at
 * {@code http://HOST:PORT/axis2/services/NAME} for every service of the group, the same paths and actions as the
 * group's WSDL; it sends each request to the group as a BFT-WS client (a WS-RM sequence of its own from a bounded
 * pool, the Multicast Sender, the Voter: BFT-WS paper §3.3.1) and answers with the reply f+1 replicas agreed on,
 * or with a SOAP fault that says why there is none (no f+1 matching replies in time, the group's refusal, the
 * gateway busy). {@code GET .../NAME?wsdl} serves the WSDL f+1 replicas serve alike, with the gateway's own
 * address, so a client generated from it calls the group through the gateway without knowing there is a group.
 *
 * <p>Operations the WSDL declares randomized get their collective random number as for any group client;
 * confidential ones are sealed by the gateway under the group's TDH2 key: their plaintext is visible to the
 * caller and the gateway, on the client's side, and to the replicas only once the order is fixed (SINTRA §2.6).
 *
 * <p>Bounded: at most {@code sequences} calls are with the group at once (each on its own sequence); a request
 * that finds none free within {@code waitMillis} gets a fault saying the gateway is busy (HTTP 503); the HTTP
 * worker threads and their queue are bounded too (when full, the accepting thread runs the request itself, so
 * it stops accepting: back pressure on the callers' connections); request bodies are bounded. {@code GET /metrics}
 * serves the gateway's own counters in Prometheus's text format ({@link GatewayMetrics}).
 */
public final class GroupGateway implements AutoCloseable {
    private static final Logger LOG = LogManager.getLogger(GroupGateway.class);
    /** Where the services are, as on the replicas. */
    public static final String SERVICES_PATH = "/axis2/services/";

    /**
     * @param host              the address to bind (127.0.0.1 keeps the gateway to this host)
     * @param port              0: the operating system picks
     * @param sequences         the pool: calls with the group at once, each on its own WS-RM sequence
     * @param waitMillis        how long a request waits for a free sequence before it is refused as busy
     * @param callTimeoutMillis how long a call waits for f+1 matching replies
     * @param maxRequestBytes   the largest request body accepted
     */
    public record Settings(String host, int port, int sequences, long waitMillis, long callTimeoutMillis,
            int maxRequestBytes) {
        public static Settings defaults(int port) {
            return new Settings("127.0.0.1", port, 64, 2_000, 20_000, 1 << 20);
        }
    }

    static {
        // The JDK's HTTP server leaves Nagle's algorithm on unless told: a small reply then waits for the caller's
        // delayed ACK (tens of milliseconds per call on loopback). Read once, when its first server starts.
        if (System.getProperty("sun.net.httpserver.nodelay") == null) {
            System.setProperty("sun.net.httpserver.nodelay", "true");
        }
    }

    private final Map<String, GatewayService> services;
    private final SequencePool pool;
    private final GatewayMetrics metrics;
    private final Settings settings;
    private final HttpServer http;
    private final ThreadPoolExecutor workers;

    private GroupGateway(Map<String, GatewayService> services, SequencePool pool, Settings settings) throws IOException {
        this.services = services;
        this.pool = pool;
        this.settings = settings;
        this.metrics = new GatewayMetrics(services.keySet(), pool);
        int threads = settings.sequences() + 4;
        this.workers = new ThreadPoolExecutor(threads, threads, 60, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(2 * settings.sequences()), r -> {
                    Thread t = new Thread(r, "bftws-gateway");
                    t.setDaemon(true);
                    return t;
                }, new ThreadPoolExecutor.CallerRunsPolicy());
        this.http = HttpServer.create(new InetSocketAddress(settings.host(), settings.port()), 64);
        http.createContext("/", this::handle);
        http.setExecutor(workers);
    }

    /**
     * Starts a gateway for {@code serviceNames}, whose WSDL it takes from f+1 of {@code replicaServices} (each
     * replica's {@code http://host:port/axis2/services/}); it calls the group through {@code clientContext}, an
     * Axis2 instance configured as a client of the group (bftws, its keys, listening for replies).
     */
    public static GroupGateway start(ConfigurationContext clientContext, List<URI> replicaServices, int f,
            List<String> serviceNames, Settings settings) throws IOException {
        HttpClient fetcher = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        Map<String, GatewayService> services = new LinkedHashMap<>();
        for (String name : serviceNames) {
            List<URI> copies = new ArrayList<>();
            for (URI base : replicaServices) {
                copies.add(base.resolve(name));
            }
            services.put(name, GatewayService.vote(name, copies, f, fetcher));
        }
        SequencePool pool = new SequencePool(clientContext, settings.sequences(), settings.callTimeoutMillis());
        GroupGateway gateway = new GroupGateway(Map.copyOf(services), pool, settings);
        gateway.http.start();
        LOG.info("gateway on {}:{} for {}: {} sequences, busy after {} ms", settings.host(), gateway.port(),
                services.keySet(), settings.sequences(), settings.waitMillis());
        return gateway;
    }

    public int port() {
        return http.getAddress().getPort();
    }

    /** {@code http://HOST:PORT/axis2/services/NAME} as callers reach it. */
    public String serviceUrl(String name) {
        return "http://" + settings.host() + ":" + port() + SERVICES_PATH + name;
    }

    public GatewayMetrics metrics() {
        return metrics;
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            String method = exchange.getRequestMethod();
            if (path.equals(GatewayMetrics.PATH) && method.equals("GET")) {
                send(exchange, 200, GatewayMetrics.CONTENT_TYPE, metrics.text().getBytes(StandardCharsets.UTF_8));
                return;
            }
            GatewayService service = path.startsWith(SERVICES_PATH)
                    ? services.get(path.substring(SERVICES_PATH.length())) : null;
            if (service == null) {
                send(exchange, 404, "text/plain; charset=utf-8", ("no service at " + path + "\n")
                        .getBytes(StandardCharsets.UTF_8));
            } else if (method.equals("GET") && "wsdl".equalsIgnoreCase(exchange.getRequestURI().getRawQuery())) {
                String host = exchange.getRequestHeaders().getFirst("Host");
                String self = "http://" + (host == null ? settings.host() + ":" + port() : host) + SERVICES_PATH
                        + service.name();
                send(exchange, 200, "text/xml; charset=utf-8", service.wsdlFor(self).getBytes(StandardCharsets.UTF_8));
            } else if (method.equals("POST")) {
                call(exchange, service);
            } else {
                send(exchange, 405, "text/plain; charset=utf-8", "POST a SOAP request, or GET ?wsdl\n"
                        .getBytes(StandardCharsets.UTF_8));
            }
        } catch (IOException | RuntimeException e) {
            LOG.debug("gateway: answering {} failed: {}", exchange.getRequestURI(), e.toString());
        }
    }

    private void call(HttpExchange exchange, GatewayService service) throws IOException {
        long start = System.nanoTime();
        String contentType = exchange.getRequestHeaders().getFirst("Content-Type");
        boolean soap12 = SoapMessages.isSoap12(contentType);
        SoapMessages.Request request;
        try {
            request = SoapMessages.read(bounded(exchange.getRequestBody()), contentType,
                    exchange.getRequestHeaders().getFirst("SOAPAction"));
        } catch (BadRequest e) {
            metrics.outcome(service.name(), GatewayMetrics.Outcome.BAD_REQUEST, start);
            fault(exchange, e.status, soap12, true, e.getMessage());
            return;
        }
        String operation = request.payload().getLocalName();
        String action = request.action().isEmpty() ? service.actions().getOrDefault(operation, "") : request.action();
        ServiceClient client;
        try {
            client = pool.acquire(service.groupAddress(), settings.waitMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        if (client == null) {
            metrics.outcome(service.name(), GatewayMetrics.Outcome.BUSY, start);
            fault(exchange, 503, request.soap12(), false, "BFT-WS gateway busy: all " + pool.capacity()
                    + " sequences to the group are in use; try again later");
            return;
        }
        boolean reusable = false;
        try {
            client.getOptions().setAction(action);
            GroupClients.randomized(client, service.randomized().contains(operation));
            GroupClients.confidential(client, service.confidential().contains(operation));
            GroupClients.readOnly(client, service.readOnly().contains(operation));
            OMElement reply = client.sendReceive(request.payload());
            byte[] envelope = SoapMessages.reply(request.soap12(), reply.cloneOMElement());
            reusable = true;
            metrics.outcome(service.name(), GatewayMetrics.Outcome.OK, start);
            send(exchange, 200, SoapMessages.contentType(request.soap12()), envelope);
        } catch (AxisFault e) {
            metrics.outcome(service.name(), GatewayMetrics.Outcome.FAULT, start);
            fault(exchange, 500, request.soap12(), false, "BFT-WS group: " + e.getMessage());
        } catch (XMLStreamException e) {
            metrics.outcome(service.name(), GatewayMetrics.Outcome.FAULT, start);
            fault(exchange, 500, request.soap12(), false, "BFT-WS gateway: the voted reply cannot be written: "
                    + e.getMessage());
        } finally {
            pool.release(service.groupAddress(), client, reusable);
        }
    }

    /** The request body, refused beyond {@link Settings#maxRequestBytes}. */
    private byte[] bounded(InputStream in) throws IOException, BadRequest {
        byte[] body = in.readNBytes(settings.maxRequestBytes() + 1);
        if (body.length > settings.maxRequestBytes()) {
            throw new BadRequest(413, "the request is larger than the gateway's limit of "
                    + settings.maxRequestBytes() + " bytes");
        }
        return body;
    }

    private static void fault(HttpExchange exchange, int status, boolean soap12, boolean client, String reason)
            throws IOException {
        send(exchange, status, SoapMessages.contentType(soap12), SoapMessages.fault(soap12, client, reason));
    }

    private static void send(HttpExchange exchange, int status, String contentType, byte[] body) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", contentType);
        exchange.sendResponseHeaders(status, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    /** Stops accepting, lets running calls end (a few seconds at most), ends the pool's sequences. */
    @Override
    public void close() {
        http.stop(1);
        Threads.stop(workers);
        pool.close();
    }
}
