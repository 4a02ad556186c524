package org.bftws.perf.wan;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * An emulated wide-area link in user space (docs/performance.md, "Emulated WAN"): a TCP forwarder listening on a loopback
 * port that relays every connection to {@code target} and delivers each chunk, in both directions, {@code
 * delay} milliseconds after it arrived, in order. Put one in front of every listening endpoint of a group
 * (each replica and the client's reply endpoint) and every hop pays the one-way delay, as the BFT-WS paper's
 * WAN runs do (§4.1.2) with replicas far apart.
 *
 * <p>Why not {@code tc netem}: this machine's kernel has no {@code sch_netem} ({@code scripts/wan-up} refuses a
 * delay). Unlike netem, the delay here is per chunk read from a socket, not per packet; the kernel's TCP runs
 * at loopback speed on each side, so there is no delayed ACK clock, no congestion window growth over the
 * emulated RTT and no loss; the forwarder's threads also take CPU from the machine being measured.
 */
public final class DelayForwarder implements AutoCloseable {
    private static final Logger LOG = LogManager.getLogger(DelayForwarder.class);
    private static final AtomicInteger IDS = new AtomicInteger();

    private final ServerSocket listener;
    private final InetSocketAddress target;
    private final long delayNanos;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    private DelayForwarder(ServerSocket listener, InetSocketAddress target, long delayMillis) {
        this.listener = listener;
        this.target = target;
        this.delayNanos = delayMillis * 1_000_000L;
    }

    /** Listens on a free loopback port and forwards to {@code target} with a one-way delay of {@code delayMillis}. */
    public static DelayForwarder start(InetSocketAddress target, long delayMillis) throws IOException {
        if (delayMillis < 0) {
            throw new IllegalArgumentException("delay must be >= 0 ms: " + delayMillis);
        }
        ServerSocket listener = new ServerSocket(0, 128, InetAddress.getLoopbackAddress());
        DelayForwarder f = new DelayForwarder(listener, target, delayMillis);
        Thread t = new Thread(f::accept, "wan-accept-" + IDS.incrementAndGet() + "-to-" + target.getPort());
        t.setDaemon(true);
        t.start();
        return f;
    }

    /** The port senders use instead of the target's. */
    public int port() {
        return listener.getLocalPort();
    }

    private void accept() {
        while (!closed) {
            try {
                Socket in = listener.accept();
                connect(in);
            } catch (IOException e) {
                if (!closed) {
                    LOG.warn("wan forwarder to {}: accept failed: {}", target, e.toString());
                }
            }
        }
    }

    private void connect(Socket in) {
        Socket out = new Socket();
        try {
            out.connect(target, 10_000);
            in.setTcpNoDelay(true);
            out.setTcpNoDelay(true);
        } catch (IOException e) {
            // the target is down (a stopped replica): the sender sees the connection closed, as over a WAN
            closeQuietly(in);
            closeQuietly(out);
            return;
        }
        open.add(in);
        open.add(out);
        Pair pair = new Pair(in, out);
        DelayedPipe.start(in, out, delayNanos, pair::halfDone, "wan-" + in.getPort() + ">" + target.getPort());
        DelayedPipe.start(out, in, delayNanos, pair::halfDone, "wan-" + target.getPort() + ">" + in.getPort());
    }

    /** Both sockets of one relayed connection; closed once both directions ended (each side shut its output). */
    private final class Pair {
        private final Socket a;
        private final Socket b;
        private int done;

        Pair(Socket a, Socket b) {
            this.a = a;
            this.b = b;
        }

        void halfDone(boolean clean) {
            boolean both;
            synchronized (this) {
                both = ++done == 2 || !clean;
            }
            if (both) {
                closeQuietly(a);
                closeQuietly(b);
                open.remove(a);
                open.remove(b);
            }
        }
    }

    /** Stops listening and cuts every relayed connection. */
    @Override
    public void close() {
        closed = true;
        closeQuietly(listener);
        for (Socket s : open) {
            closeQuietly(s);
        }
        open.clear();
    }

    static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception e) {
            if (!(e instanceof SocketException)) {
                LOG.debug("closing {}: {}", c, e.toString());
            }
        }
    }
}
