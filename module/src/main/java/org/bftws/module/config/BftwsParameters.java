package org.bftws.module.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.bftws.core.config.ConfigException;
import org.bftws.core.config.ConfigKey;
import org.bftws.core.config.GroupConfig;
import org.bftws.module.transport.MulticastSettings;
import org.bftws.module.xml.XmlLimits;

/**
 * The axis2.xml {@code <parameter>}s of the Axis2 module, declared once with their default and the reason
 * for that default (docs/design/style.md, after Ratis). The protocol keys the whole group agrees on ({@code bftws.f},
 * {@code bftws.checkpointInterval}, ..., all in ticks) are declared in core's {@link GroupConfig} and only
 * parsed here, through {@link GroupConfig#fromProperties}: one declaration per key.
 *
 * <p>Any parameter whose name starts with {@value #PREFIX} and is declared neither here nor in core is
 * rejected, so a misspelt key stops start-up instead of silently falling back to a default. Without
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

    /** The group endpoint applications address (paper §3.3.1.2); the Multicast Sender maps it. */
    public static final String GROUP_ENDPOINT_KEY = "bftws.group.endpoint";

    /** Whitespace- or comma-separated {@code id=endpoint} pairs, ids 0..n-1, one per replica. */
    public static final String REPLICAS_KEY = "bftws.replicas";

    /** This replica's id in {@link #REPLICAS_KEY}; required with role=replica, forbidden on clients. */
    public static final String REPLICA_ID_KEY = "bftws.replica.id";
    public static final int REPLICA_ID_NONE = -1;

    /** This instance's private signing key (Ed25519 over protocol bytes, docs/design/architecture.md). */
    public static final String PRIVATE_KEY_KEY = "bftws.keys.private";
    /** Public keys of all replicas and clients, written by the keygen tool. */
    public static final String PUBLIC_KEYS_KEY = "bftws.keys.public";

    /**
     * Wall-clock milliseconds per core tick. Every protocol timeout is a core key counted in ticks
     * ({@link GroupConfig}); this key alone turns ticks into time. 20 ms makes core's defaults read: view
     * change after 200 ticks = 4 s (above the ≈1.8 s of the first signed call in a cold JVM,
     * docs/design/dependencies.md, so a replica that just started does not depose a correct primary), retransmission
     * every 50 ticks = 1 s, client retransmission after 100 ticks = 2 s, view-change timeout capped at
     * 3200 ticks ≈ 64 s. Finer ticks would only wake the ordering thread more often: no protocol step
     * waits for a tick in the normal case.
     */
    public static final String TICK_MILLIS_KEY = "bftws.tickMillis";
    public static final int TICK_MILLIS_DEFAULT = 20;

    /**
     * Largest BFT-WS control message (decoded {@code Signed} bytes) a replica accepts or sends. 16 MiB
     * holds a pre-prepare of 16 requests of core's 1 MiB maximum; bigger batches of big requests need it
     * raised (or smaller {@code bftws.maxBatchSize}). Bounds the memory one HTTP request can claim.
     */
    public static final String CONTROL_MAX_BYTES_KEY = "bftws.control.maxMessageBytes";
    public static final int CONTROL_MAX_BYTES_DEFAULT = 16 << 20;

    /**
     * Largest SOAP message body a replica group's Axis2 instance parses: a larger declared Content-Length is
     * refused by the Global In Handler before the body is read, a chunked (or understated) body by the
     * module's bounded SOAP builder when it crosses the limit, so one request cannot make a replica buffer
     * an unbounded body. Must carry the largest control message base64-encoded (4/3 of
     * {@value #CONTROL_MAX_BYTES_KEY}) plus its envelope; 24 MiB does that for the 16 MiB default.
     */
    public static final String HTTP_MAX_REQUEST_BYTES_KEY = "bftws.http.maxRequestBytes";
    public static final int HTTP_MAX_REQUEST_BYTES_DEFAULT = 24 << 20;
    /** Room for the SOAP envelope and headers around a control message's base64 text. */
    static final int ENVELOPE_ALLOWANCE = 16 * 1024;

    /**
     * Deepest element nesting of a client's payload. Echo-like documents are a few levels deep; 256 leaves
     * room for deeply structured data while keeping the tree Axiom builds (and the service walks) shallow.
     * At most {@link XmlLimits#PARSER_CAP}, the StAX parser's own cap.
     */
    public static final String XML_MAX_DEPTH_KEY = "bftws.xml.maxDepth";
    public static final int XML_MAX_DEPTH_DEFAULT = 256;

    /**
     * Most elements in one client payload. Core's 1 MiB request limit alone allows ≈260,000 empty elements;
     * 100,000 keeps every realistic request (the echo benchmarks send at most a few thousand).
     */
    public static final String XML_MAX_ELEMENTS_KEY = "bftws.xml.maxElements";
    public static final int XML_MAX_ELEMENTS_DEFAULT = 100_000;

    /** Most attributes on one element of a client payload; at most {@link XmlLimits#PARSER_CAP}. */
    public static final String XML_MAX_ATTRIBUTES_KEY = "bftws.xml.maxAttributes";
    public static final int XML_MAX_ATTRIBUTES_DEFAULT = 64;

    /**
     * Clients only: the URL of this instance's BFT-WS control port as the replicas reach it
     * ({@code http://HOST:PORT/axis2/services/BftwsControl}), where their replies arrive. Optional: an
     * embedding that starts the HTTP listener itself can publish the listener's base URL instead
     * (client-lib's EmbeddedAxis2Server does). No default: a guessed host name would send replies astray.
     */
    public static final String CLIENT_REPLY_ENDPOINT_KEY = "bftws.client.replyEndpoint";

    /**
     * none | ct | ba | ba-hardened: how collective random numbers are produced (integrity paper §4–§5). CT
     * uses the threshold share in the replica's {@code bftws.keys.private} file and the group key in
     * {@code bftws.keys.public}; BA needs no keys. Every replica of a group must use the same value.
     */
    public static final String RANDOMNESS_KEY = "bftws.randomness.algorithm";
    /** Only services with randomized operations need it, and it costs agreement messages or crypto. */
    public static final RandomnessAlgorithm RANDOMNESS_DEFAULT = RandomnessAlgorithm.NONE;

    /** cks | bls | rsa: the threshold scheme of the CT coin. */
    public static final String THRESHOLD_SCHEME_KEY = "bftws.randomness.scheme";
    /** Pure Java (no JNI), 128-bit, fastest to verify of the three (docs/design/cryptography.md). */
    public static final ThresholdScheme THRESHOLD_SCHEME_DEFAULT = ThresholdScheme.CKS;

    /**
     * none | rampart: WS-Security signing of the client↔replica WS-RM exchange by Rampart (README,
     * "WS-Security signing"). Needs rampart.mar in the repository and {@link #SECURITY_POLICY_KEY}; clients and
     * replicas of a group must agree, or CreateSequence is refused.
     */
    public static final String SECURITY_KEY = "bftws.security";
    /** Off, as in plain Axis2: signing costs ≈3.8 ms per message (docs/design/dependencies.md) and needs keystores. */
    public static final SecurityMode SECURITY_DEFAULT = SecurityMode.NONE;

    /**
     * With {@code bftws.security=rampart}: a WS-SecurityPolicy 1.1 file with a {@code ramp:RampartConfig}
     * (this party's keystore, password callback, the others' certificates as trusted entries). A replica
     * attaches it to its main service, a client to the ServiceClients that send CreateSequence.
     */
    public static final String SECURITY_POLICY_KEY = "bftws.security.policy";

    /**
     * Messages the Multicast Sender has sent to one destination and not yet had acknowledged (paper §3.3.1.2),
     * hence POSTs in flight to it at most. One at a time capped a replica at one message per round trip and
     * peer: with 25 ms of emulated WAN delay per hop, BFT-WS echo reached 0.13× WS-RM's throughput at 8
     * clients; a window of 4 gave 0.34×, and 8 or 16 no more (on the LAN no window made a difference): README,
     * "Replicas ordering over SOAP/HTTP". Each step costs a sender thread per peer. A window of 1 keeps each
     * destination's messages in FIFO order; PBFT does not need it.
     */
    public static final String MULTICAST_WINDOW_KEY = "bftws.multicast.window";
    public static final int MULTICAST_WINDOW_DEFAULT = 4;

    /**
     * Retransmissions of one message after its POST failed (no connection, timeout, 5xx without a SOAP
     * fault) before the destination is marked down and only probed. 3, after 100, 200 and 400 ms
     * ({@value #MULTICAST_RETRANSMIT_MILLIS_KEY}): a peer refusing connections for ≈0.7 s is given up, so it
     * holds no thread and no memory; a lost message beyond that is PBFT's to repair (Castro-Liskov §4.2).
     */
    public static final String MULTICAST_RETRANSMISSIONS_KEY = "bftws.multicast.retransmissions";
    public static final int MULTICAST_RETRANSMISSIONS_DEFAULT = 3;

    /**
     * Wait before the first retransmission; it doubles for each further one. 100 ms is several LAN round
     * trips and two emulated-WAN ones, and a tenth of PBFT's own retransmission period at the default tick.
     */
    public static final String MULTICAST_RETRANSMIT_MILLIS_KEY = "bftws.multicast.retransmitMillis";
    public static final int MULTICAST_RETRANSMIT_MILLIS_DEFAULT = 100;

    /**
     * Bytes of messages waiting for a window slot, per destination, before the oldest waiting one is dropped
     * (PBFT retransmits; the newest messages move it on). 8 MiB holds hundreds of batches of 1 KB requests,
     * far more than a live peer lags behind; a dead peer holds at most one message. One message larger than
     * this is still sent, alone.
     */
    public static final String MULTICAST_BUFFER_BYTES_KEY = "bftws.multicast.bufferBytes";
    public static final int MULTICAST_BUFFER_BYTES_DEFAULT = 8 << 20;

    /**
     * Seconds between a replica's status lines in its log (view, primary, executed, stable checkpoint, pending
     * requests, evidence, peers down; docs/operating.md); 0 turns them off. 30 s shows a replica falling behind
     * or a view change within half a minute at two lines a minute per replica; finer state is on the MBean.
     */
    public static final String STATUS_LOG_SECONDS_KEY = "bftws.statusLogSeconds";
    public static final int STATUS_LOG_SECONDS_DEFAULT = 30;

    /** The module's own keys; the protocol keys are {@link GroupConfig#KEYS}, declared in core. */
    public static final List<String> MODULE_KEYS = List.of(
            REPLICATED_KEY, ROLE_KEY, GROUP_ENDPOINT_KEY, REPLICAS_KEY, REPLICA_ID_KEY,
            PRIVATE_KEY_KEY, PUBLIC_KEYS_KEY, TICK_MILLIS_KEY, CONTROL_MAX_BYTES_KEY,
            HTTP_MAX_REQUEST_BYTES_KEY, XML_MAX_DEPTH_KEY, XML_MAX_ELEMENTS_KEY, XML_MAX_ATTRIBUTES_KEY,
            CLIENT_REPLY_ENDPOINT_KEY, RANDOMNESS_KEY, THRESHOLD_SCHEME_KEY, SECURITY_KEY, SECURITY_POLICY_KEY,
            MULTICAST_WINDOW_KEY, MULTICAST_RETRANSMISSIONS_KEY, MULTICAST_RETRANSMIT_MILLIS_KEY,
            MULTICAST_BUFFER_BYTES_KEY, STATUS_LOG_SECONDS_KEY);

    /** Every key axis2.xml may set: the module's and core's, for the unknown-key check. */
    public static final List<String> KEYS = allKeys();

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
        GroupConfig groupConfig = groupConfig(params);
        int tickMillis = in.integer(TICK_MILLIS_KEY, TICK_MILLIS_DEFAULT, 1, 60_000);
        int controlMax = in.integer(CONTROL_MAX_BYTES_KEY, CONTROL_MAX_BYTES_DEFAULT, 4096, 1 << 30);
        if (controlMax <= groupConfig.get(GroupConfig.MAX_REQUEST_BYTES)) {
            throw new BftwsConfigException(CONTROL_MAX_BYTES_KEY, "must exceed "
                    + GroupConfig.MAX_REQUEST_BYTES.name() + " (" + groupConfig.get(GroupConfig.MAX_REQUEST_BYTES)
                    + "): a request travels inside a signed control message, got " + controlMax);
        }
        int httpMax = httpMaxRequestBytes(in, controlMax);
        XmlLimits xml = new XmlLimits(
                in.integer(XML_MAX_DEPTH_KEY, XML_MAX_DEPTH_DEFAULT, 1, XmlLimits.PARSER_CAP),
                in.integer(XML_MAX_ELEMENTS_KEY, XML_MAX_ELEMENTS_DEFAULT, 1, 10_000_000),
                in.integer(XML_MAX_ATTRIBUTES_KEY, XML_MAX_ATTRIBUTES_DEFAULT, 1, XmlLimits.PARSER_CAP));
        RandomnessAlgorithm randomness = in.choice(RANDOMNESS_KEY, RandomnessAlgorithm.class,
                RANDOMNESS_DEFAULT);
        ThresholdScheme scheme = in.choice(THRESHOLD_SCHEME_KEY, ThresholdScheme.class,
                THRESHOLD_SCHEME_DEFAULT);
        SecurityMode security = in.choice(SECURITY_KEY, SecurityMode.class, SECURITY_DEFAULT);
        MulticastSettings multicast = multicast(in);
        int statusLogSeconds = in.integer(STATUS_LOG_SECONDS_KEY, STATUS_LOG_SECONDS_DEFAULT, 0, 86_400);
        if (!replicated) {
            return new BftwsConfig(false, role, groupConfig, null, List.of(), REPLICA_ID_NONE, null, null,
                    tickMillis, controlMax, httpMax, xml, null, randomness, scheme, security, null, multicast,
                    statusLogSeconds);
        }
        Path securityPolicy = securityPolicy(in, security);
        URI group = in.httpUri(GROUP_ENDPOINT_KEY);
        List<ReplicaEndpoint> replicas = parseReplicas(in.required(REPLICAS_KEY), groupConfig.n(), group);
        int replicaId = replicaId(in, role, replicas.size());
        Path privateKey = in.readableFile(PRIVATE_KEY_KEY);
        Path publicKeys = in.readableFile(PUBLIC_KEYS_KEY);
        URI replyEndpoint = null;
        if (in.isSet(CLIENT_REPLY_ENDPOINT_KEY)) {
            if (role != Role.CLIENT) {
                throw new BftwsConfigException(CLIENT_REPLY_ENDPOINT_KEY, "is set, but " + ROLE_KEY + " is replica");
            }
            replyEndpoint = in.httpUri(CLIENT_REPLY_ENDPOINT_KEY);
        }
        return new BftwsConfig(true, role, groupConfig, group, replicas, replicaId, privateKey, publicKeys,
                tickMillis, controlMax, httpMax, xml, replyEndpoint, randomness, scheme, security, securityPolicy,
                multicast, statusLogSeconds);
    }

    private static MulticastSettings multicast(ParameterReader in) {
        return new MulticastSettings(
                in.integer(MULTICAST_WINDOW_KEY, MULTICAST_WINDOW_DEFAULT, 1, 64),
                in.integer(MULTICAST_RETRANSMISSIONS_KEY, MULTICAST_RETRANSMISSIONS_DEFAULT, 0, 16),
                in.integer(MULTICAST_RETRANSMIT_MILLIS_KEY, MULTICAST_RETRANSMIT_MILLIS_DEFAULT, 1, 60_000),
                in.integer(MULTICAST_BUFFER_BYTES_KEY, MULTICAST_BUFFER_BYTES_DEFAULT, 64 << 10, 1 << 30),
                MulticastSettings.BUFFER_MESSAGES_DEFAULT, MulticastSettings.TIMEOUT_DEFAULT);
    }

    /** The HTTP body limit must let the largest control message through, base64-encoded in its envelope. */
    private static int httpMaxRequestBytes(ParameterReader in, int controlMax) {
        long needed = 4L * ((controlMax + 2L) / 3) + ENVELOPE_ALLOWANCE;
        int httpMax = in.integer(HTTP_MAX_REQUEST_BYTES_KEY, HTTP_MAX_REQUEST_BYTES_DEFAULT, 4096, Integer.MAX_VALUE);
        if (httpMax < needed) {
            throw new BftwsConfigException(HTTP_MAX_REQUEST_BYTES_KEY, "must be at least " + needed
                    + " to carry a control message of " + CONTROL_MAX_BYTES_KEY + " (" + controlMax
                    + ") base64-encoded in its envelope, got " + httpMax);
        }
        return httpMax;
    }

    /** The policy file, required with rampart; forbidden without, so a forgotten mode is not silently off. */
    private static Path securityPolicy(ParameterReader in, SecurityMode security) {
        if (security == SecurityMode.NONE) {
            if (in.isSet(SECURITY_POLICY_KEY)) {
                throw new BftwsConfigException(SECURITY_POLICY_KEY, "is set, but " + SECURITY_KEY + " is none");
            }
            return null;
        }
        return in.readableFile(SECURITY_POLICY_KEY);
    }

    /** Core parses its own keys; its error becomes ours, still naming the key. */
    private static GroupConfig groupConfig(Map<String, String> params) {
        Map<String, String> present = new HashMap<>();
        for (Map.Entry<String, String> e : params.entrySet()) {
            if (e.getValue() != null && !e.getValue().isBlank()) {
                present.put(e.getKey(), e.getValue());
            }
        }
        try {
            return GroupConfig.fromProperties(present);
        } catch (ConfigException e) {
            throw new BftwsConfigException(e.key(), "is invalid: " + e.getMessage());
        }
    }

    private static List<String> allKeys() {
        List<String> all = new ArrayList<>(MODULE_KEYS);
        for (ConfigKey<Integer> k : GroupConfig.KEYS) {
            all.add(k.name());
        }
        for (ConfigKey<Boolean> k : GroupConfig.FLAGS) {
            all.add(k.name());
        }
        return List.copyOf(all);
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
            throw new BftwsConfigException(REPLICAS_KEY, "must list 3f+1 = " + n + " replicas ("
                    + GroupConfig.F.name() + "), got " + count);
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

        <E extends Enum<E>> E choice(String key, Class<E> type, E dflt) {
            if (!isSet(key)) {
                return dflt;
            }
            String v = params.get(key).trim();
            for (E e : type.getEnumConstants()) {
                if (configValue(e).equalsIgnoreCase(v)) {
                    return e;
                }
            }
            List<String> allowed = new ArrayList<>();
            for (E e : type.getEnumConstants()) {
                allowed.add(configValue(e));
            }
            throw new BftwsConfigException(key, "must be one of " + String.join("|", allowed) + ", got '"
                    + v + "'");
        }

        /** An enum constant as written in axis2.xml: lower case, '-' for '_' (BA_HARDENED is ba-hardened). */
        static String configValue(Enum<?> e) {
            return e.name().toLowerCase(Locale.ROOT).replace('_', '-');
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
