package org.bftws.module.order;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Replicas this replica stops listening to for a while because their own signature proves them faulty: Aardvark's
 * answer to a flooding replica, whose traffic a correct replica stops taking in rather than processing it
 * (Clement et al., NSDI 2009 §4.2). The proof is a message no correct replica signs, checked before anything is
 * dropped for it: a client's kind of message (only clients send requests) carrying a replica's valid signature. A
 * party that claims another replica's id without its key proves nothing, so no replica can get a correct one
 * ignored. While proven, every message claiming that replica is dropped as it arrives, before its signature is
 * checked and before it takes a place in the ordering thread's queues; a group of 3f+1 still has its 2f+1 correct
 * replicas. The proof expires after {@code forNanos} (a replica restored by its operators is heard again), and a
 * replica that goes on flooding proves itself again with its first such message.
 *
 * <p>One deadline per replica in a fixed array, so what senders claim cannot grow it. Any thread.
 */
final class ProvenFaulty {
    private final AtomicLongArray until;
    private final long forNanos;

    ProvenFaulty(int replicas, long forNanos) {
        if (replicas < 1 || forNanos < 1) {
            throw new IllegalArgumentException("replicas and duration must be positive");
        }
        this.until = new AtomicLongArray(replicas);
        this.forNanos = forNanos;
        for (int i = 0; i < replicas; i++) {
            until.set(i, Long.MIN_VALUE);
        }
    }

    /** Replica {@code sender} signed what no correct replica signs, at {@code now} (System.nanoTime). */
    void proven(int sender, long now) {
        if (sender >= 0 && sender < until.length()) {
            until.set(sender, now + forNanos);
        }
    }

    /**
     * The deadline (System.nanoTime) of {@code sender}'s latest proof, which tells one proof from the next;
     * {@link Long#MIN_VALUE} if it was never proven faulty or is no replica.
     */
    long provenUntil(int sender) {
        return sender < 0 || sender >= until.length() ? Long.MIN_VALUE : until.get(sender);
    }

    /** Whether messages claiming {@code sender} are ignored at {@code now}; never for a non-replica id. */
    boolean ignored(int sender, long now) {
        if (sender < 0 || sender >= until.length()) {
            return false;
        }
        long u = until.get(sender);
        return u != Long.MIN_VALUE && now - u < 0;
    }
}
