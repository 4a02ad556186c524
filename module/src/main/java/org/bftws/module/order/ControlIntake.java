package org.bftws.module.order;

import java.util.concurrent.atomic.AtomicLong;

import org.apache.logging.log4j.LogManager;
import org.bftws.core.codec.DecodeException;
import org.bftws.core.message.Signed;
import org.bftws.module.RateLimitedLog;
import org.bftws.module.transport.ControlMessage;

/**
 * What a replica takes in from the control port before its ordering thread steps it, with Aardvark's defences
 * against a flooding replica (Clement et al., NSDI 2009 §4.2-§4.3), all applied on the receiving HTTP worker
 * before the message's signature is checked: a message claiming a replica {@link ProvenFaulty} is dropped (and
 * where addresses tell replicas apart, its connections are refused before this, {@link RefusedReplicas}); every
 * other one goes to its sender's bounded queue ({@link SenderQueues}; a replica's only if it came from that
 * replica's address where {@link SenderAddresses} can tell, the shared one otherwise) or, that queue full, is
 * dropped; only then is
 * its signature checked ({@link PreVerifier}), and the ordering thread serves the queues in turn.
 *
 * <p>Threads: {@link #admit} and {@link #add} on any thread, {@link #poll} on the ordering thread.
 */
final class ControlIntake<T> {
    /**
     * Received messages each sender's queue holds at least, whatever the capacity: a replica's prepares, commits
     * and checkpoints for a few default log windows (32 sequence numbers) in flight.
     */
    static final int MIN_SENDER_CAPACITY = 256;
    /**
     * How long a replica proven faulty is not listened to: long enough that proving it again (one signature check)
     * is rare work, short enough that a replica its operators restored is heard again within a view change or two.
     */
    static final long PROVEN_FAULTY_NANOS = 30_000_000_000L;
    private static final RateLimitedLog LOG = new RateLimitedLog(LogManager.getLogger(ControlIntake.class));

    private final int id;
    private final int n;
    private final PreVerifier preVerifier;
    private final SenderQueues<T> queues;
    private final ProvenFaulty faulty;
    private final SenderAddresses addresses;
    private final RefusedReplicas refusal;
    private final AtomicLong ignored = new AtomicLong();
    private final AtomicLong misattributed = new AtomicLong();

    /**
     * @param id       this replica
     * @param n        the group's replicas
     * @param capacity received messages queued before further ones are dropped (retransmitted later), shared
     *                 equally by the queues of the n replicas and of all other senders
     * @param addresses which addresses each replica's messages come from, to choose their queue by
     */
    ControlIntake(int id, int n, int capacity, PreVerifier preVerifier, SenderAddresses addresses) {
        this.id = id;
        this.addresses = addresses;
        this.n = n;
        this.preVerifier = preVerifier;
        this.queues = new SenderQueues<>(n, Math.max(MIN_SENDER_CAPACITY, capacity / (n + 1)));
        this.faulty = new ProvenFaulty(n, PROVEN_FAULTY_NANOS);
        this.refusal = new RefusedReplicas(id, n, addresses, faulty);
    }

    /** The refusal, at the HTTP server, of the replicas this intake proves faulty ({@link RefusedReplicas}). */
    RefusedReplicas refusal() {
        return refusal;
    }

    /**
     * A place for {@code message}, received at {@code arrived} (System.nanoTime), in its sender's queue, its
     * signature then checked; -1 if it is dropped. A place taken is filled with {@link #add}.
     */
    int admit(ControlMessage message, long arrived) {
        Signed claimed = envelope(message.signedBytes());
        int sender = claimed == null ? -1 : claimed.sender();
        if (faulty.ignored(sender, arrived)) {
            ignored.incrementAndGet();
            return -1;
        }
        boolean refused = claimed != null && refusedBySender(claimed);
        if (refused && claimed.verify(preVerifier.remembering())) {
            faulty.proven(sender, arrived);
            LOG.warn("proven faulty " + sender, "replica {}: replica {} signed a client's {}: ignoring its messages"
                    + " for {} s", id, sender, claimed.kind(), PROVEN_FAULTY_NANOS / 1_000_000_000L);
        }
        int lane = queues.lane(sender);
        if (lane < n && !addresses.mayClaim(lane, message.source())) {
            misattributed.incrementAndGet();
            lane = n; // not from that replica's address: the shared queue, so a spoofer cannot fill its queue
        }
        if (!queues.reserve(lane)) {
            if (lane < n) {
                LOG.warn("queue full " + lane, "replica {}: dropping messages of replica {}, above its share of the"
                        + " ordering queue ({} dropped so far)", id, lane, queues.dropped(lane));
            }
            return -1;
        }
        if (claimed != null && !refused) {
            try {
                preVerifier.preVerify(claimed); // decoded once, for its sender, above
            } catch (RuntimeException e) {
                queues.release(lane); // the place is not filled: the lane must not shrink for it
                throw e;
            }
        }
        return lane;
    }

    /** The message for the place {@link #admit} took in {@code lane}. */
    void add(int lane, T message) {
        queues.add(lane, message);
    }

    /** The next message in turn (ordering thread); null if none. */
    T poll() {
        return queues.poll();
    }

    /** The envelope, its sender claimed and not yet authenticated; null for bytes that are none. */
    private static Signed envelope(byte[] signedBytes) {
        try {
            return Signed.decode(signedBytes);
        } catch (DecodeException | IllegalArgumentException e) {
            return null; // core records the malformed envelope as evidence
        }
    }

    /**
     * A client's kind of message claimed by a replica: core refuses it by its sender alone (only clients send
     * requests), and with that replica's valid signature it proves the replica faulty ({@link ProvenFaulty}).
     */
    private boolean refusedBySender(Signed claimed) {
        return claimed.kind().fromClient() && claimed.sender() >= 0 && claimed.sender() < n;
    }

    /** Messages admitted and not yet polled. */
    int queued() {
        return queues.size();
    }

    /** Messages dropped because their sender's queue was full, all senders. */
    long dropped() {
        return queues.dropped();
    }

    /** Messages dropped because the queue of {@code lane} (a replica, or n: every other sender) was full. */
    long dropped(int lane) {
        return queues.dropped(lane);
    }

    /** Messages that claimed a replica but came from another address, queued with every other sender's. */
    long misattributed() {
        return misattributed.get();
    }

    /** Messages dropped because they claimed a replica proven faulty. */
    long ignored() {
        return ignored.get();
    }
}
