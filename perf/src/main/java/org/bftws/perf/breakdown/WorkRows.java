package org.bftws.perf.breakdown;

import java.util.ArrayList;
import java.util.List;

import org.bftws.core.message.Kind;
import org.bftws.perf.Machine;
import org.bftws.perf.echo.ClosedLoop;

/**
 * The breakdown's work rows: what the group did per delivered request (signatures made and checked per kind,
 * HTTP POSTs and bytes, batch size) next to what PBFT needs for the measured mean batch size b at n = 3f+1
 * (docs/performance.md, "Work per request"). Per batch, normal case (Castro-Liskov §4.2, §5.1):
 * <ul>
 * <li><b>minimum</b> verifications: every replica checks the b client requests once (n·b); each backup the
 * pre-prepare (n−1); prepared needs 2f matching prepares from backups, so the primary checks 2f and a backup
 * 2f−1 besides its own (2f + (n−1)(2f−1)); committed-local needs 2f+1 commits, 2f besides its own (n·2f); the
 * client f+1 matching replies per request (the vote). With authenticators ({@code bftws.authentication=macs},
 * Castro-Liskov TOCS 2002 §3.2) a commit is accepted by its MAC, so committed-local needs no signature check; the
 * prepares of the prepared certificate are still checked (it must convince others in a view change, §4.4).
 * <li><b>all-to-all</b>: what arrives when every replica multicasts to all and each message is checked once:
 * (n−1)² prepares, n(n−1) commits, n replies per request. A count above this is double work.
 * <li>signatures: b requests (client), 1 pre-prepare, n−1 prepares, n commits, n reply certificates.
 * <li>HTTP POSTs: n·b requests, n−1 pre-prepares, (n−1)² prepares, n(n−1) commits, n·b replies.
 * <li>MACs, with authenticators: n−1 per prepare and per commit sent (one for each other replica), derived from the
 * signed prepares and commits counted, not counted apart.
 * </ul>
 */
final class WorkRows {
    private WorkRows() {
    }

    static List<String> row(List<String> context, int clients, String section, String phase, String part,
            double value, String unit, ClosedLoop.Result r) {
        List<String> row = new ArrayList<>(context);
        row.addAll(List.of(String.valueOf(clients), section, phase, part, Machine.fmt(value), unit,
                String.valueOf(r.latency().count()), Machine.fmt(r.throughput()), Machine.fmt(r.latency().meanMs())));
        return row;
    }

    /**
     * Rows of {@code d}, counted over the untraced window of {@code r}, per request committed in it (replica 0's
     * count: unlike the calls completed at the client, it moves with the counters at the window's edges).
     */
    static void add(List<List<String>> rows, List<String> context, int clients, GroupCounts d, int n,
            ClosedLoop.Result r) {
        int f = (n - 1) / 3;
        double b = d.meanBatch() > 0 ? d.meanBatch() : 1;
        double perCall = 1.0 / Math.max(1, d.batchedRequests());
        for (Kind k : Kind.values()) {
            if (d.replicaVerified(k) > 0 || minimumVerify(k, n, f, b, d.macs()) > 0 || allToAll(k, n, b) > 0) {
                rows.add(row(context, clients, "verify", "replicas", k.name(), d.replicaVerified(k) * perCall,
                        "per request", r));
                rows.add(row(context, clients, "verify minimum", "replicas", k.name(), minimumVerify(k, n, f, b, d.macs()),
                        "per request", r));
                rows.add(row(context, clients, "verify all-to-all", "replicas", k.name(), allToAll(k, n, b),
                        "per request", r));
            }
            if (d.replicaSigned(k) > 0 || signatures(k, n, b) > 0 && k != Kind.REQUEST) {
                rows.add(row(context, clients, "sign", "replicas", k.name(), d.replicaSigned(k) * perCall,
                        "per request", r));
                rows.add(row(context, clients, "sign minimum", "replicas", k.name(),
                        k == Kind.REQUEST ? 0 : signatures(k, n, b), "per request", r));
            }
        }
        rows.add(row(context, clients, "verify", "client", Kind.REPLY.name(), d.clientVerified(Kind.REPLY) * perCall,
                "per request", r));
        rows.add(row(context, clients, "verify minimum", "client", Kind.REPLY.name(), f + 1, "per request", r));
        rows.add(row(context, clients, "verify all-to-all", "client", Kind.REPLY.name(), n, "per request", r));
        rows.add(row(context, clients, "sign", "client", Kind.REQUEST.name(), d.clientSigned(Kind.REQUEST) * perCall,
                "per request", r));
        rows.add(row(context, clients, "sign minimum", "client", Kind.REQUEST.name(), 1, "per request", r));
        rows.add(row(context, clients, "verify", "replicas", "answered from memory (PreVerifier)",
                d.preVerifiedHits() * perCall, "per request", r));
        double macs = d.macs() ? (d.replicaSigned(Kind.PREPARE) + d.replicaSigned(Kind.COMMIT)) * (n - 1.0) * perCall : 0;
        rows.add(row(context, clients, "mac", "replicas", "MACs made (n−1 per prepare and commit)", macs, "per request",
                r));
        rows.add(row(context, clients, "wire", "client", "HTTP POSTs", d.clientPosts() * perCall, "per request", r));
        rows.add(row(context, clients, "wire", "replicas", "HTTP POSTs", d.replicaPosts() * perCall, "per request", r));
        rows.add(row(context, clients, "wire minimum", "client", "HTTP POSTs", n, "per request", r));
        rows.add(row(context, clients, "wire minimum", "replicas", "HTTP POSTs", replicaPosts(n, b), "per request", r));
        rows.add(row(context, clients, "wire", "client", "envelope bytes", d.clientBytes() * perCall, "per request", r));
        rows.add(row(context, clients, "wire", "replicas", "envelope bytes", d.replicaBytes() * perCall, "per request",
                r));
        rows.add(row(context, clients, "batch", "replica 0", "mean batch size", d.meanBatch(), "requests", r));
    }

    /** Verifications per request the protocol needs at the replicas for batch size b; {@code macs}: authenticators. */
    static double minimumVerify(Kind k, int n, int f, double b, boolean macs) {
        return switch (k) {
            case REQUEST -> n;
            case PRE_PREPARE -> (n - 1) / b;
            case PREPARE -> (2.0 * f + (n - 1) * (2.0 * f - 1)) / b;
            case COMMIT -> macs ? 0 : n * 2.0 * f / b;
            default -> 0;
        };
    }

    /** Verifications per request at the replicas when every message received is checked once. */
    static double allToAll(Kind k, int n, double b) {
        return switch (k) {
            case REQUEST -> n;
            case PRE_PREPARE -> (n - 1) / b;
            case PREPARE -> (double) (n - 1) * (n - 1) / b;
            case COMMIT -> (double) n * (n - 1) / b;
            default -> 0;
        };
    }

    /** Signatures per request: a batch's pre-prepare, prepares, commits and reply certificates (and the request). */
    static double signatures(Kind k, int n, double b) {
        return switch (k) {
            case REQUEST -> 1;
            case PRE_PREPARE -> 1 / b;
            case PREPARE -> (n - 1) / b;
            case COMMIT, REPLY -> n / b;
            default -> 0;
        };
    }

    /** HTTP POSTs per request from the replicas: the three phases all-to-all and a reply from each. */
    static double replicaPosts(int n, double b) {
        return n + ((n - 1) + (double) (n - 1) * (n - 1) + (double) n * (n - 1)) / b;
    }
}
