package org.bftws.client.embedded;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.bftws.module.testing.Conditions;
import org.bftws.module.transport.ControlMessage;
import org.bftws.module.config.BftwsParameters;
import org.bftws.module.transport.ControlGuard;
import org.bftws.module.transport.ControlPort;
import org.bftws.module.transport.MulticastSender;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.junit.rules.Timeout;

/**
 * The control port and the Multicast Sender over real HTTP on 127.0.0.1: payloads arrive intact and in
 * order, through the direct receive path (no Axis2 handler chain), and what is malformed, oversized or carries
 * a DTD never reaches the sink and gets Axis2's SOAP fault, the whole body having reached Axis2.
 */
public class ControlPortTest {
    private static final Logger LOG = LogManager.getLogger(ControlPortTest.class);
    private static final int MAX = 64 * 1024;

    @ClassRule
    public static final TemporaryFolder TMP = new TemporaryFolder();

    @Rule
    public final Timeout timeout = Timeout.seconds(60);

    private static EmbeddedAxis2Server server;
    private static ControlPort port;
    private static URI url;
    private static final LinkedBlockingQueue<ControlMessage> RECEIVED = new LinkedBlockingQueue<>();

    @BeforeClass
    public static void start() throws Exception {
        server = EmbeddedAxis2Server.start(TestRepositories.replica(TMP.newFolder("replica").toPath()));
        port = ControlPort.deploy(server.context(), RECEIVED::add, MAX, ControlGuard.NONE,
                (int) BftwsParameters.controlEnvelopeBytes(MAX));
        url = ControlPort.controlUri(URI.create(server.serviceUrl("Echo")));
    }

    @AfterClass
    public static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @Test
    public void controlUriSitsBesideTheServiceEndpoint() {
        assertEquals(URI.create("http://h:1/axis2/services/BftwsControl"),
                ControlPort.controlUri(URI.create("http://h:1/axis2/services/Echo")));
    }

    @Test
    public void messagesArriveIntactAndInOrder() throws Exception {
        RECEIVED.clear();
        long directBefore = port.receivedDirect();
        try (MulticastSender sender = new MulticastSender("test-send", 2, 1000, Duration.ofSeconds(30))) {
            URI replyTo = URI.create("http://127.0.0.1:1/axis2/services/BftwsControl");
            List<Long> micros = new ArrayList<>();
            for (int i = 0; i < 60; i++) {
                byte[] payload = ("message " + i).getBytes(StandardCharsets.UTF_8);
                long t = System.nanoTime();
                sender.send(url, new ControlMessage(payload, i % 2 == 0 ? replyTo : null));
                ControlMessage m = RECEIVED.poll(10, TimeUnit.SECONDS);
                micros.add((System.nanoTime() - t) / 1000);
                assertNotNull("message " + i + " arrived", m);
                assertArrayEquals(payload, m.signedBytes());
                assertEquals(i % 2 == 0 ? replyTo : null, m.replyTo());
            }
            List<Long> warm = new ArrayList<>(micros.subList(10, micros.size()));
            warm.sort(null);
            LOG.info("one-way control message over loopback HTTP: median {} us, max {} us", warm.get(warm.size() / 2),
                    warm.get(warm.size() - 1));
            assertEquals(0, sender.dropped());
            assertEquals("every message took the direct path", directBefore + 60, port.receivedDirect());
        }
    }

    @Test
    public void withoutTheDirectPathMessagesArriveThroughAxis2() throws Exception {
        try (EmbeddedAxis2Server other = EmbeddedAxis2Server.start(TestRepositories.replica(TMP.newFolder("axis2")
                .toPath())); MulticastSender sender = new MulticastSender("test-send", 1, 10, Duration.ofSeconds(30))) {
            LinkedBlockingQueue<ControlMessage> received = new LinkedBlockingQueue<>();
            ControlPort throughAxis2 = ControlPort.deploy(other.context(), received::add, MAX, ControlGuard.NONE, 0);
            byte[] payload = "through the handler chain".getBytes(StandardCharsets.UTF_8);
            sender.send(ControlPort.controlUri(URI.create(other.serviceUrl("Echo"))), new ControlMessage(payload, null));
            ControlMessage m = received.poll(10, TimeUnit.SECONDS);
            assertNotNull(m);
            assertArrayEquals(payload, m.signedBytes());
            assertEquals(0, throughAxis2.receivedDirect());
        }
    }

