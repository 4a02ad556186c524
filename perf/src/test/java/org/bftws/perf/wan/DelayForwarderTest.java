package org.bftws.perf.wan;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import org.junit.After;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.Timeout;

/**
 * The user-space WAN link: bytes pass intact and in order both ways, each way at least the one-way delay late,
 * and a close travels through. Timing is checked as a lower bound only (a loaded machine may be slower, never
 * faster than the emulated link).
 */
public class DelayForwarderTest {
    private static final long DELAY_MS = 60;

    @Rule
    public final Timeout timeout = Timeout.seconds(60);

    private ServerSocket echoServer;
    private DelayForwarder forwarder;

    @Before
    public void startEchoServerBehindForwarder() throws IOException {
        echoServer = new ServerSocket(0, 16, InetAddress.getLoopbackAddress());
        Thread t = new Thread(this::serveEcho, "test-echo-server");
        t.setDaemon(true);
        t.start();
        forwarder = DelayForwarder.start(new InetSocketAddress(InetAddress.getLoopbackAddress(),
                echoServer.getLocalPort()), DELAY_MS);
    }

    @After
    public void stop() throws IOException {
        forwarder.close();
        echoServer.close();
    }

    /** Echoes each connection's bytes back and closes its output at the client's end of stream. */
    private void serveEcho() {
        while (!echoServer.isClosed()) {
            try {
                Socket s = echoServer.accept();
                Thread t = new Thread(() -> {
                    try (s) {
                        s.getInputStream().transferTo(s.getOutputStream());
                        s.shutdownOutput();
                    } catch (IOException e) {
                        // the test's assertions see the consequence
                    }
                }, "test-echo-conn");
                t.setDaemon(true);
                t.start();
            } catch (IOException closed) {
                return;
            }
        }
    }

    @Test
    public void roundTripTakesAtLeastTwiceTheOneWayDelay() throws Exception {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), forwarder.port())) {
            for (int i = 0; i < 3; i++) {
                long t0 = System.nanoTime();
                s.getOutputStream().write(42 + i);
                s.getOutputStream().flush();
                int b = s.getInputStream().read();
                long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
                assertEquals(42 + i, b);
                assertTrue("round trip " + elapsedMs + " ms < 2 x " + DELAY_MS, elapsedMs >= 2 * DELAY_MS);
            }
        }
    }

    @Test
    public void largeTransferArrivesIntactInOrderAndTheCloseTravelsThrough() throws Exception {
        byte[] sent = new byte[3 * 1024 * 1024 + 17];
        new Random(7).nextBytes(sent);
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), forwarder.port())) {
            long t0 = System.nanoTime();
            Thread writer = new Thread(() -> {
                try {
                    OutputStream out = s.getOutputStream();
                    for (int off = 0; off < sent.length; off += 8192) {
                        out.write(sent, off, Math.min(8192, sent.length - off));
                    }
                    s.shutdownOutput();
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            }, "test-writer");
            writer.start();
            byte[] received = readToEnd(s.getInputStream());
            long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            writer.join();
            assertArrayEquals("echoed bytes equal the sent ones, in order", sent, received);
            assertTrue("transfer " + elapsedMs + " ms < 2 x " + DELAY_MS, elapsedMs >= 2 * DELAY_MS);
        }
    }

    @Test
    public void severalConnectionsAreRelayedIndependently() throws Exception {
        try (Socket a = new Socket(InetAddress.getLoopbackAddress(), forwarder.port());
                Socket b = new Socket(InetAddress.getLoopbackAddress(), forwarder.port())) {
            a.getOutputStream().write("first".getBytes());
            b.getOutputStream().write("second".getBytes());
            a.shutdownOutput();
            b.shutdownOutput();
            assertEquals("second", new String(readToEnd(b.getInputStream())));
            assertEquals("first", new String(readToEnd(a.getInputStream())));
        }
    }

    @Test
    public void aConnectionToADownTargetIsClosed() throws Exception {
        int port;
        try (ServerSocket gone = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = gone.getLocalPort();
        }
        try (DelayForwarder toNothing = DelayForwarder.start(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), port), DELAY_MS);
                Socket s = new Socket(InetAddress.getLoopbackAddress(), toNothing.port())) {
            int r;
            try {
                r = s.getInputStream().read();
            } catch (IOException reset) {
                r = -1;
            }
            assertEquals("closed, no data", -1, r);
        }
    }

    private static byte[] readToEnd(InputStream in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        in.transferTo(out);
        return out.toByteArray();
    }
}
