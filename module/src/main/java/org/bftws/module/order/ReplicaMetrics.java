package org.bftws.module.order;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongSupplier;

import org.bftws.core.message.Kind;
import org.bftws.module.http.HttpRoute;
import org.bftws.module.http.RouteResponse;
import org.bftws.module.journal.JournalStore;
import org.bftws.core.crypto.threshold.CoinCounts;
import org.bftws.module.metrics.CryptoCounts;
import org.bftws.module.metrics.OrderingMetrics;
import org.bftws.module.metrics.PrometheusText;
import org.bftws.module.transport.MulticastSender;

/**
 * A replica's {@code GET /metrics} in Prometheus's text format (docs/operating.md, "Prometheus"): what its
 * MBean shows and what its Total Order Manager, Multicast Sender, keys and journal count, each sample labelled
 * with the replica's id and group. Reads only thread-safe counters and the ordering thread's published snapshot,
 * so a scrape never disturbs ordering; its size is bounded (evidence kinds and message kinds are bounded sets).
 */
public final class ReplicaMetrics implements HttpRoute {
    /** Where every replica serves its metrics. */
    public static final String PATH = "/metrics";

    private final ReplicaStatus status;
    private final TotalOrderManager manager;
    private final MulticastSender sender;
    private final List<URI> replicaControl;
    private final CryptoCounts crypto;
    private final LongSupplier refusedRequests;
    private final Map<String, String> labels;

    ReplicaMetrics(ReplicaStatus status, TotalOrderManager manager, MulticastSender sender, List<URI> replicaControl,
            CryptoCounts crypto, LongSupplier refusedRequests) {
        this.status = status;
        this.manager = manager;
        this.sender = sender;
        this.replicaControl = List.copyOf(replicaControl);
        this.crypto = crypto;
        this.refusedRequests = refusedRequests;
        Map<String, String> l = new LinkedHashMap<>();
        l.put("group", status.getGroupEndpoint());
        l.put("replica", Integer.toString(status.getReplicaId()));
        this.labels = l;
    }

    @Override
    public RouteResponse get(String path, String query) {
        if (!path.equals(PATH)) {
            return RouteResponse.text(404, "not found");
        }
        return RouteResponse.ok(PrometheusText.CONTENT_TYPE, text());
    }

    /** The exposition, every family once. */
    public String text() {
        PrometheusText t = new PrometheusText(labels);
        ReplicaSnapshot s = manager.snapshot();
        OrderingMetrics m = manager.metrics();
        t.labelled("bftws_replica_info", "The replica's ordering mode (value always 1).", "gauge", "mode",
                Map.of(status.getOrderingMode(), 1));
        t.gauge("bftws_replicas", "Replicas in the group, n = 3f+1.", status.getReplicas());
        t.gauge("bftws_ordering_stopped", "1 if ordering stopped on an internal error (the replica is as good as"
                + " crashed).", manager.failure() == null ? 0 : 1);
        ordering(t, s, m);
        queues(t, s);
        t.histograms("bftws_phase_duration_seconds", "Latency per phase at this replica: queue (arrival to the"
                + " ordering thread), step (one step of core), agreement (pre-prepare to commit, PBFT only),"
                + " execution (one ordered batch).", "phase", m.phases());
        t.labelled("bftws_evidence_total", "Evidence core reported (messages a correct peer would not send), by"
                + " kind.", "counter", "kind", manager.evidenceCounts().byKind());
        multicast(t);
        cryptography(t, m);
        journal(t, manager.journal());
        return t.toString();
    }

