package org.bftws.fuzz;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.regex.Pattern;



import org.apache.axis2.AxisFault;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.context.ConfigurationContextFactory;
import org.bftws.module.http.DirectPost;
import org.bftws.module.http.HttpRoutes;
import org.bftws.module.http.RouteResponse;
import org.bftws.module.http.RoutingHttpServer;
import org.bftws.module.testing.EchoService;

/**
 * The replica's HTTP front ({@link RoutingHttpServer}: HttpCore's request parsing, then the routes of {@link
 * HttpRoutes}, a {@link DirectPost}, or Axis2) over a real loopback socket: a SOAP POST to an echo service (with a
 * length and chunked), a POST a direct receiver takes, GETs of a route and of Axis2's service list, a CORS
 * preflight; then mutations of their raw bytes, each sent on its own connection and the sending side closed. A
 * mutated request may still be a valid one and get its 2xx; what the server must do is answer with an HTTP status
 * line or close the connection, within the socket timeout. A crash is any other answer, no answer in time, or the
 * server no longer serving the authentic echo call after the input.
 */
final class HttpIntake implements Target {
    private static final int TIMEOUT_MS = 10_000;
    private static final Pattern STATUS = Pattern.compile("HTTP/1\\.[01] [1-5]\\d\\d .*", Pattern.DOTALL);
    private static final String ECHO = "<s:Envelope xmlns:s='http://schemas.xmlsoap.org/soap/envelope/'><s:Body>"
            + "<echo>hello</echo></s:Body></s:Envelope>";
    private final ConfigurationContext context;
    private final RoutingHttpServer server;
    private final int port;
    private final List<byte[]> corpus;
    private String lastFinding = "";

    HttpIntake() {
        try {
            context = ConfigurationContextFactory.createConfigurationContextFromFileSystem(null,
                    EchoService.axis2Xml(Scratch.directory("bftws-fuzz-axis2").resolve("axis2.xml")));
            context.getAxisConfiguration().addService(EchoService.echo());
            HttpRoutes.of(context).register("/metrics", (path, query) -> RouteResponse.ok(RouteResponse.TEXT,
                    "path " + path + " query " + query + "\n"));
            HttpRoutes.of(context).registerPublic("/beacon", (path, query) -> RouteResponse.ok("application/json",
                    "{}"));
            HttpRoutes.of(context).registerPost("/axis2/services/Direct", new DirectPost() {
                @Override
                public int maxBodyBytes() {
                    return 256;
                }

                @Override
                public boolean accept(byte[] body, String contentType, String remoteAddress) {
                    return new String(body, StandardCharsets.UTF_8).startsWith("<direct");
                }
            });
            server = new RoutingHttpServer(context, 0);
            server.start();
            port = URI.create(server.getEPRForService("Echo", "127.0.0.1").getAddress()).getPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        corpus = List.of(post("/axis2/services/Echo", ECHO), chunked("/axis2/services/Echo", ECHO),
                post("/axis2/services/Direct", "<direct>AQID</direct>"),
                ascii("GET /metrics/sub?name=x&y HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"),
                ascii("GET /axis2/services/ HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"),
                ascii("OPTIONS /beacon/public/latest HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: https://example.org\r\n"
                        + "Access-Control-Request-Method: GET\r\nAccess-Control-Request-Headers: content-type\r\n"
                        + "Connection: close\r\n\r\n"));
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] post(String path, String body) {
        return ascii("POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/xml; charset=utf-8\r\n"
                + "SOAPAction: \"urn:echo\"\r\nContent-Length: " + ascii(body).length + "\r\nConnection: close\r\n\r\n"
                + body);
    }

    private static byte[] chunked(String path, String body) {
        int half = body.length() / 2;
        return ascii("POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/xml; charset=utf-8\r\n"
                + "SOAPAction: \"urn:echo\"\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
                + Integer.toHexString(half) + "\r\n" + body.substring(0, half) + "\r\n"
                + Integer.toHexString(body.length() - half) + "\r\n" + body.substring(half) + "\r\n0\r\n\r\n");
    }

    @Override
    public String name() {
        return "http";
    }

    @Override
    public List<byte[]> corpus() {
        return corpus;
    }

    @Override
    public Outcome feed(byte[] input) {
        String answer;
        try {
            answer = exchange(input);
        } catch (SocketTimeoutException e) {
            lastFinding = "no answer within " + TIMEOUT_MS + " ms, the request's sending side closed";
            return Outcome.CRASH;
        } catch (IOException e) {
            answer = ""; // reset by the server: it closed the connection
        }
        if (answer.isEmpty() && whole(input)) {
            lastFinding = "the connection closed without an answer to a whole request";
            return Outcome.CRASH;
        }
        if (!answer.isEmpty() && !STATUS.matcher(answer).matches()) {
            lastFinding = "not an HTTP answer: " + answer.substring(0, Math.min(80, answer.length()));
            return Outcome.CRASH;
        }
        try {
            String good = exchange(corpus.get(0));
            if (!good.startsWith("HTTP/1.1 200") || !good.contains("<echo>hello</echo>")) {
                lastFinding = "the echo call answered after the input: "
                        + good.substring(0, Math.min(80, good.length()));
                return Outcome.CRASH;
            }
        } catch (IOException e) {
            lastFinding = "the echo call failed after the input: " + e;
            return Outcome.CRASH;
        }
        return Outcome.HANDLED;
    }

    /**
     * Whether {@code request} arrived whole: its head ends, and the body it declares (by Content-Length, or chunked
     * up to the last chunk) is all there. The server may close a connection whose request was cut off without
     * answering; a whole one it must answer.
     */
    static boolean whole(byte[] request) {
        String text = new String(request, StandardCharsets.ISO_8859_1);
        int end = text.indexOf("\r\n\r\n");
        if (end < 0) {
            return false;
        }
        String head = text.substring(0, end).toLowerCase(java.util.Locale.ROOT);
        String body = text.substring(end + 4);
        if (head.contains("\r\ntransfer-encoding:")) {
            return body.endsWith("\r\n0\r\n\r\n") || body.equals("0\r\n\r\n");
        }
        java.util.regex.Matcher length = Pattern.compile("\r\ncontent-length: *(\\d{1,9}) *(\r\n|$)").matcher(head);
        if (length.find()) {
            return body.length() >= Integer.parseInt(length.group(1));
        }
        return !head.contains("\r\ncontent-length:");
    }

    /** Sends {@code request}, closes the sending side and reads the answer to its end. */
    private String exchange(byte[] request) throws IOException {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(TIMEOUT_MS);
            s.getOutputStream().write(request);
            s.shutdownOutput();
            return new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }

    @Override
    public String lastFinding() {
        return lastFinding;
    }

    @Override
    public void close() {
        server.stop();
        try {
            context.terminate();
        } catch (AxisFault e) {
            throw new UncheckedIOException(e);
        }
    }
}
