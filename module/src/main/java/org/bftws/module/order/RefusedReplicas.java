package org.bftws.module.order;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

import org.apache.logging.log4j.LogManager;
import org.bftws.module.RateLimitedLog;
import org.bftws.module.http.PostRefusal;

/**
 * The control port's refusal, at the HTTP server, of a replica {@link ProvenFaulty}: Aardvark stops reading a
 * flooding replica's network interface altogether (Clement et al., NSDI 2009 §4.2), so its traffic costs the
 * correct replicas nothing beyond the interrupt. Dropping its messages at the intake ({@link ControlIntake}) still
 * pays for their receipt, HTTP parsing and envelope decoding; here a POST from its address is answered 503 before
 * its body is read ({@link PostRefusal}), and its sender, which takes that for a failed transport, backs off.
 *
 * <p>Only where the connection's address tells replicas apart ({@link SenderAddresses} checking): a replica is
 * refused by its address, which a replica on one host shares with the others. Only for as long as the proof
 * holds: when it expires the replica is heard again, and proves itself again with its first request if it goes on.
 * Only the control port: a client's traffic to the service never comes here (a client on the faulty replica's
 * host that sends requests to the control port, with {@code requestsOnControlPort}, is refused with it).
 *
 * <p>Any thread.
 */
final class RefusedReplicas implements PostRefusal {
    private static final RateLimitedLog LOG = new RateLimitedLog(LogManager.getLogger(RefusedReplicas.class));

    private final int id;
    private final SenderAddresses addresses;
    private final ProvenFaulty faulty;
    private final AtomicLong refused = new AtomicLong();
    /** Per replica, the proof (its deadline) whose first refusal was logged: one line per proof. */
    private final AtomicLongArray logged;

    /**
     * @param id        this replica, named in the log
     * @param addresses the replicas' addresses; with the check off nothing is refused
     * @param faulty    the replicas proven faulty, as the intake proves them
     */
    RefusedReplicas(int id, int n, SenderAddresses addresses, ProvenFaulty faulty) {
        this.id = id;
        this.addresses = addresses;
        this.faulty = faulty;
        this.logged = new AtomicLongArray(n);
    }

    @Override
    public boolean refuses(String remoteAddress) {
        return refuses(remoteAddress, System.nanoTime());
    }

    /** Whether a POST from {@code source} is refused at {@code now} (System.nanoTime); counted if so. */
    boolean refuses(String source, long now) {
        int replica = addresses.replicaAt(source);
        if (replica < 0 || !faulty.ignored(replica, now)) {
            return false;
        }
        refused.incrementAndGet();
        long proof = faulty.provenUntil(replica);
        if (logged.get(replica) != proof && logged.getAndSet(replica, proof) != proof) {
            LOG.warn("refused " + replica, "replica {}: refusing the control port's POSTs from replica {}'s address"
                    + " {}, unread, while it is proven faulty", id, replica, source);
        }
        return true;
    }

    /** POSTs refused so far. */
    long refused() {
        return refused.get();
    }
}
