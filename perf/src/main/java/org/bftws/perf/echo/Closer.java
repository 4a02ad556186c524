package org.bftws.perf.echo;

import java.util.ArrayDeque;
import java.util.Deque;

/** Closes what was registered, last first; every close is attempted, the first failure is rethrown. */
final class Closer implements AutoCloseable {
    private final Deque<AutoCloseable> open = new ArrayDeque<>();

    synchronized <T extends AutoCloseable> T register(T resource) {
        open.push(resource);
        return resource;
    }

    @Override
    public void close() throws Exception {
        Exception first = null;
        while (true) {
            AutoCloseable next;
            synchronized (this) {
                next = open.poll();
            }
            if (next == null) {
                break;
            }
            try {
                next.close();
            } catch (Exception e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
