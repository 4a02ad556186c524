package org.bftws.module.http;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.context.ConfigurationContextFactory;
import org.apache.axis2.engine.ListenerManager;
import org.apache.axis2.transport.TransportListener;
import org.junit.After;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * RoutingHttpServer on loopback, started from conf/axis2-replica.xml, which names it as the HTTP transport
 * receiver: a GET of a registered path is answered by its route, and everything else gets Axis2's own answer.
 */
public class RoutingHttpServerTest {
    private static final String SOAP11 = "<s:Envelope xmlns:s='http://schemas.xmlsoap.org/soap/envelope/'>"
            + "<s:Body><m:echo xmlns:m='urn:test'/></s:Body></s:Envelope>";

    @Rule
    public TemporaryFolder temp = new TemporaryFolder();

    private final HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();
    private ConfigurationContext context;
    private ListenerManager listeners;
    private String base;
    private int port;

    @Before
    public void start() throws Exception {
        Path repo = temp.newFolder("repository").toPath();
        Files.createDirectories(repo.resolve("services"));
        Files.createDirectories(repo.resolve("modules"));
        Path xml = Files.writeString(temp.newFile("axis2.xml").toPath(), replicaXmlWithoutModules());
        context = ConfigurationContextFactory.createConfigurationContextFromFileSystem(repo.toString(), xml.toString());
        listeners = new ListenerManager();
        listeners.init(context);
        listeners.start();
        TransportListener receiver = context.getAxisConfiguration().getTransportIn("http").getReceiver();
        assertTrue("axis2.xml's receiver: " + receiver, receiver instanceof RoutingHttpServer);
        port = URI.create(receiver.getEPRsForService("probe", "127.0.0.1")[0].getAddress()).getPort();
        base = "http://127.0.0.1:" + port;
    }

    @After
    public void stop() throws Exception {
        listeners.stop();
        context.terminate();
    }

