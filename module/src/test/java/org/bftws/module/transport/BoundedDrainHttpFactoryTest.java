package org.bftws.module.transport;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;


import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.context.ConfigurationContextFactory;
import org.apache.axis2.description.Parameter;
import org.apache.axis2.description.TransportInDescription;
import org.apache.axis2.transport.http.server.HttpFactory;
import org.bftws.module.http.RoutingHttpServer;
import org.bftws.module.testing.EchoService;
import org.bftws.module.testing.RawHttp;
import org.junit.After;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.junit.rules.Timeout;

/**
 * A real Axis2 server on loopback with a worker pool of {@link #POOL} threads and a socket timeout far longer
 * than the test's: senders that declare a large body, send a few bytes the service refuses at once, and then
 * send nothing more. Axis2's own server would read on until their declared body came (it never does) or the
 * socket timed out, so each held a worker and a correct client's call would queue behind them until this
 * test's timeout. With the bounded drain each refused sender gets its answer and the server closes its
 * connection while the sender still holds its socket open, and a correct call completes meanwhile.
 */
public class BoundedDrainHttpFactoryTest {
    private static final int POOL = 2;
    private static final int OVERSIZED = 3 * POOL;
    private static final long DECLARED = 50L << 20;
    private static final String ECHO = "<s:Envelope xmlns:s='http://schemas.xmlsoap.org/soap/envelope/'><s:Body>"
            + "<echo>hello</echo></s:Body></s:Envelope>";

    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();
    @Rule
    public final Timeout timeout = Timeout.seconds(90);

    private ConfigurationContext context;
    private RoutingHttpServer server;
    private int port;

    @Before
    public void start() throws Exception {
        context = ConfigurationContextFactory.createConfigurationContextFromFileSystem(null,
                EchoService.axis2Xml(tmp.newFile("axis2.xml").toPath()));
        TransportInDescription http = context.getAxisConfiguration().getTransportIn("http");
        http.addParameter(new Parameter(HttpFactory.PARAMETER_REQUEST_CORE_THREAD_POOL_SIZE, String.valueOf(POOL)));
        http.addParameter(new Parameter(HttpFactory.PARAMETER_REQUEST_MAX_THREAD_POOL_SIZE, String.valueOf(POOL)));
        http.addParameter(new Parameter(HttpFactory.PARAMETER_REQUEST_SOCKET_TIMEOUT, "600000"));
        context.getAxisConfiguration().addService(EchoService.echo());
        server = new RoutingHttpServer(context, 0);
        server.start();
        port = URI.create(server.getEPRForService("Echo", "127.0.0.1").getAddress()).getPort();
    }

    @After
    public void stop() throws Exception {
        if (server != null) {
            server.stop();
        }
        if (context != null) {
            context.terminate();
        }
    }

    @Test
    public void refusedOversizedBodiesFreeTheirThreadsAndACorrectCallIsServed() throws Exception {
        List<Socket> senders = new ArrayList<>();
        try {
            for (int i = 0; i < OVERSIZED; i++) {
                Socket s = new Socket("127.0.0.1", port);
                s.setSoTimeout(60_000);
                OutputStream out = s.getOutputStream();
                out.write(head(DECLARED));
                out.write("not a SOAP envelope at all".getBytes(StandardCharsets.US_ASCII));
                out.flush();
                senders.add(s); // sends nothing more and keeps its socket open
            }
            // More refused senders than workers: the correct call needs a thread one of them held.
            String reply = exchange(ECHO);
            assertTrue(reply, reply.startsWith("HTTP/1.1 200"));
            assertTrue(reply, reply.contains("<echo>hello</echo>"));
            for (Socket s : senders) {
                String answer = RawHttp.readToEnd(s.getInputStream()); // returns once the server closed the connection
                assertTrue(answer, answer.startsWith("HTTP/1.1 500") || answer.startsWith("HTTP/1.1 400")
                        || answer.isEmpty());
                // a refusal ends its connection and says so, so no keep-alive client reuses it
                assertTrue(answer, answer.isEmpty() || answer.toLowerCase().contains("\r\nconnection: close\r\n"));
                assertTrue("the sender still holds its socket", !s.isClosed() && !s.isOutputShutdown());
            }
        } finally {
            for (Socket s : senders) {
                s.close();
            }
        }
    }

    @Test
    public void aWholeRequestKeepsItsConnectionForTheNext() throws Exception {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(60_000);
            byte[] body = ECHO.getBytes(StandardCharsets.UTF_8);
            for (int i = 0; i < 2; i++) {
                s.getOutputStream().write(head(body.length));
                s.getOutputStream().write(body);
                s.getOutputStream().flush();
                String status = readLine(s.getInputStream());
                assertEquals("HTTP/1.1 200 OK", status);
                skipResponse(s.getInputStream());
            }
        }
    }

    private byte[] head(long contentLength) {
        return ("POST /axis2/services/Echo HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n"
                + "Content-Type: text/xml; charset=UTF-8\r\nSOAPAction: \"\"\r\n"
                + "Content-Length: " + contentLength + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
    }

    /** One POST on its own connection, asking the server to close it; the whole answer. */
    private String exchange(String envelope) throws IOException {
        byte[] body = envelope.getBytes(StandardCharsets.UTF_8);
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(60_000);
            String head = new String(head(body.length), StandardCharsets.US_ASCII)
                    .replace("\r\n\r\n", "\r\nConnection: close\r\n\r\n");
            s.getOutputStream().write(head.getBytes(StandardCharsets.US_ASCII));
            s.getOutputStream().write(body);
            s.getOutputStream().flush();
            return RawHttp.readToEnd(s.getInputStream());
        }
    }

    private static String readLine(InputStream in) throws IOException {
        StringBuilder sb = new StringBuilder();
        for (int c; (c = in.read()) >= 0 && c != '\n';) {
            if (c != '\r') {
                sb.append((char) c);
            }
        }
        return sb.toString();
    }

    /** Reads the rest of a chunked or Content-Length response after its status line. */
    private static void skipResponse(InputStream in) throws IOException {
        long length = -1;
        boolean chunked = false;
        for (String h; !(h = readLine(in)).isEmpty();) {
            String lower = h.toLowerCase();
            if (lower.startsWith("content-length:")) {
                length = Long.parseLong(h.substring(15).trim());
            } else if (lower.startsWith("transfer-encoding:") && lower.contains("chunked")) {
                chunked = true;
            }
        }
        if (!chunked) {
            in.readNBytes((int) length);
            return;
        }
        for (int size; (size = Integer.parseInt(readLine(in).trim(), 16)) > 0;) {
            in.readNBytes(size);
            readLine(in);
        }
        readLine(in);
    }
}
