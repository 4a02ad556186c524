package org.bftws.client.embedded;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import org.bftws.core.message.Request;
import org.bftws.core.message.RequestId;
import org.bftws.module.order.ReplicatedService;

/**
 * A deterministic replicated service for the ordering tests: a counter. An operation is an 8-byte amount;
 * the result is the counter after adding it. It also records the order in which requests executed, which
 * is what the tests compare across replicas (that order is not part of the state: no state transfer
 * happens in these tests).
 */
final class CounterService implements ReplicatedService {
    private long counter;
    private final List<RequestId> executed = new ArrayList<>();

    static byte[] amount(long a) {
        return ByteBuffer.allocate(8).putLong(a).array();
    }

    static long value(byte[] b) {
        return ByteBuffer.wrap(b).getLong();
    }

    @Override
    public synchronized byte[] execute(Request request, byte[] random) {
        counter += value(request.operation());
        executed.add(request.id());
        notifyAll();
        return amount(counter);
    }

    @Override
    public synchronized byte[] getState() {
        return amount(counter);
    }

    @Override
    public synchronized void setState(byte[] state) {
        counter = value(state);
    }

    synchronized List<RequestId> executed() {
        return List.copyOf(executed);
    }

    /** Waits until {@code count} requests executed here; false on timeout. */
    synchronized boolean awaitExecuted(int count, long timeoutMillis) throws InterruptedException {
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000;
        while (executed.size() < count) {
            long left = (deadline - System.nanoTime()) / 1_000_000;
            if (left <= 0) {
                return false;
            }
            wait(left);
        }
        return true;
    }
}
