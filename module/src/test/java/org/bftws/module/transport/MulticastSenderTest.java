package org.bftws.module.transport;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.apache.axiom.om.OMXMLBuilderFactory;
import org.apache.axiom.soap.SOAPEnvelope;
import org.junit.After;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.Timeout;

import com.sun.net.httpserver.HttpServer;

/**
 * The Multicast Sender's queueing contract, against the JDK's small HTTP server: {@code send} never waits
 * for a destination, a stalled destination delays no other one, and a full queue loses its oldest
 * messages, keeping the newest in order.
 */
public class MulticastSenderTest {
    @Rule
    public final Timeout timeout = Timeout.seconds(30);

    private final List<HttpServer> servers = new ArrayList<>();
    private final CountDownLatch release = new CountDownLatch(1);

    @After
    public void stop() {
        release.countDown(); // a failed assertion must not leave a handler blocked: stop() would wait for it
        for (HttpServer s : servers) {
            s.stop(0);
        }
    }

    @Test
    public void aStalledDestinationDropsItsOldestAndDelaysNobodyElse() throws Exception {
        LinkedBlockingQueue<Long> slowGot = new LinkedBlockingQueue<>();
        LinkedBlockingQueue<Long> fastGot = new LinkedBlockingQueue<>();
        URI slow = server(slowGot, release);
        URI fast = server(fastGot, null);
        int capacity = 10;
        try (MulticastSender sender = new MulticastSender("test-send", 2, capacity, Duration.ofSeconds(10))) {
            sender.send(slow, message(0));
            assertEquals("the first message is in flight, held by the slow server", 0L, (long) slowGot.take());
            for (long i = 1; i <= 100; i++) {
                sender.send(slow, message(i)); // would hang here if send waited for the destination
            }
            for (long i = 1; i <= 5; i++) {
                sender.send(fast, message(i));
                Long got = fastGot.poll(10, TimeUnit.SECONDS);
                assertNotNull("fast destination got message " + i + " while the slow one stalls", got);
                assertEquals(i, (long) got);
            }
            release.countDown();
            for (long i = 100 - capacity + 1; i <= 100; i++) {
                assertEquals("slow destination: the newest messages, in order", i, (long) slowGot.poll(10,
                        TimeUnit.SECONDS));
            }
            assertEquals(100 - capacity, sender.dropped());
            assertTrue(slowGot.isEmpty());
        }
    }

    private static ControlMessage message(long i) {
        return new ControlMessage(ByteBuffer.allocate(8).putLong(i).array(), null);
    }

    /** A server that records each message's number; with a latch, the first request waits for it. */
    private URI server(LinkedBlockingQueue<Long> got, CountDownLatch gate) throws Exception {
        HttpServer s = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        s.createContext("/control", exchange -> {
            try (InputStream in = exchange.getRequestBody()) {
                SOAPEnvelope env = OMXMLBuilderFactory.createSOAPModelBuilder(in, "UTF-8").getSOAPEnvelope();
                ControlMessage m = ControlMessage.read(env.getBody().getFirstElement(), 1024);
                got.add(ByteBuffer.wrap(m.signedBytes()).getLong());
            }
            if (gate != null) {
                try {
                    gate.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            exchange.sendResponseHeaders(202, -1);
            exchange.close();
        });
        s.start();
        servers.add(s);
        return URI.create("http://127.0.0.1:" + s.getAddress().getPort() + "/control");
    }
}
