package org.bftws.perf.wan;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.util.Arrays;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * One direction of a relayed connection: a reader stamps each chunk with its arrival time and queues it; a
 * writer delivers it at arrival + delay. The delay is constant, so arrival order is delivery order and a FIFO
 * queue suffices. End of stream travels the same way (delivered late, then the output is shut), so a close
 * is delayed like the data before it.
 */
final class DelayedPipe {
    /** A queued chunk; {@code bytes == null} marks the end of the stream, an empty array a read error. */
    private record Chunk(long deliverAt, byte[] bytes) {
    }

    private static final byte[] ERROR = new byte[0];

    private final Socket from;
    private final Socket to;
    private final long delayNanos;
    private final Consumer<Boolean> done;
    private final BlockingQueue<Chunk> queue = new LinkedBlockingQueue<>();

    private DelayedPipe(Socket from, Socket to, long delayNanos, Consumer<Boolean> done) {
        this.from = from;
        this.to = to;
        this.delayNanos = delayNanos;
        this.done = done;
    }

    /** Relays {@code from}'s input to {@code to}'s output; {@code done} gets true after a clean end, false on error. */
    static void start(Socket from, Socket to, long delayNanos, Consumer<Boolean> done, String name) {
        DelayedPipe p = new DelayedPipe(from, to, delayNanos, done);
        thread(p::read, name + "-in");
        thread(p::write, name + "-out");
    }

    private static void thread(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        t.start();
    }

    private void read() {
        byte[] buf = new byte[64 * 1024];
        try {
            // not try-with-resources: closing a socket's stream closes the socket, whose other direction may
            // still be relaying
            InputStream in = from.getInputStream();
            while (true) {
                int n = in.read(buf);
                long at = System.nanoTime() + delayNanos;
                if (n < 0) {
                    queue.add(new Chunk(at, null));
                    return;
                }
                queue.add(new Chunk(at, Arrays.copyOf(buf, n)));
            }
        } catch (IOException e) {
            queue.add(new Chunk(System.nanoTime(), ERROR));
        }
    }

    private void write() {
        try {
            OutputStream out = to.getOutputStream();
            while (true) {
                Chunk c = queue.take();
                if (c.bytes == ERROR) {
                    done.accept(false);
                    return;
                }
                waitUntil(c.deliverAt);
                if (c.bytes == null) {
                    to.shutdownOutput();
                    done.accept(true);
                    return;
                }
                out.write(c.bytes);
                out.flush();
            }
        } catch (IOException e) {
            done.accept(false);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            done.accept(false);
        }
    }

    /** The emulated propagation delay itself (not a synchronisation): park until {@code deadline}. */
    private static void waitUntil(long deadline) {
        for (long left = deadline - System.nanoTime(); left > 0; left = deadline - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
    }
}
