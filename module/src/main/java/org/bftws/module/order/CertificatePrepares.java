package org.bftws.module.order;

import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;

import org.bftws.core.config.GroupConfig;
import org.bftws.core.message.Signed;
import org.bftws.core.message.Vote;

/**
 * Which prepares to pre-verify with MAC authentication. The engine accepts a prepare by its authenticator and
 * checks its signature only when it goes into this replica's prepared certificate (Castro-Liskov TOCS 2002 §3.2;
 * core's {@code VoteAuthentication}): 2f prepares from backups, its own first. Those checks ran on the ordering
 * thread, where they were most of its CPU at 8 clients (docs/performance.md, "Tuning"). The certificate is taken
 * when the quorum completes, so its prepares are the first to arrive: this picks, on the receiving HTTP worker,
 * the first prepares of each (view, seq, digest), as many as the certificate needs besides this replica's own —
 * 2f at the view's primary, which sends no prepare, 2f−1 at a backup — so they are verified there, in parallel,
 * and the ordering thread finds them in {@link PreVerifier}'s memory. Later prepares are left to their MACs, so
 * the number of checks stays the protocol's minimum unless arrivals race (then the engine checks the one it
 * picked itself, as before). Counting per digest: prepares for another digest (a faulty sender's) use up no
 * claim of the one the certificate will hold.
 */
final class CertificatePrepares {
    /** (view, seq, digest) entries remembered; the oldest go first. A few log windows' worth. */
    static final int MAX_SLOTS = 4096;

    private record Key(long view, long seq, ByteBuffer digest) {
    }

    private final GroupConfig cfg;
    private final int id;
    private final Map<Key, Integer> claimed = new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Key, Integer> eldest) {
            return size() > MAX_SLOTS;
        }
    };

    CertificatePrepares(GroupConfig cfg, int id) {
        this.cfg = cfg;
        this.id = id;
    }

    /**
     * True if {@code prepare} is among the first the certificate of its (view, seq, digest) needs: the caller
     * verifies it and gives the claim back with {@link #release} if the signature is bad.
     *
     * @throws org.bftws.core.codec.DecodeException if the body is no vote
     */
    synchronized boolean claim(Signed prepare) {
        Vote v = Vote.decode(prepare.body());
        int primary = cfg.primaryOf(v.view());
        if (prepare.sender() == primary || prepare.sender() == id) {
            return false; // the engine refuses a primary's prepare; our own is not received
        }
        int needed = 2 * cfg.f() - (id == primary ? 0 : 1);
        Key k = key(v);
        int count = claimed.getOrDefault(k, 0);
        if (count >= needed) {
            return false;
        }
        claimed.put(k, count + 1);
        return true;
    }

    /** Gives back the claim of a prepare whose signature failed: a later one may take its place. */
    synchronized void release(Signed prepare) {
        Key k = key(Vote.decode(prepare.body()));
        claimed.computeIfPresent(k, (key, count) -> count > 1 ? count - 1 : null);
    }

    private static Key key(Vote v) {
        return new Key(v.view(), v.seq(), ByteBuffer.wrap(v.digest()));
    }
}
