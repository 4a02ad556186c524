package org.bftws.module.order;

import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongFunction;

import org.bftws.core.crypto.Signer;
import org.bftws.core.message.Kind;
import org.bftws.core.message.Request;
import org.bftws.core.message.SequenceOwner;
import org.bftws.core.message.Signed;
import org.bftws.module.config.BftwsConfig;
import org.bftws.module.transport.ControlMessage;
import org.bftws.module.transport.ControlPort;

/**
 * A replica's own operations ordered like requests ({@link DkgBootstrap}, {@link KeyRefresh}): each one a request
 * of the replica's reserved node id (after the clients' ids) on a sequence of its own, signed with the replica's
 * own Ed25519 key, sent to every replica's control port and resent every {@value #RESEND_SECONDS} s until
 * executed here (a client's retransmission; the client table keeps it exactly-once).
 */
final class ReservedSubmitter {
    /** Seconds between resends of the submitted, not yet executed operations. */
    static final int RESEND_SECONDS = 2;

    private final BftwsConfig config;
    private final int node;
    private final Signer signer;
    /** The id of the n-th submitted operation's sequence (n = 1, 2, ...). */
    private final LongFunction<String> sequenceIds;
    /** Submitted operations not yet executed here, by sequence id: at most what this replica's run submits. */
    private final Map<String, byte[]> unexecuted = new LinkedHashMap<>();
    private long submitted;
    /** Null until {@link #start}: what is submitted before (a journal's replay) is sent by the first resend. */
    private volatile BftwsReplica replica;
    private ScheduledExecutorService timer;

    /**
     * {@code sequenceIds} names the n-th operation's sequence, one of {@code node}'s ({@link SequenceOwner#bind}),
     * distinct for each kind of run.
     */
    ReservedSubmitter(BftwsConfig config, int node, Signer signer, LongFunction<String> sequenceIds) {
        this.config = config;
        this.node = node;
        this.signer = signer;
        this.sequenceIds = sequenceIds;
    }

    /** Starts resending; {@code everyTick} also runs on each resend (null: nothing). */
    synchronized void start(BftwsReplica replica, String threadName, Runnable everyTick) {
        this.replica = replica;
        timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, threadName);
            t.setDaemon(true);
            return t;
        });
        timer.scheduleWithFixedDelay(() -> {
            resend();
            if (everyTick != null) {
                everyTick.run();
            }
        }, RESEND_SECONDS, RESEND_SECONDS, TimeUnit.SECONDS);
    }

    void close() {
        if (timer != null) {
            timer.shutdownNow();
        }
    }

    BftwsReplica replica() {
        return replica;
    }

    /** Submits each operation for ordering. */
    synchronized void submit(List<byte[]> operations) {
        for (byte[] op : operations) {
            // One sequence per operation: the client table runs a sequence's numbers in increasing order and
            // skips a lower one ordered after a higher, so operations submitted together on one sequence could
            // be ordered out of turn and one of them lost.
            String sequenceId = sequenceIds.apply(++submitted);
            Request q = new Request(node, sequenceId, 1, false, op);
            byte[] signed = Signed.sign(Kind.REQUEST, node, q.encode(), signer).encode();
            unexecuted.put(sequenceId, signed);
            send(signed);
        }
    }

    /** {@code request}, one of this replica's, was executed: no more resends. */
    synchronized void executed(Request request) {
        unexecuted.remove(request.sequenceId());
    }

    private synchronized void resend() {
        for (byte[] signed : new ArrayList<>(unexecuted.values())) {
            send(signed);
        }
    }

    private void send(byte[] signed) {
        BftwsReplica replica = this.replica;
        if (replica == null) {
            return;
        }
        List<URI> peers = new ArrayList<>();
        for (int r = 0; r < config.n(); r++) {
            if (r != config.replicaId()) {
                peers.add(ControlPort.controlUri(config.member(r).endpoint()));
            }
        }
        replica.sender().send(peers, new ControlMessage(signed, null));
        replica.deliverClientRequest(new ControlMessage(signed, null));
    }
}