    @Test
    public void aRegisteredGetIsAnsweredByItsRouteWithPathAndQuery() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        HttpRoutes.of(context).register("/metrics", (path, query) -> RouteResponse.ok("text/plain; version=0.0.4",
                "calls " + calls.incrementAndGet() + " path " + path + " query " + query + "\n"));
        HttpResponse<String> first = get("/metrics");
        assertEquals(200, first.statusCode());
        assertEquals("text/plain; version=0.0.4", first.headers().firstValue("Content-Type").orElse(""));
        assertEquals("calls 1 path /metrics query \n", first.body());
        HttpResponse<String> second = get("/metrics/sub?name=x&y");
        assertEquals("calls 2 path /metrics/sub query name=x&y\n", second.body());
    }

    @Test
    public void aRouteStatusIsPassedOnAndAFailingRouteAnswers500() throws Exception {
        HttpRoutes.of(context).register("/missing", (path, query) -> RouteResponse.text(404, "nothing here"));
        HttpRoutes.of(context).register("/broken", (path, query) -> {
            throw new IllegalStateException("route failed");
        });
        HttpResponse<String> missing = get("/missing");
        assertEquals(404, missing.statusCode());
        assertEquals("nothing here\n", missing.body());
        HttpResponse<String> broken = get("/broken");
        assertEquals(500, broken.statusCode());
        assertEquals("internal error\n", broken.body());
    }

    @Test
    public void everythingElseGetsAxis2sOwnAnswer() throws Exception {
        HttpRoutes.of(context).register("/metrics", (path, query) -> RouteResponse.ok(RouteResponse.TEXT, "m"));
        // Axis2's HTTPWorker redirects a GET outside its service path to the service list, and lists services there.
        HttpResponse<String> other = get("/other");
        assertEquals(301, other.statusCode());
        assertEquals("/axis2/services/", other.headers().firstValue("Location").orElse(""));
        HttpResponse<String> list = get("/axis2/services/");
        assertEquals(200, list.statusCode());
        assertTrue(list.body(), list.body().contains("Axis2: Services"));
        // A POST, even to a routed path, goes to Axis2: no service there, so a SOAP fault.
        for (String path : new String[] {"/axis2/services/Nothing", "/metrics"}) {
            HttpResponse<String> post = http.send(HttpRequest.newBuilder(URI.create(base + path))
                    .header("Content-Type", "text/xml; charset=utf-8").header("SOAPAction", "\"urn:echo\"")
                    .POST(HttpRequest.BodyPublishers.ofString(SOAP11)).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(path, 500, post.statusCode());
            assertTrue(post.body(), post.body().contains("Fault"));
        }
    }

    @Test
    public void aPublicRouteIsReadableFromAnyOriginAndItsPreflightIsAnswered() throws Exception {
        HttpRoutes.of(context).registerPublic("/beacon", (path, query) -> path.equals("/beacon/info")
                ? RouteResponse.ok("application/json", "{}") : RouteResponse.text(404, "no such path"));
        HttpRoutes.of(context).register("/metrics", (path, query) -> RouteResponse.ok(RouteResponse.TEXT, "m"));
        for (String path : new String[] {"/beacon/info", "/beacon/none"}) {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + path))
                    .header("Origin", "https://example.org").GET().build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(path, "*", r.headers().firstValue("Access-Control-Allow-Origin").orElse(""));
        }
        HttpResponse<String> pre = http.send(HttpRequest.newBuilder(URI.create(base + "/beacon/public/latest"))
                .header("Origin", "https://example.org").header("Access-Control-Request-Method", "GET")
                .header("Access-Control-Request-Headers", "content-type")
                .method("OPTIONS", HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, pre.statusCode());
        assertEquals("", pre.body());
        assertEquals("*", pre.headers().firstValue("Access-Control-Allow-Origin").orElse(""));
        assertEquals("GET, OPTIONS", pre.headers().firstValue("Access-Control-Allow-Methods").orElse(""));
        assertEquals("content-type", pre.headers().firstValue("Access-Control-Allow-Headers").orElse(""));
        HttpResponse<String> metrics = http.send(HttpRequest.newBuilder(URI.create(base + "/metrics"))
                .header("Origin", "https://example.org").GET().build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, metrics.statusCode());
        assertTrue(metrics.headers().firstValue("Access-Control-Allow-Origin").isEmpty());
        // a GET after the preflight on the same client still works (the empty answer left the connection usable)
        assertEquals(200, get("/beacon/info").statusCode());
    }

    // Axis2 writes its fault in the request's charset: with one the JVM lacks it failed while writing and closed
    // the connection without any answer
    @Test
    public void aRequestInACharsetTheServerLacksGetsAFaultInUtf8() throws Exception {
        for (String charset : new String[] {"uvf-8", "utf-8|.1", "\"\""}) {
            HttpResponse<String> post = http.send(HttpRequest.newBuilder(URI.create(base + "/axis2/services/Nothing"))
                    .header("Content-Type", "text/xml; charset=" + charset).header("SOAPAction", "\"urn:echo\"")
                    .POST(HttpRequest.BodyPublishers.ofString(SOAP11)).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(charset, 415, post.statusCode());
            assertEquals("text/xml; charset=utf-8", post.headers().firstValue("Content-Type").orElse(""));
            assertTrue(post.body(), post.body().contains("<faultcode>soapenv:Client</faultcode>"));
        }
        HttpResponse<String> known = http.send(HttpRequest.newBuilder(URI.create(base + "/axis2/services/Nothing"))
                .header("Content-Type", "text/xml; charset=ISO-8859-1").header("SOAPAction", "\"urn:echo\"")
                .POST(HttpRequest.BodyPublishers.ofString(SOAP11)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals("a known charset still reaches Axis2: no service there", 500, known.statusCode());
        assertTrue(RoutingWorker.charsetSupported(null));
        assertTrue(RoutingWorker.charsetSupported("text/xml"));
        assertTrue(RoutingWorker.charsetSupported("application/soap+xml; charset=UTF-8; action=\"urn:x\""));
    }

    /**
     * A POST to a path that refuses the connection's peer is answered 503 at once, with its declared body still
     * unsent, and never reaches the path's receiver; the same path from another address, another path from that
     * address, and the path after the refusal is withdrawn are served.
     */
    @Test
    public void aRefusedPeersPostIsAnsweredUnreadAndOthersAreServed() throws Exception {
        String control = "/axis2/services/BftwsControl";
        AtomicInteger controlReceived = new AtomicInteger();
        AtomicInteger clientReceived = new AtomicInteger();
        HttpRoutes routes = HttpRoutes.of(context);
        routes.registerPost(control, counting(controlReceived));
        routes.registerPost("/axis2/services/Echo", counting(clientReceived));
        routes.refusePosts(control, "127.0.0.2"::equals);

        String refused = postHead("127.0.0.2", control, 1 << 20);
        assertTrue(refused, refused.startsWith("HTTP/1.1 503 "));
        assertTrue(refused, refused.toLowerCase(Locale.ROOT).contains("\r\nconnection: close\r\n"));
        assertTrue(post("127.0.0.2", control + "/message?x").startsWith("HTTP/1.1 503 "));
        assertEquals("refused POSTs never reach the receiver", 0, controlReceived.get());

        assertTrue(post("127.0.0.1", control).startsWith("HTTP/1.1 202 "));
        assertEquals(1, controlReceived.get());
        assertTrue(post("127.0.0.2", "/axis2/services/Echo").startsWith("HTTP/1.1 202 "));
        assertEquals(1, clientReceived.get());
        routes.unrefusePosts(control);
        assertTrue(post("127.0.0.2", control).startsWith("HTTP/1.1 202 "));
        assertEquals(2, controlReceived.get());
    }

    private static DirectPost counting(AtomicInteger received) {
        return new DirectPost() {
            @Override
            public int maxBodyBytes() {
                return 1 << 16;
            }

            @Override
            public boolean accept(byte[] body, String contentType, String remoteAddress) {
                received.incrementAndGet();
                return true;
            }
        };
    }

    /** The answer's head to a whole POST of a SOAP body from local address {@code from}. */
    private String post(String from, String path) throws IOException {
        byte[] body = SOAP11.getBytes(StandardCharsets.UTF_8);
        return exchange(from, path, body.length, body);
    }

    /** The answer's head to a POST that declares {@code declared} body bytes and sends none of them. */
    private String postHead(String from, String path, int declared) throws IOException {
        return exchange(from, path, declared, new byte[0]);
    }

    private String exchange(String from, String path, int declared, byte[] body) throws IOException {
        try (Socket s = new Socket()) {
            s.bind(new InetSocketAddress(InetAddress.getByName(from), 0));
            s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 10_000);
            s.setSoTimeout(10_000); // an answer that waited for the unsent body would fail here, not hang
            OutputStream out = s.getOutputStream();
            out.write(("POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/xml; charset=utf-8\r\n"
                    + "SOAPAction: \"urn:echo\"\r\nContent-Length: " + declared + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.write(body);
            out.flush();
            InputStream in = s.getInputStream();
            StringBuilder head = new StringBuilder();
            while (head.indexOf("\r\n\r\n") < 0) {
                int b = in.read();
                if (b < 0) {
                    break;
                }
                head.append((char) b);
            }
            return head.toString();
        }
    }

    /** conf/axis2-replica.xml on port 0, without its modules (this test deploys none). */
    private static String replicaXmlWithoutModules() throws IOException {
        String xml = Files.readString(Path.of(System.getProperty("bftws.conf", "../conf"), "axis2-replica.xml"));
        String receiver = "<transportReceiver name=\"http\" class=\"" + RoutingHttpServer.class.getName() + "\">";
        assertTrue("axis2-replica.xml names " + RoutingHttpServer.class.getName(), xml.contains(receiver));
        return xml.replace("<parameter name=\"port\">8080</parameter>", "<parameter name=\"port\">0</parameter>")
                .replaceAll("<module ref=\"[^\"]+\"/>", "");
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(base + path)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