    private void ordering(PrometheusText t, ReplicaSnapshot s, OrderingMetrics m) {
        t.counter("bftws_requests_ordered_total", "Requests in batches committed here (asynchronous ordering:"
                + " delivered rounds).", m.requestsOrdered());
        t.counter("bftws_batches_committed_total", "Batches committed here.", m.batchesCommitted());
        t.counter("bftws_requests_executed_total", "Ordered requests this replica executed (not those it caught up"
                + " on by state transfer).", m.requestsExecuted());
        t.counter("bftws_batches_executed_total", "Ordered batches this replica executed.", m.batchesExecuted());
        t.counter("bftws_read_only_requests_executed_total", "Read-only requests executed without ordering.",
                manager.readOnlyExecuted());
        t.counter("bftws_read_only_fallbacks_total", "Read-only requests ordered after all (no 2f+1 matching"
                + " replies in time).", m.readOnlyFallbacks());
        t.gauge("bftws_view", "The current view (0 throughout with asynchronous ordering).", s.view());
        t.gauge("bftws_primary", "The primary of the current view; -1 with asynchronous ordering.", s.primary());
        t.gauge("bftws_view_active", "0 while a view change is in progress.", s.active() ? 1 : 0);
        t.counter("bftws_view_changes_total", "View changes this replica started.", m.viewChanges());
        t.counter("bftws_views_entered_total", "New views this replica entered.", m.viewsEntered());
        t.gauge("bftws_last_committed_sequence", "The highest sequence number (asynchronous: round) committed.",
                m.lastCommitted());
        t.gauge("bftws_last_executed_sequence", "The highest sequence number executed.", s.lastExecuted());
        t.gauge("bftws_stable_checkpoint_sequence", "The last stable checkpoint, the low watermark.",
                s.stableCheckpoint());
        t.counter("bftws_checkpoints_stable_total", "Checkpoints that became stable here.", m.checkpointsStable());
        t.counter("bftws_state_transfers_total", "Stable checkpoints installed from other replicas by state"
                + " transfer.", manager.statesTransferred());
        t.gauge("bftws_journal_recovered_checkpoint_sequence", "The stable checkpoint this replica restarted from"
                + " out of its journal; -1 if none.", status.getRecoveredFromJournal());
    }

    private void queues(PrometheusText t, ReplicaSnapshot s) {
        t.gauge("bftws_ordering_queue_messages", "Received control messages waiting for the ordering thread.",
                manager.inboundQueued());
        t.counter("bftws_ordering_queue_dropped_total", "Received control messages dropped because the ordering"
                + " queue was full.", manager.inboundDropped());
        Map<String, Long> bySender = new TreeMap<>();
        for (int r = 0; r <= replicaControl.size(); r++) {
            bySender.put(r < replicaControl.size() ? Integer.toString(r) : "others", manager.inboundDropped(r));
        }
        t.labelled("bftws_ordering_queue_dropped_by_sender_total", "Received control messages dropped because"
                + " their sender's queue was full, by sending replica (others: clients and any other sender).",
                "counter", "sender", bySender);
        t.counter("bftws_ordering_queue_misattributed_total", "Received control messages that claimed a replica but"
                + " came from another network address, queued with the clients' instead of that replica's.",
                manager.inboundMisattributed());
        t.counter("bftws_ordering_ignored_from_faulty_total", "Received control messages dropped on arrival because"
                + " they claimed a replica whose own signature proved it faulty.", manager.ignoredFromFaulty());
        t.counter("bftws_ordering_refused_from_faulty_total", "POSTs to the control port refused at the HTTP server,"
                + " unread, because they came from the address of a replica proven faulty.", manager.inboundRefused());
        t.gauge("bftws_pending_requests", "Client requests received and not yet executed.", s.pendingRequests());
        t.gauge("bftws_log_slots", "Slots in the message log (asynchronous: messages buffered for later rounds).",
                s.logSize());
        t.gauge("bftws_client_table_entries", "Sequences in the client table, tombstones included (bounded by"
                + " bftws.clientTableRetention).", s.clientTable());
        t.counter("bftws_client_requests_refused_total", "Client requests refused on the control port (they must"
                + " come through WS-RM).", refusedRequests.getAsLong());
        t.gauge("bftws_seconds_since_last_step", "Seconds since the ordering thread last finished a step.",
                status.getMillisSinceLastStep() / 1000.0);
    }

