package org.bftws.module.client;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

import org.apache.axis2.AxisFault;
import org.bftws.core.message.Request;
import org.bftws.core.pbft.Event;
import org.bftws.core.pbft.Ready;
import org.bftws.core.voter.ClientCore;
import org.bftws.module.metrics.OrderingTrace;
import org.bftws.module.metrics.PhaseTrace;

/**
 * One client's virtual sequence to the replica group (paper §3.3.1.2): core's {@link ClientCore} (signed
 * requests numbered 1, 2, ... within the sequence, retransmission, the {@link org.bftws.core.voter.Voter}).
 * One request at a time: the replicas execute a sequence's requests in message-number order and drop a
 * number below one already ordered, so a second caller waits until the first has its voted reply.
 */
final class GroupSequence {
    private final ClientCore core;
    private final GroupClientRuntime runtime;
    private final Object callLock = new Object();
    /** The one outstanding call and its message number; guarded by {@code this}. */
    private CompletableFuture<Event.Delivered> pending;
    private long pendingNumber;
    /** ClientCore numbers a sequence's requests 1, 2, ... in invoke order. */
    private long issued;

    GroupSequence(ClientCore core, GroupClientRuntime runtime) {
        this.core = core;
        this.runtime = runtime;
    }

    String id() {
        return core.sequenceId();
    }

    /**
     * Sends {@code operation} to every replica and waits for f+1 matching authentic replies: the voted result
     * and the collective random number (empty unless the operation is randomized), on which the f+1 agree too.
     */
    Event.Delivered call(byte[] operation, boolean randomized, long timeoutMillis) throws AxisFault {
        synchronized (callLock) {
            long number = ++issued;
            if (PhaseTrace.on()) {
                PhaseTrace.mark(PhaseTrace.Point.CLIENT_INVOKE, -1, PhaseTrace.request(id(), number), System.nanoTime());
            }
            return await(() -> core.invoke(operation, randomized), number, timeoutMillis);
        }
    }

    /**
     * Ends the sequence (paper §3.3.1.1, after its last message): the replicas order the client's signed
     * terminate, each turns the sequence's entry into a tombstone, and Sandesha2 terminates its side of it.
     * Returns once f+1 replicas confirmed; no call can follow.
     */
    void terminate(long timeoutMillis) throws AxisFault {
        synchronized (callLock) {
            await(core::terminate, Request.TERMINATE, timeoutMillis);
        }
    }

    private Event.Delivered await(Supplier<Ready> issue, long number, long timeoutMillis) throws AxisFault {
        CompletableFuture<Event.Delivered> f = new CompletableFuture<>();
        synchronized (this) {
            pending = f;
            pendingNumber = number;
            runtime.send(issue.get());
        }
        runtime.active(this, true);
        try {
            return f.get(timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new AxisFault("BFT-WS: no f+1 matching replies from the replica group within "
                    + timeoutMillis + " ms (sequence " + id() + ")");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AxisFault("BFT-WS: interrupted while waiting for the replicas' replies");
        } catch (ExecutionException e) {
            throw new AxisFault("BFT-WS: " + e.getCause().getMessage(), e.getCause());
        } finally {
            runtime.active(this, false);
            synchronized (this) {
                pending = null;
            }
        }
    }

    /** A reply from a replica's control message (authenticated by core). */
    synchronized void receive(byte[] signedReply) {
        long arrived = PhaseTrace.on() ? System.nanoTime() : 0;
        Ready r = core.receive(signedReply);
        if (arrived != 0) {
            OrderingTrace.clientReceived(signedReply, arrived, r);
        }
        handle(r);
    }

    synchronized void tick() {
        handle(core.tick());
    }

    private void handle(Ready r) {
        runtime.send(r);
        for (Event e : r.events) {
            // A late vote on an earlier call that timed out must not answer the current one.
            if (e instanceof Event.Delivered d && pending != null && d.request().messageNumber() == pendingNumber) {
                pending.complete(d);
            }
        }
    }
}
