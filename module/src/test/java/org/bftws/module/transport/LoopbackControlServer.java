package org.bftws.module.transport;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntUnaryOperator;

import org.apache.axiom.om.OMXMLBuilderFactory;
import org.apache.axiom.soap.SOAPEnvelope;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * A control-port stand-in on a real loopback HTTP server (the JDK's): it parses each POSTed envelope as a
 * replica would, records the message's number (its 8 signed bytes), counts POSTs in progress at once, and answers
 * with the status its {@code answer} function gives for the n-th POST (0-based): 2xx accepts (the message is
 * recorded), 500 answers with a SOAP fault, any other status answers empty. A gate, while closed, holds every
 * POST before it answers, as a slow destination would.
 */
final class LoopbackControlServer implements AutoCloseable {
    static final int SOAP_FAULT = 500;
    private static final String FAULT = "<s:Envelope xmlns:s='http://schemas.xmlsoap.org/soap/envelope/'><s:Body>"
            + "<s:Fault><faultcode>s:Client</faultcode><faultstring>refused</faultstring></s:Fault></s:Body>"
            + "</s:Envelope>";

    /** Numbers of the messages accepted, in the order their POSTs were answered. */
    final LinkedBlockingQueue<Long> accepted = new LinkedBlockingQueue<>();
    final AtomicInteger posts = new AtomicInteger();
    final AtomicInteger inProgress = new AtomicInteger();
    final AtomicInteger maxInProgress = new AtomicInteger();
    private final HttpServer server;
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final IntUnaryOperator answer;
    private volatile CountDownLatch gate = new CountDownLatch(0);

    LoopbackControlServer(IntUnaryOperator answer) throws IOException {
        this.answer = answer;
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/control", this::handle);
        server.setExecutor(threads); // concurrent POSTs are served concurrently, so a window shows
        server.start();
    }

    /** Accepts every POST with 202, as a one-way SOAP endpoint does. */
    static LoopbackControlServer accepting() throws IOException {
        return new LoopbackControlServer(n -> 202);
    }

    URI uri() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/control");
    }

    /** From now on POSTs wait until {@link #open}. */
    void hold() {
        gate = new CountDownLatch(1);
    }

    void open() {
        gate.countDown();
    }

    /** The next accepted message's number, or null after 20 s. */
    Long next() throws InterruptedException {
        return accepted.poll(20, TimeUnit.SECONDS);
    }

    static ControlMessage message(long i) {
        return message(i, 8);
    }

    /** Message {@code i}, padded to {@code bytes} signed bytes. */
    static ControlMessage message(long i, int bytes) {
        return new ControlMessage(ByteBuffer.allocate(bytes).putLong(i).array(), null);
    }

    private void handle(HttpExchange exchange) throws IOException {
        int n = posts.getAndIncrement();
        maxInProgress.accumulateAndGet(inProgress.incrementAndGet(), Math::max);
        boolean counted = true;
        try {
            long number;
            try (InputStream in = exchange.getRequestBody()) {
                SOAPEnvelope env = OMXMLBuilderFactory.createSOAPModelBuilder(in, "UTF-8").getSOAPEnvelope();
                number = ByteBuffer.wrap(ControlMessage.read(env.getBody().getFirstElement(), 1 << 20).signedBytes())
                        .getLong();
            }
            awaitGate();
            int status = answer.applyAsInt(n);
            if (status / 100 == 2) {
                accepted.add(number);
            }
            // Leave the count before answering: once the answer is out the sender may start its next POST, and
            // that one must not find this one still counted (a CI run saw W+1 "at once" that way).
            inProgress.decrementAndGet();
            counted = false;
            respond(exchange, status);
        } finally {
            if (counted) {
                inProgress.decrementAndGet();
            }
            exchange.close();
        }
    }

    private void awaitGate() {
        try {
            gate.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void respond(HttpExchange exchange, int status) throws IOException {
        if (status != SOAP_FAULT) {
            exchange.sendResponseHeaders(status, -1);
            return;
        }
        byte[] body = FAULT.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "text/xml; charset=UTF-8");
        exchange.sendResponseHeaders(status, body.length);
        exchange.getResponseBody().write(body);
    }

    @Override
    public void close() {
        open(); // a failed assertion must not leave a handler blocked: stop() would wait for it
        server.stop(0);
        threads.shutdownNow();
    }
}