    private void multicast(PrometheusText t) {
        Map<String, Integer> held = new TreeMap<>();
        for (int r = 0; r < replicaControl.size(); r++) {
            if (r != status.getReplicaId()) {
                held.put(Integer.toString(r), sender.held(replicaControl.get(r)));
            }
        }
        t.labelled("bftws_multicast_held_messages", "Messages the Multicast Sender holds for a peer replica:"
                + " waiting or unacknowledged.", "gauge", "peer", held);
        t.gauge("bftws_peers_down", "Peer replicas the Multicast Sender has marked down.",
                status.getPeersDown().length);
        t.counter("bftws_multicast_acknowledged_total", "Messages acknowledged with HTTP 2xx.", sender.sent());
        t.counter("bftws_multicast_refused_total", "Messages refused with a SOAP fault or HTTP 4xx.",
                sender.refused());
        t.counter("bftws_multicast_given_up_total", "Messages released unacknowledged.", sender.givenUp());
        t.counter("bftws_multicast_dropped_total", "Waiting messages dropped because a peer's buffer was full.",
                sender.dropped());
        t.counter("bftws_multicast_posts_total", "HTTP POSTs, retransmissions included.", sender.posts());
        t.counter("bftws_multicast_posted_bytes_total", "Bytes of the envelopes posted.", sender.postedBytes());
        t.gauge("bftws_multicast_destinations", "Addresses with a destination: the peers and the reply addresses"
                + " of clients with traffic in the last minute.", sender.destinations());
    }

    private void cryptography(PrometheusText t, OrderingMetrics m) {
        t.labelled("bftws_signatures_total", "Ed25519 signatures made, by message kind.", "counter", "kind",
                byKind(crypto.signedByKind()));
        t.labelled("bftws_signature_verifications_total", "Ed25519 signatures checked, by message kind.",
                "counter", "kind", byKind(crypto.verifiedByKind()));
        Map<String, Long> failed = new TreeMap<>();
        for (Kind k : Kind.values()) {
            if (crypto.failed(k) > 0) {
                failed.put(k.name(), crypto.failed(k));
            }
        }
        t.labelled("bftws_signature_verification_failures_total", "Ed25519 checks that failed, by message kind.",
                "counter", "kind", failed);
        CoinCounts coins = crypto.coins();
        t.counter("bftws_coin_shares_made_total", "Threshold-coin shares this replica computed.", coins.sharesMade());
        t.counter("bftws_coin_shares_verified_total", "Threshold-coin shares checked, valid or not.",
                coins.sharesVerified());
        t.counter("bftws_coin_shares_invalid_total", "Threshold-coin shares that failed their check.",
                coins.sharesInvalid());
        t.counter("bftws_coins_combined_total", "Coins combined from k shares.", coins.combined());
        t.counter("bftws_randomness_agreed_batches_total", "Batches whose random numbers the group agreed on"
                + " with the BA algorithm (a certified set of contributions).", m.randomnessAgreed());
        t.counter("bftws_decryption_share_messages_made_total", "Messages of TDH2 decryption shares this replica"
                + " signed (one per batch with confidential requests).", crypto.signed(Kind.DECRYPTION_SHARE));
        t.counter("bftws_decryption_share_messages_verified_total", "Messages of TDH2 decryption shares checked.",
                crypto.verified(Kind.DECRYPTION_SHARE));
    }

    private static void journal(PrometheusText t, JournalStore journal) {
        if (journal == null) {
            return;
        }
        t.counter("bftws_journal_writes_total", "Appends to the journal (each a write, and an fsync with"
                + " bftws.journal.durability=fsync).", journal.writes());
        t.counter("bftws_journal_records_total", "Records appended to the journal.", journal.recordsWritten());
        t.counter("bftws_journal_compactions_total", "Rewrites of the journal at a stable checkpoint.",
                journal.compactions());
        t.gauge("bftws_journal_size_bytes", "The journal file's length.", journal.size());
    }

    private static Map<String, Long> byKind(Map<Kind, Long> counts) {
        Map<String, Long> m = new TreeMap<>();
        counts.forEach((k, v) -> m.put(k.name(), v));
        return m;
    }
}
