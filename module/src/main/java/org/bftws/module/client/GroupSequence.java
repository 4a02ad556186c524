package org.bftws.module.client;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import org.apache.axis2.AxisFault;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.bftws.core.message.Request;
import org.bftws.core.engine.Event;
import org.bftws.core.engine.Ready;
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
    private static final Logger LOG = LogManager.getLogger(GroupSequence.class);
    private final ClientCore core;
    private final GroupClientRuntime runtime;
    private final Object callLock = new Object();
    /** The one outstanding call and its message number; guarded by {@code this}. */
    private CompletableFuture<Event.Delivered> pending;
    private long pendingNumber;

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
     * A read-only call (not randomized: a random number needs ordering) waits for 2f+1 matching replies to the
     * unordered request, or for the f+1 of its ordered fallback (Castro-Liskov §5.1.3). Either way it is
     * delivered under the sequence's next message number, which only an ordered request consumes.
     */
    Event.Delivered call(GroupClientRuntime.OperationBytes operation, boolean randomized, boolean readOnly,
            long timeoutMillis) throws AxisFault {
        synchronized (callLock) {
            if (PhaseTrace.on()) {
                PhaseTrace.mark(PhaseTrace.Point.CLIENT_INVOKE, -1, PhaseTrace.request(id(), core.nextMessageNumber()),
                        System.nanoTime());
            }
            // the bytes may depend on the number the request takes (a sealed payload's label): made just before
            Supplier<Ready> issue = readOnly && !randomized
                    ? () -> core.invokeReadOnly(operation.of(id(), core.nextMessageNumber()))
                    : () -> core.invoke(operation.of(id(), core.nextMessageNumber()), randomized);
            return await(issue, core::nextMessageNumber, timeoutMillis);
        }
    }

    /**
     * As {@link #call} (not read-only), under message number {@code number} of a sequence the members of a
     * replicated client share (BFT-WS §3.4, {@link ClientCore#invokeNumbered}): a retry with the same number
     * resends the same request.
     */
    Event.Delivered callNumbered(long number, byte[] operation, boolean randomized, long timeoutMillis)
            throws AxisFault {
        synchronized (callLock) {
            try {
                return await(() -> core.invokeNumbered(number, operation, randomized), () -> number, timeoutMillis);
            } catch (IllegalArgumentException e) {
                throw new AxisFault("BFT-WS: " + e.getMessage());
            }
        }
    }

    /**
     * Ends the sequence (paper §3.3.1.1, after its last message): the replicas order the client's signed
     * terminate, each turns the sequence's entry into a tombstone, and Sandesha2 terminates its side of it.
     * Returns once f+1 replicas confirmed; no call can follow.
     */
    void terminate(long timeoutMillis) throws AxisFault {
        synchronized (callLock) {
            await(core::terminate, () -> Request.TERMINATE, timeoutMillis);
        }
    }

    private Event.Delivered await(Supplier<Ready> issue, LongSupplier number, long timeoutMillis) throws AxisFault {
        CompletableFuture<Event.Delivered> f = new CompletableFuture<>();
        synchronized (this) {
            pending = f;
            pendingNumber = number.getAsLong();
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
            if (e instanceof Event.ReadOnlyFallback fb) {
                LOG.debug("bftws client: read-only call ordered as {}: {}", fb.request(), fb.why());
            }
            // A late vote on an earlier call that timed out must not answer the current one.
            if (e instanceof Event.Delivered d && pending != null && d.request().messageNumber() == pendingNumber) {
                pending.complete(d);
            }
        }
    }
}
