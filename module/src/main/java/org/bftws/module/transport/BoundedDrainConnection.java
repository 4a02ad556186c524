package org.bftws.module.transport;

import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.SequenceInputStream;
import java.net.InetAddress;
import java.net.SocketTimeoutException;
import java.util.Locale;

import org.apache.axis2.transport.http.server.AxisHttpConnection;
import org.apache.http.HttpConnectionMetrics;
import org.apache.http.HttpException;
import org.apache.http.HttpRequest;
import org.apache.http.HttpResponse;
import org.apache.http.StatusLine;
import org.apache.http.impl.EnglishReasonPhraseCatalog;
import org.apache.http.protocol.HTTP;
import org.bftws.module.http.ReplayableBody;

/**
 * An HTTP server connection that never reads more than {@link #DRAIN_BYTES} of a request body its service left
 * unread. Axis2's server consumes the rest of every request body before it finishes the response, so a
 * request refused early (a declared body above {@code bftws.http.maxRequestBytes}, malformed XML, a refused
 * header) held its worker thread until the sender had sent everything it declared, or until the socket timed
 * out (20 s by default): a few senders of oversized bodies in parallel could hold the whole pool. Here the
 * leftover is drained for at most {@link #DRAIN_BYTES} bytes and {@link #DRAIN_MILLIS} ms (enough for the
 * tail of an ordinary request, so keep-alive survives); beyond that the response is finished and the
 * connection closed after a lingering close: the rest of the body is read and discarded for at most
 * {@link #LINGER_MILLIS} after the response went out, as Apache httpd's lingering close does. Closing at once
 * with the sender's bytes unread makes the kernel reset the connection, and a reset can reach the sender
 * before it read the fault, which it then never sees. A refusal (status 400 and above) says
 * {@code Connection: close} and ends its connection the same way, so no client reuses a connection this side
 * closes. A refused request holds its thread for at most {@link #DRAIN_MILLIS} + {@link #LINGER_MILLIS} instead
 * of the socket timeout. The heads it sends carry their status code's standard reason phrase, never a fault's
 * text ({@link #standardReason}).
 */
final class BoundedDrainConnection implements AxisHttpConnection {
    /**
     * The most of an unread request body drained to keep the connection: Tomcat's {@code maxSwallowSize}
     * idea, smaller (64 KiB), since a group's clients send whole requests and only a refused sender leaves
     * a large tail.
     */
    static final int DRAIN_BYTES = 64 * 1024;
    /** The longest a drain waits for the sender's next bytes: a stalled sender must not hold the thread. */
    static final int DRAIN_MILLIS = 200;
    /**
     * The longest the lingering close reads after the response: long enough for a sender on the same LAN to
     * finish a body it had in flight or to read the fault and close, short enough that refused senders cannot
     * hold the pool.
     */
    static final int LINGER_MILLIS = 1000;

    private final AxisHttpConnection conn;
    private Body body;

    BoundedDrainConnection(AxisHttpConnection conn) {
        this.conn = conn;
    }

    @Override
    public HttpRequest receiveRequest() throws HttpException, IOException {
        HttpRequest request = conn.receiveRequest();
        InputStream in = conn.getInputStream();
        body = in == null ? null : new Body(in);
        return request;
    }

    @Override
    public InputStream getInputStream() {
        return body;
    }

    /** Ends the exchange: closes the connection instead of reading the rest of a body that was not drained. */
    @Override
    public void reset() throws IOException {
        if (body != null && body.endsConnection()) {
            lingeringClose();
        } else {
            conn.reset();
        }
        body = null;
    }

    /** The response is out: discard what the sender still sends, for a bounded time, then close. */
    private void lingeringClose() throws IOException {
        Body abandoned = body;
        body = null;
        try {
            conn.flush();
            abandoned.discard(Long.MAX_VALUE, LINGER_MILLIS);
        } finally {
            conn.close();
        }
    }

    /**
     * A refusal (status 400 and above) tells the sender that the connection ends with it: the refused body may
     * be left unread, and a keep-alive client that pooled the connection would send its next request into a
     * connection this side is closing, and lose it to the reset. Its head goes out before the body is drained,
     * so the decision cannot wait for the drain.
     */
    @Override
    public void sendResponse(HttpResponse response) throws HttpException, IOException {
        standardReason(response);
        if (body != null && response.getStatusLine().getStatusCode() >= 400) {
            body.refused = true;
            response.setHeader(HTTP.CONN_DIRECTIVE, HTTP.CONN_CLOSE);
        }
        conn.sendResponse(response);
    }

