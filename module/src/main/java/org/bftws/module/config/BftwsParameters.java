package org.bftws.module.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Every axis2.xml {@code <parameter>} that BFT-WS reads, declared once with its default and the reason
 * for that default (STYLE.md: "one class lists every key, its default and its validation", after Ratis).
 *
 * <p>Any parameter whose name starts with {@value #PREFIX} and is not declared here is rejected, so a
 * misspelt key stops start-up instead of silently falling back to a default. Without
 * {@code bftws.replicated=true} the other keys are still type-checked, but the group keys are not
 * required: the module then serves plain WS-RM (backward compatibility, paper §3.3.1).
 */
public final class BftwsParameters {
    public static final String PREFIX = "bftws.";

    /** Turns the replica group on. Default off: engaging bftws.mar alone must not change WS-RM. */
    public static final String REPLICATED_KEY = "bftws.replicated";
    public static final boolean REPLICATED_DEFAULT = false;

    /** "client" or "replica": handlers cannot tell the sides apart from the message (see {@link Role}). */
    public static final String ROLE_KEY = "bftws.role";
    /** Clients far outnumber replicas, and a client needs the fewest other keys. */
    public static final Role ROLE_DEFAULT = Role.CLIENT;

    /** Faults tolerated; n = 3f+1 replicas (configuration I, paper §3.3.1). */
    public static final String F_KEY = "bftws.f";
    /** The smallest group that tolerates any fault (4 replicas). */
    public static final int F_DEFAULT = 1;
    /** n = 3f+1 = 31 replicas; all-to-all PBFT traffic beyond that is impractical over SOAP. */
    public static final int F_MAX = 10;

    /** The group endpoint applications address (paper §3.3.1.2); the Multicast Sender maps it. */
    public static final String GROUP_ENDPOINT_KEY = "bftws.group.endpoint";

    /** Whitespace- or comma-separated {@code id=endpoint} pairs, ids 0..n-1, one per replica. */
    public static final String REPLICAS_KEY = "bftws.replicas";

    /** This replica's id in {@link #REPLICAS_KEY}; required with role=replica, forbidden on clients. */
    public static final String REPLICA_ID_KEY = "bftws.replica.id";
    public static final int REPLICA_ID_NONE = -1;

    /** This instance's private signing key (Ed25519 over protocol bytes, ARCHITECTURE.md). */
    public static final String PRIVATE_KEY_KEY = "bftws.keys.private";
    /** Public keys of all replicas and clients, written by the keygen tool. */
    public static final String PUBLIC_KEYS_KEY = "bftws.keys.public";
    /** This replica's threshold key share; needed only by replicas using the CT coin. */
    public static final String THRESHOLD_SHARE_KEY = "bftws.keys.threshold.share";

    /** Requests per PBFT batch (pre-prepare). */
    public static final String BATCH_SIZE_KEY = "bftws.batch.size";
    /**
     * Amortises the three agreement phases over several requests; 10 covers the 8 concurrent clients
     * measured in DEPENDENCIES.md. The primary never waits to fill a batch, so one client sees no delay.
     */
    public static final int BATCH_SIZE_DEFAULT = 10;
    public static final int BATCH_SIZE_MAX = 10_000;

    /** Batches the primary may have in agreement at once (sliding window, Castro-Liskov §5.1). */
    public static final String OUTSTANDING_BATCHES_KEY = "bftws.batch.outstanding";
    /**
     * Overlaps agreement on the next batches with the round trip of the current one, while keeping
     * what a view change must re-propose small.
     */
    public static final int OUTSTANDING_BATCHES_DEFAULT = 4;

    /** K: a checkpoint every K sequence numbers (paper §3.3.1.8, get_state). */
    public static final String CHECKPOINT_INTERVAL_KEY = "bftws.checkpoint.interval";
    /** Castro and Liskov's value for BFS; get_state of the samples is cheap, so it is not critical. */
    public static final int CHECKPOINT_INTERVAL_DEFAULT = 128;

    /** L: high water mark = low water mark + L. */
    public static final String LOG_WINDOW_KEY = "bftws.log.window";
    /**
     * 2K, as Castro and Liskov suggest: with L below 2K the primary stalls each time it waits for the
     * next checkpoint to become stable. Must be a multiple of K so water marks fall on checkpoints.
     */
    public static final int LOG_WINDOW_DEFAULT = 2 * CHECKPOINT_INTERVAL_DEFAULT;

    /** Initial view-change timeout in ms; it doubles with each view (ARCHITECTURE.md, step 7). */
    public static final String VIEW_CHANGE_TIMEOUT_KEY = "bftws.timeout.viewchange.ms";
    /**
     * Above the ≈1.8 s of the first signed call in a cold JVM (DEPENDENCIES.md) with margin, so a
     * replica that just started does not depose a correct primary; a signed WS-RM call is ≈7.5 ms.
     */
    public static final long VIEW_CHANGE_TIMEOUT_DEFAULT = 4_000;

    /** How long a client waits for f+1 matching replies before re-sending to all replicas. */
    public static final String CLIENT_RETRANSMISSION_KEY = "bftws.timeout.client.retransmission.ms";
    /**
     * Far above a signed WS-RM round trip (≈7.5 ms) and well below the view-change timeout, so a request
     * a backup missed reaches it again before backups suspect the primary.
     */
    public static final long CLIENT_RETRANSMISSION_DEFAULT = 1_000;

    /** Upper bound for every timeout: beyond an hour a "timeout" is a misconfiguration. */
    public static final long TIMEOUT_MAX = 3_600_000;

    /** none | ba | ct: how collective random numbers are produced (paper §4). */
    public static final String RANDOMNESS_KEY = "bftws.randomness.algorithm";
    /** Only services with randomized operations need it, and it costs agreement messages or crypto. */
    public static final RandomnessAlgorithm RANDOMNESS_DEFAULT = RandomnessAlgorithm.NONE;

    /** cks | bls | rsa: the threshold scheme of the CT coin. */
    public static final String THRESHOLD_SCHEME_KEY = "bftws.randomness.scheme";
    /** Pure Java (no JNI), 128-bit, fastest to sign of the three (shared/design/CRYPTO.md). */
    public static final ThresholdScheme THRESHOLD_SCHEME_DEFAULT = ThresholdScheme.CKS;

    /** Every declared key, for the unknown-key check and for documentation. */
    public static final List<String> KEYS = List.of(
            REPLICATED_KEY, ROLE_KEY, F_KEY, GROUP_ENDPOINT_KEY, REPLICAS_KEY, REPLICA_ID_KEY,
            PRIVATE_KEY_KEY, PUBLIC_KEYS_KEY, THRESHOLD_SHARE_KEY, BATCH_SIZE_KEY,
            OUTSTANDING_BATCHES_KEY, CHECKPOINT_INTERVAL_KEY, LOG_WINDOW_KEY, VIEW_CHANGE_TIMEOUT_KEY,
            CLIENT_RETRANSMISSION_KEY, RANDOMNESS_KEY, THRESHOLD_SCHEME_KEY);

    private BftwsParameters() {
    }

    /**
     * Reads and validates the parameters.
     *
     * @param params parameter name → text value as written in axis2.xml (other parameters may be present)
     * @throws BftwsConfigException naming the first key that is wrong
     */
    public static BftwsConfig parse(Map<String, String> params) {
        rejectUnknownKeys(params);
        ParameterReader in = new ParameterReader(params);
        boolean replicated = in.bool(REPLICATED_KEY, REPLICATED_DEFAULT);
        Role role = in.choice(ROLE_KEY, Role.class, ROLE_DEFAULT);
        int f = in.integer(F_KEY, F_DEFAULT, 1, F_MAX);
        int batchSize = in.integer(BATCH_SIZE_KEY, BATCH_SIZE_DEFAULT, 1, BATCH_SIZE_MAX);
        int checkpoint = in.integer(CHECKPOINT_INTERVAL_KEY, CHECKPOINT_INTERVAL_DEFAULT, 1, 1 << 20);
        int window = in.integer(LOG_WINDOW_KEY, LOG_WINDOW_DEFAULT, 2, 1 << 22);
        int outstanding = in.integer(OUTSTANDING_BATCHES_KEY, OUTSTANDING_BATCHES_DEFAULT, 1, window);
        long viewChange = in.longInteger(VIEW_CHANGE_TIMEOUT_KEY, VIEW_CHANGE_TIMEOUT_DEFAULT, 1, TIMEOUT_MAX);
        long retransmit = in.longInteger(CLIENT_RETRANSMISSION_KEY, CLIENT_RETRANSMISSION_DEFAULT, 1,
                TIMEOUT_MAX);
        RandomnessAlgorithm randomness = in.choice(RANDOMNESS_KEY, RandomnessAlgorithm.class,
                RANDOMNESS_DEFAULT);
        ThresholdScheme scheme = in.choice(THRESHOLD_SCHEME_KEY, ThresholdScheme.class,
                THRESHOLD_SCHEME_DEFAULT);
        if (window < 2 * checkpoint || window % checkpoint != 0) {
            throw new BftwsConfigException(LOG_WINDOW_KEY, "must be a multiple of " + CHECKPOINT_INTERVAL_KEY
                    + " (" + checkpoint + ") and at least twice it, got " + window);
        }
        if (!replicated) {
            return new BftwsConfig(false, role, f, null, List.of(), REPLICA_ID_NONE, null, null, null,
                    batchSize, outstanding, checkpoint, window, viewChange, retransmit, randomness, scheme);
        }
        URI group = in.httpUri(GROUP_ENDPOINT_KEY);
        List<ReplicaEndpoint> replicas = parseReplicas(in.required(REPLICAS_KEY), 3 * f + 1, group);
        int replicaId = replicaId(in, role, replicas.size());
        Path privateKey = in.readableFile(PRIVATE_KEY_KEY);
        Path publicKeys = in.readableFile(PUBLIC_KEYS_KEY);
        Path share = null;
        if (role == Role.REPLICA && randomness == RandomnessAlgorithm.CT) {
            share = in.readableFile(THRESHOLD_SHARE_KEY);
        }
        return new BftwsConfig(true, role, f, group, replicas, replicaId, privateKey, publicKeys, share,
                batchSize, outstanding, checkpoint, window, viewChange, retransmit, randomness, scheme);
    }

    private static void rejectUnknownKeys(Map<String, String> params) {
        for (String name : params.keySet()) {
            if (name.startsWith(PREFIX) && !KEYS.contains(name)) {
                throw new BftwsConfigException(name, "is not a BFT-WS parameter (misspelt?)");
            }
        }
    }

    private static int replicaId(ParameterReader in, Role role, int n) {
        if (role == Role.CLIENT) {
            if (in.isSet(REPLICA_ID_KEY)) {
                throw new BftwsConfigException(REPLICA_ID_KEY, "is set, but " + ROLE_KEY + " is client");
            }
            return REPLICA_ID_NONE;
        }
        if (!in.isSet(REPLICA_ID_KEY)) {
            throw new BftwsConfigException(REPLICA_ID_KEY, "is required when " + ROLE_KEY + " is replica");
        }
        return in.integer(REPLICA_ID_KEY, REPLICA_ID_NONE, 0, n - 1);
    }

    /** Parses {@code id=endpoint} pairs; the ids must be exactly 0..n-1 and endpoints distinct. */
    static List<ReplicaEndpoint> parseReplicas(String text, int n, URI group) {
        ReplicaEndpoint[] byId = new ReplicaEndpoint[n];
        Set<URI> seen = new HashSet<>();
        int count = 0;
        for (String entry : text.trim().split("[\\s,]+")) {
            int eq = entry.indexOf('=');
            if (eq <= 0) {
                throw new BftwsConfigException(REPLICAS_KEY, "needs id=endpoint pairs, got '" + entry + "'");
            }
            int id = ParameterReader.parseInt(REPLICAS_KEY, entry.substring(0, eq), 0, n - 1);
            URI uri = ParameterReader.toHttpUri(REPLICAS_KEY, entry.substring(eq + 1));
            if (byId[id] != null) {
                throw new BftwsConfigException(REPLICAS_KEY, "lists replica id " + id + " twice");
            }
            if (!seen.add(uri) || uri.equals(group)) {
                throw new BftwsConfigException(REPLICAS_KEY, "lists endpoint " + uri
                        + " twice or as the group endpoint");
            }
            byId[id] = new ReplicaEndpoint(id, uri);
            count++;
        }
        if (count != n) {
            throw new BftwsConfigException(REPLICAS_KEY, "must list 3f+1 = " + n + " replicas (" + F_KEY
                    + "), got " + count);
        }
        return List.of(byId);
    }

    /** Typed access to the raw text values; every error names the key. */
    static final class ParameterReader {
        private final Map<String, String> params;

        ParameterReader(Map<String, String> params) {
            this.params = params;
        }

        boolean isSet(String key) {
            String v = params.get(key);
            return v != null && !v.isBlank();
        }

        String required(String key) {
            if (!isSet(key)) {
                throw new BftwsConfigException(key, "is required when " + REPLICATED_KEY + " is true");
            }
            return params.get(key).trim();
        }

        boolean bool(String key, boolean dflt) {
            if (!isSet(key)) {
                return dflt;
            }
            String v = params.get(key).trim().toLowerCase(Locale.ROOT);
            if (v.equals("true") || v.equals("false")) {
                return Boolean.parseBoolean(v);
            }
            throw new BftwsConfigException(key, "must be true or false, got '" + v + "'");
        }

        int integer(String key, int dflt, int min, int max) {
            return isSet(key) ? parseInt(key, params.get(key), min, max) : dflt;
        }

        long longInteger(String key, long dflt, long min, long max) {
            return isSet(key) ? parseLong(key, params.get(key), min, max) : dflt;
        }

        <E extends Enum<E>> E choice(String key, Class<E> type, E dflt) {
            if (!isSet(key)) {
                return dflt;
            }
            String v = params.get(key).trim();
            for (E e : type.getEnumConstants()) {
                if (e.name().equalsIgnoreCase(v)) {
                    return e;
                }
            }
            List<String> allowed = new ArrayList<>();
            for (E e : type.getEnumConstants()) {
                allowed.add(e.name().toLowerCase(Locale.ROOT));
            }
            throw new BftwsConfigException(key, "must be one of " + String.join("|", allowed) + ", got '"
                    + v + "'");
        }

        URI httpUri(String key) {
            return toHttpUri(key, required(key));
        }

        Path readableFile(String key) {
            String v = required(key);
            try {
                Path p = Path.of(v);
                if (!Files.isRegularFile(p) || !Files.isReadable(p)) {
                    throw new BftwsConfigException(key, "names no readable file: " + v);
                }
                return p;
            } catch (InvalidPathException e) {
                throw new BftwsConfigException(key, "is not a valid path: " + v);
            }
        }

        static int parseInt(String key, String text, int min, int max) {
            return (int) parseLong(key, text, min, max);
        }

        static long parseLong(String key, String text, long min, long max) {
            String v = text.trim();
            long value;
            try {
                value = Long.parseLong(v);
            } catch (NumberFormatException e) {
                throw new BftwsConfigException(key, "must be an integer, got '" + v + "'");
            }
            if (value < min || value > max) {
                throw new BftwsConfigException(key, "must be between " + min + " and " + max + ", got " + v);
            }
            return value;
        }

        static URI toHttpUri(String key, String text) {
            String v = text.trim();
            try {
                URI uri = new URI(v);
                String scheme = uri.getScheme();
                if (uri.getHost() == null || scheme == null
                        || !(scheme.equalsIgnoreCase("http") || scheme.equalsIgnoreCase("https"))) {
                    throw new BftwsConfigException(key, "needs an absolute http(s) URL with a host, got '"
                            + v + "'");
                }
                return uri;
            } catch (URISyntaxException e) {
                throw new BftwsConfigException(key, "is not a URL: '" + v + "'");
            }
        }
    }
}
