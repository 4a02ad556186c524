package org.bftws.module.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;

/** Raw HTTP/1.1 over a socket, for tests that must see what a server does with the connection itself. */
public final class RawHttp {
    private RawHttp() {
    }

    /**
     * Everything the server sends until it closes the connection; a reset counts as closing (a server that
     * closes with bytes of ours unread resets the connection).
     */
    public static String readToEnd(InputStream in) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        byte[] buf = new byte[4096];
        try {
            for (int n; (n = in.read(buf)) >= 0;) {
                all.write(buf, 0, n);
            }
        } catch (SocketException reset) {
            // closed by the server with our bytes unread
        }
        return all.toString(StandardCharsets.UTF_8);
    }
}
