package org.bftws.perf.breakdown;

import java.util.concurrent.atomic.AtomicLong;

import org.bftws.core.message.Kind;
import org.bftws.core.engine.Event;
import org.bftws.module.BftwsRuntime;
import org.bftws.module.client.GroupClientRuntime;
import org.bftws.module.keys.GroupKeyMaterial;
import org.bftws.module.metrics.CryptoCounts;
import org.bftws.module.order.BftwsReplica;
import org.bftws.module.order.TotalOrderManager;
import org.bftws.perf.echo.ReplicaGroup;

/**
 * The work counters of a running group at one instant: Ed25519 signatures made and checked per message kind
 * (replicas summed, and the client), answers from the pre-verifiers' memory, HTTP POSTs and the bytes of their
 * envelopes, and the batches replica 0 committed. {@link #minus} gives what happened between two snapshots.
 * {@code macs}: the group authenticates prepares and commits with authenticators ({@code bftws.authentication=macs}).
 */
record GroupCounts(long[] replicaSigned, long[] replicaVerified, long[] clientSigned, long[] clientVerified,
        long preVerifiedHits, long replicaPosts, long replicaBytes, long clientPosts, long clientBytes, long batches,
        long batchedRequests, boolean macs) {

    /** Counts the batches replica 0 commits and their requests (on its ordering thread). */
    static final class Batches implements TotalOrderManager.EventListener {
        final AtomicLong batches = new AtomicLong();
        final AtomicLong requests = new AtomicLong();

        @Override
        public void onEvent(Event event, long nanoTime) {
            if (event instanceof Event.Committed c) {
                batches.incrementAndGet();
                requests.addAndGet(c.batch().size());
            }
        }
    }

    static GroupCounts of(ReplicaGroup group, Batches batches) {
        int kinds = Kind.values().length;
        long[] rs = new long[kinds];
        long[] rv = new long[kinds];
        long hits = 0;
        long posts = 0;
        long bytes = 0;
        for (int r = 0; r < group.n(); r++) {
            CryptoCounts c = BftwsRuntime.keys(group.context(r)).counts();
            add(rs, rv, c);
            BftwsReplica replica = BftwsRuntime.replica(group.context(r));
            hits += replica.manager().preVerifiedHits();
            posts += replica.sender().posts();
            bytes += replica.sender().postedBytes();
        }
        long[] cs = new long[kinds];
        long[] cv = new long[kinds];
        GroupKeyMaterial clientKeys = BftwsRuntime.keys(group.clientContext());
        add(cs, cv, clientKeys.counts());
        GroupClientRuntime client = BftwsRuntime.runningClient(group.clientContext());
        long clientPosts = client == null ? 0 : client.sender().posts();
        long clientBytes = client == null ? 0 : client.sender().postedBytes();
        return new GroupCounts(rs, rv, cs, cv, hits, posts, bytes, clientPosts, clientBytes, batches.batches.get(),
                batches.requests.get(), BftwsRuntime.keys(group.context(0)).macs() != null);
    }

    private static void add(long[] signed, long[] verified, CryptoCounts c) {
        for (Kind k : Kind.values()) {
            signed[k.ordinal()] += c.signed(k);
            verified[k.ordinal()] += c.verified(k);
        }
    }

    GroupCounts minus(GroupCounts before) {
        return new GroupCounts(minus(replicaSigned, before.replicaSigned), minus(replicaVerified, before.replicaVerified),
                minus(clientSigned, before.clientSigned), minus(clientVerified, before.clientVerified),
                preVerifiedHits - before.preVerifiedHits, replicaPosts - before.replicaPosts,
                replicaBytes - before.replicaBytes, clientPosts - before.clientPosts, clientBytes - before.clientBytes,
                batches - before.batches, batchedRequests - before.batchedRequests, macs);
    }

    private static long[] minus(long[] a, long[] b) {
        long[] d = new long[a.length];
        for (int i = 0; i < a.length; i++) {
            d[i] = a[i] - b[i];
        }
        return d;
    }

    long replicaSigned(Kind k) {
        return replicaSigned[k.ordinal()];
    }

    long replicaVerified(Kind k) {
        return replicaVerified[k.ordinal()];
    }

    long clientSigned(Kind k) {
        return clientSigned[k.ordinal()];
    }

    long clientVerified(Kind k) {
        return clientVerified[k.ordinal()];
    }

    /** Requests per committed batch at replica 0. */
    double meanBatch() {
        return batches == 0 ? 0 : (double) batchedRequests / batches;
    }
}