    /**
     * Puts the status code's standard reason phrase in the head. Axis2's server puts a fault's text there
     * ({@code AxisHttpService} answers a failed request with {@code sendError(status, fault.getMessage())}),
     * but the head is written in ISO-8859-1 and read by Axis2's client as UTF-8: a non-ASCII character in the
     * text (the "§" of a refusal citing the paper) made the client's parse of the head fail
     * (MalformedInputException) and the fault was never read; a line break in it would split the head. The
     * fault's text travels in the SOAP body, encoded as its Content-Type says.
     */
    static void standardReason(HttpResponse response) {
        StatusLine line = response.getStatusLine();
        int code = line.getStatusCode();
        // the catalog refuses codes outside 100..599 (it knows none there)
        String reason = code < 100 || code > 599 ? null : EnglishReasonPhraseCatalog.INSTANCE.getReason(code,
                Locale.ENGLISH);
        response.setStatusLine(line.getProtocolVersion(), code, reason);
    }

    @Override
    public OutputStream getOutputStream() {
        return conn.getOutputStream();
    }

    @Override
    public void flush() throws IOException {
        conn.flush();
    }

    @Override
    public void close() throws IOException {
        if (body != null && body.endsConnection()) {
            lingeringClose();
        } else {
            conn.close();
        }
    }

    @Override
    public boolean isOpen() {
        return conn.isOpen();
    }

    @Override
    public boolean isStale() {
        return conn.isStale();
    }

    @Override
    public void setSocketTimeout(int timeout) {
        conn.setSocketTimeout(timeout);
    }

    @Override
    public int getSocketTimeout() {
        return conn.getSocketTimeout();
    }

    @Override
    public void shutdown() throws IOException {
        conn.shutdown();
    }

    @Override
    public HttpConnectionMetrics getMetrics() {
        return conn.getMetrics();
    }

    @Override
    public InetAddress getLocalAddress() {
        return conn.getLocalAddress();
    }

    @Override
    public int getLocalPort() {
        return conn.getLocalPort();
    }

    @Override
    public InetAddress getRemoteAddress() {
        return conn.getRemoteAddress();
    }

    @Override
    public int getRemotePort() {
        return conn.getRemotePort();
    }

    /**
     * The request body; {@link #close} drains what is left for at most {@link #DRAIN_BYTES} and
     * {@link #DRAIN_MILLIS}, and marks the body abandoned when that did not reach its end. After a refusal it
     * drains nothing: the connection ends anyway, and a drain there would only hold back the fault.
     */
    private final class Body extends FilterInputStream implements ReplayableBody {
        boolean abandoned;
        /** The response was a refusal and said {@code Connection: close}. */
        boolean refused;
        private boolean closed;

        Body(InputStream in) {
            super(in);
        }

        @Override
        public void unread(byte[] head) {
            in = new SequenceInputStream(new ByteArrayInputStream(head), in);
        }

        @Override
        public void close() throws IOException {
            if (closed) {
                return;
            }
            closed = true;
            if (refused) {
                return; // the connection ends after the response: the lingering close discards the rest then
            }
            if (drained()) {
                in.close(); // at the end: releases the stream without reading
            } else {
                abandoned = true;
            }
        }

        boolean endsConnection() {
            return abandoned || refused;
        }

        private boolean drained() {
            return discard(DRAIN_BYTES, DRAIN_MILLIS);
        }

        /** Reads and drops at most {@code bytes} for at most {@code millis}; true when the body's end came. */
        boolean discard(long bytes, int millis) {
            int timeout = conn.getSocketTimeout();
            long deadline = System.nanoTime() + millis * 1_000_000L;
            byte[] buf = new byte[8192];
            long left = bytes;
            try {
                while (left > 0) {
                    long wait = (deadline - System.nanoTime()) / 1_000_000L;
                    if (wait <= 0) {
                        return false;
                    }
                    conn.setSocketTimeout((int) wait);
                    int n = in.read(buf, 0, (int) Math.min(buf.length, left));
                    if (n < 0) {
                        return true;
                    }
                    left -= n;
                }
                return false;
            } catch (SocketTimeoutException e) {
                return false;
            } catch (IOException e) {
                return false; // broken or malformed (a bad chunk header): nothing worth keeping
            } finally {
                conn.setSocketTimeout(timeout);
            }
        }
    }
}
