package org.bftws.module.order;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

import org.bftws.core.codec.DecodeException;
import org.bftws.core.config.GroupConfig;
import org.bftws.core.crypto.Verifier;
import org.bftws.core.message.Kind;
import org.bftws.core.message.PrePrepare;
import org.bftws.core.message.Signed;

/**
 * Moves signature verification off the ordering thread. The profile of a replica under 8 clients
 * (perf/RESULTS.md, "Profile") put two thirds of its CPU in Ed25519 verification on the one thread that owns
 * core's {@code Replica}, which made that thread the group's bottleneck while the HTTP workers idled.
 *
 * <p>{@link #preVerify} runs on the HTTP worker that received a control message: it checks the envelope's
 * signature, and a pre-prepare's client requests, with the real verifier and remembers each valid
 * (node, data, signature). When the ordering thread's {@code Replica} then asks {@link #verify} about the
 * same triple, the answer comes from memory. Only an exact match counts — the same node, the same
 * signature bytes and byte-for-byte the same data — so a signature copied onto other data, or claimed for
 * another node, is verified afresh (and fails). The engine's verdicts are therefore exactly those of the
 * real verifier; only where the work happens changes.
 *
 * <p>A client request is checked several times on its way through a backup: by the In Handler when the
 * client's application message arrives ({@link #remembering()}), when it is handed to the Total Order
 * Manager, on the ordering thread, and again inside the primary's pre-prepare. Each is the same exact triple,
 * so only the first is a real verification; a hit keeps the entry (the verdict on an exact triple never
 * changes). Memory is bounded by entries and by remembered bytes; the least recently added go first.
 *
 * <p>Two HTTP workers may hold the same triple at once: a backup receives a client's request from the client
 * and, inside the primary's pre-prepare, from the primary at about the same time. Checking and remembering
 * hold a lock chosen by the signature, so the second waits for the first's verdict instead of verifying again.
 *
 * <p>With MAC authentication the engine accepts prepares and commits by their authenticators and verifies only
 * the few prepares that go into a prepared certificate: commits are not pre-verified, prepares only those
 * {@link CertificatePrepares} expects the certificate to hold. The hybrid engine's fast lane with MAC
 * authentication likewise: an asynchronous-protocol envelope that carries an authenticator is left to the
 * engine, which accepts it by its MAC (and verifies the prepare shares a certificate takes itself).
 */
public final class PreVerifier implements Verifier {
    /** Enough for a few log windows of a 4..10-replica group's messages in flight. */
    static final int MAX_ENTRIES = 16_384;
    static final long MAX_BYTES = 64L << 20;

    private record Entry(int node, byte[] data) {
    }

    private final Verifier verifier;
    /** Null with signatures; with MAC authentication, the prepares worth checking here (commits never are). */
    private final CertificatePrepares macs;
    /** The hybrid engine's lane with MAC authentication: envelopes with an authenticator are not pre-verified. */
    private final boolean laneMacs;
    private final int maxEntries;
    private final long maxBytes;
    private final LinkedHashMap<ByteBuffer, Entry> verified = new LinkedHashMap<>();
    /** Locks by signature for {@link #remember}; different signatures rarely share one. */
    private final Object[] stripes = new Object[64];
    private long bytes;
    private long hits;

    /** With signatures: every envelope is checked where it arrives. */
    public PreVerifier(Verifier verifier) {
        this(verifier, null, MAX_ENTRIES, MAX_BYTES);
    }

    /** For the hybrid engine with MAC authentication: its lane's authenticated envelopes are the engine's. */
    public static PreVerifier hybridWithMacs(Verifier verifier) {
        return new PreVerifier(verifier, null, MAX_ENTRIES, MAX_BYTES, true);
    }

    /** With MAC authentication for replica {@code id} of the group {@code cfg}. */
    public PreVerifier(Verifier verifier, GroupConfig cfg, int id) {
        this(verifier, new CertificatePrepares(cfg, id), MAX_ENTRIES, MAX_BYTES);
    }

    PreVerifier(Verifier verifier, CertificatePrepares macs, int maxEntries, long maxBytes) {
        this(verifier, macs, maxEntries, maxBytes, false);
    }

    private PreVerifier(Verifier verifier, CertificatePrepares macs, int maxEntries, long maxBytes, boolean laneMacs) {
        this.verifier = verifier;
        this.macs = macs;
        this.laneMacs = laneMacs;
        this.maxEntries = maxEntries;
        this.maxBytes = maxBytes;
        for (int i = 0; i < stripes.length; i++) {
            stripes[i] = new Object();
        }
    }

    /** Any thread: verifies {@code signedBytes}' envelope and, for a pre-prepare, its requests. */
    public void preVerify(byte[] signedBytes) {
        try {
            preVerify(Signed.decode(signedBytes));
        } catch (DecodeException e) {
            // the engine records malformed input as evidence; nothing to remember
        }
    }

    /** The same for an envelope the caller decoded already (the intake reads its sender first). */
    void preVerify(Signed s) {
        try {
            if (laneMacs && s.kind() == Kind.ASYNC && s.authenticator() != null) {
                return;
            }
            if (macs != null && s.kind().macAuthenticated()) {
                if (s.kind() == Kind.PREPARE && macs.claim(s) && !s.verify(this::remember)) {
                    macs.release(s);
                }
                return;
            }
            if (s.verify(this::remember) && s.kind() == Kind.PRE_PREPARE) {
                for (Signed q : PrePrepare.decode(s.body()).requests()) {
                    q.verify(this::remember);
                }
            }
        } catch (DecodeException e) {
            // the engine records malformed input as evidence; nothing to remember
        }
    }

    @Override
    public boolean verify(int node, byte[] data, byte[] signature) {
        if (take(node, data, signature)) {
            return true;
        }
        return verifier.verify(node, data, signature);
    }

    /**
     * A verifier for any thread that verifies for real unless the exact triple is remembered, and remembers
     * what it verified (the In Handler checks a client's application message with it).
     */
    public Verifier remembering() {
        return this::remember;
    }

    /** Remembered verifications answered from memory so far (for tests and diagnostics). */
    public synchronized long hits() {
        return hits;
    }

    private boolean remember(int node, byte[] data, byte[] signature) {
        synchronized (stripes[Math.floorMod(Arrays.hashCode(signature), stripes.length)]) {
            return checkAndRemember(node, data, signature);
        }
    }

    private boolean checkAndRemember(int node, byte[] data, byte[] signature) {
        if (known(node, data, signature)) {
            return true;
        }
        if (!verifier.verify(node, data, signature)) {
            return false;
        }
        synchronized (this) {
            Entry old = verified.put(ByteBuffer.wrap(signature.clone()), new Entry(node, data));
            bytes += data.length - (old == null ? 0 : old.data().length);
            while (verified.size() > maxEntries || bytes > maxBytes) {
                Map.Entry<ByteBuffer, Entry> eldest = verified.entrySet().iterator().next();
                bytes -= eldest.getValue().data().length;
                verified.remove(eldest.getKey());
            }
        }
        return true;
    }

    private synchronized boolean take(int node, byte[] data, byte[] signature) {
        if (!known(node, data, signature)) {
            return false;
        }
        hits++;
        return true;
    }

    private synchronized boolean known(int node, byte[] data, byte[] signature) {
        Entry e = verified.get(ByteBuffer.wrap(signature));
        return e != null && e.node() == node && Arrays.equals(e.data(), data);
    }
}
