package org.bftws.client.embedded;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.bftws.module.testing.RawHttp;

/**
 * Senders that declare a request body far above {@code bftws.http.maxRequestBytes}, send only its first bytes
 * and then nothing more, holding their sockets open: a server that waited for the declared body would keep a
 * worker thread per sender until its socket timeout.
 */
final class OversizedSenders implements AutoCloseable {
    private final List<Socket> sockets = new ArrayList<>();

    /** Opens {@code count} connections to {@code url}, each declaring {@code declared} bytes and sending {@code prefix}. */
    static OversizedSenders start(String url, String action, int count, long declared, String prefix)
            throws IOException {
        OversizedSenders senders = new OversizedSenders();
        URI uri = URI.create(url);
        byte[] head = ("POST " + uri.getPath() + " HTTP/1.1\r\nHost: " + uri.getHost() + ":" + uri.getPort()
                + "\r\nContent-Type: text/xml; charset=UTF-8\r\nSOAPAction: \"" + action + "\"\r\nContent-Length: "
                + declared + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
        try {
            for (int i = 0; i < count; i++) {
                Socket s = new Socket(uri.getHost(), uri.getPort());
                senders.sockets.add(s);
                s.setSoTimeout(120_000);
                OutputStream out = s.getOutputStream();
                out.write(head);
                out.write(prefix.getBytes(StandardCharsets.UTF_8));
                out.flush();
            }
        } catch (IOException | RuntimeException e) {
            senders.close();
            throw e;
        }
        return senders;
    }

    /**
     * Each sender's answer, read until the server closed the connection (a reset counts: the server closed
     * with bytes of the sender unread). Returns only once every server end closed.
     */
    List<String> answersOnceClosed() throws IOException {
        List<String> answers = new ArrayList<>();
        for (Socket s : sockets) {
            answers.add(RawHttp.readToEnd(s.getInputStream()));
        }
        return answers;
    }

    /** True while every sender still holds its socket open for writing. */
    boolean allStillOpen() {
        return sockets.stream().noneMatch(s -> s.isClosed() || s.isOutputShutdown());
    }

    @Override
    public void close() throws IOException {
        for (Socket s : sockets) {
            s.close();
        }
    }
}