    @Test
    public void oversizedMalformedAndDtdMessagesAreRefused() throws Exception {
        RECEIVED.clear();
        long refusedBefore = port.refused();
        long directBefore = port.receivedDirect();
        try (MulticastSender sender = new MulticastSender("test-send", 1, 10, Duration.ofSeconds(30))) {
            sender.send(url, new ControlMessage(new byte[MAX + 1], null));
            sender.send(url, new ControlMessage(new byte[MAX], null)); // the largest allowed: passes
            ControlMessage m = RECEIVED.poll(10, TimeUnit.SECONDS);
            assertNotNull(m);
            assertEquals(MAX, m.signedBytes().length);
            // both POSTs may be in flight at once: closing the sender before the port answered the oversized
            // one would abort it uncounted
            Conditions.await("the port answered both POSTs", 30_000, () -> sender.sent() + sender.refused() == 2);
            assertEquals("the oversized message refused", 1, sender.refused());
        }
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        String wrongElement = "<s:Envelope xmlns:s='http://schemas.xmlsoap.org/soap/envelope/'><s:Body>"
                + "<x:other xmlns:x='urn:bftws:control'>AAAA</x:other></s:Body></s:Envelope>";
        String notBase64 = "<s:Envelope xmlns:s='http://schemas.xmlsoap.org/soap/envelope/'><s:Body>"
                + "<x:message xmlns:x='urn:bftws:control'>!!!!</x:message></s:Body></s:Envelope>";
        String dtd = "<?xml version='1.0'?><!DOCTYPE s:Envelope [<!ENTITY e 'AAAA'>]>"
                + "<s:Envelope xmlns:s='http://schemas.xmlsoap.org/soap/envelope/'><s:Body>"
                + "<x:message xmlns:x='urn:bftws:control'>&e;</x:message></s:Body></s:Envelope>";
        // Chunked (no Content-Length) and longer than the direct path reads: the part it read is put back.
        String chunkedOversized = "<s:Envelope xmlns:s='http://schemas.xmlsoap.org/soap/envelope/'><s:Body>"
                + "<x:message xmlns:x='urn:bftws:control'>" + "A".repeat(2 * MAX) + "</x:message></s:Body></s:Envelope>";
        for (String body : List.of(wrongElement, notBase64, dtd, chunkedOversized)) {
            HttpRequest.BodyPublisher publisher = body.equals(chunkedOversized)
                    ? HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(
                            body.getBytes(StandardCharsets.UTF_8)))
                    : HttpRequest.BodyPublishers.ofString(body);
            HttpRequest req = HttpRequest.newBuilder(url).header("Content-Type", "text/xml; charset=UTF-8")
                    .header("SOAPAction", "\"" + ControlMessage.ACTION + "\"").POST(publisher).build();
            HttpResponse<String> rsp = http.send(req, HttpResponse.BodyHandlers.ofString());
            // The documented rule: not a control message in form → a SOAP fault, one fixed reason per layer.
            assertEquals(rsp.body(), 500, rsp.statusCode());
            assertTrue(rsp.body(), rsp.body().contains(body.equals(dtd) ? "DOCTYPE is not allowed"
                    : "BFT-WS: not a control message"));
        }
        // Each POST above returned only after the server processed it: nothing can still be in flight.
        assertNull(RECEIVED.poll());
        assertEquals("oversized, wrong element, bad base64 and chunked oversized refused by the port",
                refusedBefore + 4, port.refused());
        assertEquals("only the message within the limit taken directly", directBefore + 1, port.receivedDirect());
    }
}
