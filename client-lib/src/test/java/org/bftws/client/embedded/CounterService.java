package org.bftws.client.embedded;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import org.bftws.core.message.Request;
import org.bftws.core.message.RequestId;
import org.bftws.module.order.ReplicatedService;

/**
 * A deterministic replicated service for the ordering tests: a counter. An operation is an 8-byte amount;
 * the result is the counter after adding it. It also records the order in which requests executed, which
 * is what the tests compare across replicas. That order is part of the state: a correct replica that trailed
 * when a checkpoint became stable may catch up by state transfer (Castro-Liskov §4.3), and then holds the
 * order the checkpoint's 2f+1 signers executed, which is also what their checkpoint digests agree on.
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
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeLong(counter);
            out.writeInt(executed.size());
            for (RequestId id : executed) {
                out.writeUTF(id.sequenceId());
                out.writeLong(id.messageNumber());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    @Override
    public synchronized void setState(byte[] state) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(state))) {
            counter = in.readLong();
            executed.clear();
            for (int i = in.readInt(); i > 0; i--) {
                executed.add(new RequestId(in.readUTF(), in.readLong()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        notifyAll();
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
