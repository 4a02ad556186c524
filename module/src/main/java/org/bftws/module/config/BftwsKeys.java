package org.bftws.module.config;

import static org.bftws.core.config.ConfigScope.CLIENT;
import static org.bftws.core.config.ConfigScope.GROUP;
import static org.bftws.core.config.ConfigScope.INSTANCE;
import static org.bftws.core.config.ConfigScope.REPLICA;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;

import org.bftws.core.config.ConfigKey;
import org.bftws.core.config.GroupConfig;
import org.bftws.core.crypto.Authentication;
import org.bftws.core.reconfig.Administrators;
import org.bftws.core.replication.ReplicatedClients;
import org.bftws.module.xml.XmlLimits;

/**
 * The Axis2 module's own axis2.xml {@code <parameter>}s, each declared once with its scope, default, rule and
 * the reason for that default (docs/design/style.md, after Ratis). The protocol keys the whole group agrees on
 * ({@code bftws.f}, {@code bftws.checkpointInterval}, ..., all in ticks) are core's, declared in
 * {@link GroupConfig}. {@link BftwsParameters#parse} reads both and checks the rules that span keys.
 */
public final class BftwsKeys {
    /** Turns the replica group on. Default off: engaging bftws.mar alone must not change WS-RM. */
    public static final ConfigKey<Boolean> REPLICATED = ConfigKey.bool("bftws.replicated", GROUP, false);

    /**
     * "client" or "replica": handlers cannot tell the sides apart from the message (see {@link Side}). Default
     * client: clients far outnumber replicas, and a client needs the fewest other keys.
     */
    public static final ConfigKey<Side> ROLE = ConfigKey.choice("bftws.role", INSTANCE, Side.class, Side.CLIENT);

    /**
     * The group endpoint applications address (paper §3.3.1.2); the Multicast Sender maps it. Required when
     * replicated: no default, a guessed endpoint would address some other service.
     */
    public static final ConfigKey<URI> GROUP_ENDPOINT = ConfigKey.httpUrl("bftws.group.endpoint", GROUP);

    /**
     * Whitespace- or comma-separated {@code id=endpoint} pairs, ids 0..n-1, one per replica. Required when
     * replicated: no default, only the operator knows where the replicas run.
     */
    public static final ConfigKey<List<ReplicaEndpoint>> REPLICAS = ConfigKey.list("bftws.replicas", GROUP,
            BftwsKeys::replicaEntry, e -> e.id() + "=" + e.endpoint(), "id=endpoint pairs with http(s) URLs");

    /**
     * This replica's id in {@link #REPLICAS}, 0..n-1 (n = 3f+1, at most 97); required with role=replica,
     * forbidden on clients. No default: two replicas must never take the same id.
     */
    public static final ConfigKey<Integer> REPLICA_ID =
            ConfigKey.integer("bftws.replica.id", REPLICA, null, 0, 3 * GroupConfig.F_MAX);

    /**
     * This instance's private signing key (Ed25519 over protocol bytes, docs/design/architecture.md; a replica's file also
     * holds its threshold share). Required when replicated: no default, each instance has its own file.
     */
    public static final ConfigKey<Path> PRIVATE_KEY = ConfigKey.path("bftws.keys.private", INSTANCE);
    /** Public keys of all replicas and clients, written by the keygen tool; required when replicated. */
    public static final ConfigKey<Path> PUBLIC_KEYS = ConfigKey.path("bftws.keys.public", GROUP);

    /**
     * dealer | dkg: where the group's threshold keys come from ({@link KeysMode}). With dkg, {@link #PUBLIC_KEYS}
     * is the group's {@code members.pub}, {@link #PRIVATE_KEY} the replica's own {@code replica-I.id}, and a
     * replica needs {@code bftws.dataDir} for the share the distributed key generation gives it; refused with
     * {@code bftws.randomness.scheme=rsa} (no distributed generation of Shoup RSA keys), with a
     * {@code bftws.randomness.algorithm} other than ct (the engine takes keys while it runs only beside the
     * threshold coin), with {@code bftws.ordering=async} and with execution nodes. Every replica of a group must use the same value.
     * Default dealer: the keys of {@code scripts/keygen}, which tests and the RSA coin need.
     */
    public static final ConfigKey<KeysMode> KEYS_MODE = ConfigKey.choice("bftws.keys.mode", REPLICA, KeysMode.class,
            KeysMode.DEALER);

    /**
     * With {@link #KEYS_MODE}=dkg: every replica votes for a proactive refresh of the group's generated keys
     * (Herzberg-Jarecki-Krawczyk-Yung) each time its stable checkpoint passes the next multiple of this many
     * checkpoints ({@code bftws.checkpointInterval} requests each); the refresh starts where f+1 votes are
     * ordered. 0 (the default): only on the operator's command ({@code scripts/refresh-keys}). Refused above 0
     * with dealt keys.
     */
    public static final ConfigKey<Integer> KEYS_REFRESH_EVERY_CHECKPOINTS =
            ConfigKey.integer("bftws.keys.refreshEveryCheckpoints", REPLICA, 0, 0, 1 << 20);

    /**
     * Wall-clock milliseconds per core tick. Every protocol timeout is a core key counted in ticks
     * ({@link GroupConfig}); this key alone turns ticks into time. 20 ms makes core's defaults read: view
     * change after 200 ticks = 4 s (above the ≈1.8 s of the first signed call in a cold JVM,
     * docs/design/dependencies.md, so a replica that just started does not depose a correct primary), retransmission
     * every 50 ticks = 1 s, client retransmission after 100 ticks = 2 s, view-change timeout capped at
     * 3200 ticks ≈ 64 s. Finer ticks would only wake the ordering thread more often: no protocol step
     * waits for a tick in the normal case.
     */
    public static final ConfigKey<Integer> TICK_MILLIS = ConfigKey.integer("bftws.tickMillis", INSTANCE, 20, 1, 60_000);

    /**
     * Largest BFT-WS control message (decoded {@code Signed} bytes) an instance accepts or sends; it must
     * exceed {@code bftws.maxRequestBytes}. 16 MiB holds a pre-prepare of 16 requests of core's 1 MiB
     * maximum; bigger batches of big requests need it raised (or smaller {@code bftws.maxBatchSize}). Bounds
     * the memory one HTTP request can claim. Group scope: a member with a smaller limit refuses its peers'
     * messages.
     */
    public static final ConfigKey<Integer> CONTROL_MAX_BYTES =
            ConfigKey.integer("bftws.control.maxMessageBytes", GROUP, 16 << 20, 4096, 1 << 30);

    /**
     * true: a control port without a WS-Security check (every replica's, a client's with
     * {@code bftws.security=none}) reads a POST in the plain control-message envelope with one StAX pass and
     * hands it to the Total Order Manager (or the Voter) without Axis2's handler chain; anything else still
     * goes through Axis2 (docs/module.md, "Control port"). Halves a replica hop's transport time on loopback
     * (docs/performance.md). false: every control message goes through Axis2's phases, e.g. for an operator who
     * engages an auditing module on every service. Applies only behind the module's HTTP server
     * (RoutingHttpServer); in a servlet container control messages always go through Axis2.
     */
    public static final ConfigKey<Boolean> CONTROL_DIRECT_RECEIVE =
            ConfigKey.bool("bftws.control.directReceive", INSTANCE, true);

    /**
     * Largest SOAP message body an Axis2 instance of a replica group parses: a larger declared Content-Length
     * is refused by the Global In Handler before the body is read, a chunked (or understated) body by the
     * module's bounded SOAP builder when it crosses the limit, so one request cannot make a replica buffer an
     * unbounded body. Must carry the largest control message base64-encoded (4/3 of
     * {@code bftws.control.maxMessageBytes}) plus its envelope; 24 MiB does that for the 16 MiB default.
     */
    public static final ConfigKey<Integer> HTTP_MAX_REQUEST_BYTES =
            ConfigKey.integer("bftws.http.maxRequestBytes", INSTANCE, 24 << 20, 4096, Integer.MAX_VALUE);

    /**
     * Deepest element nesting of a client's payload. Echo-like documents are a few levels deep; 256 leaves
     * room for deeply structured data while keeping the tree Axiom builds (and the service walks) shallow.
     * At most {@link XmlLimits#PARSER_CAP}, the StAX parser's own cap.
     */
    public static final ConfigKey<Integer> XML_MAX_DEPTH =
            ConfigKey.integer("bftws.xml.maxDepth", REPLICA, 256, 1, XmlLimits.PARSER_CAP);

    /**
     * Most elements in one client payload. Core's 1 MiB request limit alone allows ≈260,000 empty elements;
     * 100,000 keeps every realistic request (the echo benchmarks send at most a few thousand).
     */
    public static final ConfigKey<Integer> XML_MAX_ELEMENTS =
            ConfigKey.integer("bftws.xml.maxElements", REPLICA, 100_000, 1, 10_000_000);

    /**
     * Most attributes on one element of a client payload; at most {@link XmlLimits#PARSER_CAP}. 64 is far
     * above what a SOAP payload element carries.
     */
    public static final ConfigKey<Integer> XML_MAX_ATTRIBUTES =
            ConfigKey.integer("bftws.xml.maxAttributes", REPLICA, 64, 1, XmlLimits.PARSER_CAP);

    /**
     * Clients only: the URL of this instance's BFT-WS control port as the replicas reach it
     * ({@code http://HOST:PORT/axis2/services/BftwsControl}), where their replies arrive. Optional: an
     * embedding that starts the HTTP listener itself can publish the listener's base URL instead
     * (client-lib's EmbeddedAxis2Server does). No default: a guessed host name would send replies astray.
     */
    public static final ConfigKey<URI> CLIENT_REPLY_ENDPOINT = ConfigKey.httpUrl("bftws.client.replyEndpoint", CLIENT);

    /**
     * pbft | async | hybrid: the ordering engine ({@link Ordering}; docs/configuration.md, "Ordering modes"). Every replica
     * and client of a group must use the same value: a replica of the other mode refuses all its peers' agreement
     * messages as evidence, and an async or hybrid group never answers a client's read-only requests, so a pbft
     * client's read-only calls wait for their fallback to ordering. Default pbft: fewer messages per request, and the
     * better choice while no replica is slow or malicious about timing (docs/performance.md).
     */
    public static final ConfigKey<Ordering> ORDERING =
            ConfigKey.choice("bftws.ordering", GROUP, Ordering.class, Ordering.PBFT);

    /**
     * none | ct | ba | ba-hardened: how collective random numbers are produced (integrity paper §4–§5). CT
     * uses the threshold share in the replica's {@code bftws.keys.private} file and the group key in
     * {@code bftws.keys.public}; BA needs no keys. Every replica of a group must use the same value. Default
     * none: only services with randomized operations need it, and it costs agreement messages or crypto.
     */
    public static final ConfigKey<RandomnessAlgorithm> RANDOMNESS = ConfigKey.choice("bftws.randomness.algorithm",
            REPLICA, RandomnessAlgorithm.class, RandomnessAlgorithm.NONE);

    /**
     * cks | bls | rsa: the threshold scheme of the CT coin; must match the dealt keys. Default cks: pure Java
     * (no JNI), 128-bit, fastest to verify of the three (docs/design/cryptography.md).
     */
    public static final ConfigKey<ThresholdScheme> THRESHOLD_SCHEME = ConfigKey.choice("bftws.randomness.scheme",
            REPLICA, ThresholdScheme.class, ThresholdScheme.CKS);

    /**
     * none | rampart: WS-Security signing of the client↔replica WS-RM exchange by Rampart (docs/security.md,
     * "WS-Security signing"). Needs rampart.mar in the repository and {@link #SECURITY_POLICY}; clients and
     * replicas of a group must agree, or CreateSequence is refused. Default none, as in plain Axis2: signing
     * costs ≈3.8 ms per message (docs/design/dependencies.md) and needs keystores.
     */
    public static final ConfigKey<SecurityMode> SECURITY =
            ConfigKey.choice("bftws.security", GROUP, SecurityMode.class, SecurityMode.NONE);

    /**
     * signatures | macs: how replicas authenticate the normal case's prepares and commits to each other. With
     * macs they carry authenticators (vectors of HMAC-SHA256 tags, pairwise keys agreed from the Ed25519 keys of
     * {@code group.pub} and {@code replica-I.key}, Castro-Liskov TOCS 2002 §3.2) and a prepare's signature is
     * checked only when it goes into a prepared certificate, a commit's never; client requests and every
     * certificate stay signed (docs/design/cryptography.md, "Authenticators"). Every replica of a group must
     * use the same value: a replica with signatures refuses nothing a macs replica sends, but a macs replica
     * verifies a signatures replica's votes one by one. Default macs, measured cheaper with every simulator
     * invariant kept (docs/performance.md, "Authentication"); signatures verifies every vote on arrival.
     */
    public static final ConfigKey<Authentication> AUTHENTICATION =
            ConfigKey.choice("bftws.authentication", GROUP, Authentication.class, Authentication.DEFAULT);

    /**
     * With {@code bftws.security=rampart}: a WS-SecurityPolicy 1.1 file with a {@code ramp:RampartConfig}
     * (this party's keystore, password callback, the others' certificates as trusted entries). A replica
     * attaches it to its main service, a client to the ServiceClients that send CreateSequence. Required with
     * rampart, forbidden without, so a forgotten mode is not silently off.
     */
    public static final ConfigKey<Path> SECURITY_POLICY = ConfigKey.path("bftws.security.policy", INSTANCE);

    /**
     * Messages the Multicast Sender has sent to one destination and not yet had acknowledged (paper §3.3.1.2),
     * hence POSTs in flight to it at most. One at a time capped a replica at one message per round trip and
     * peer: with 25 ms of emulated WAN delay per hop, BFT-WS echo reached 0.13× WS-RM's throughput at 8
     * clients; a window of 4 gave 0.34×, and 8 or 16 no more (on the LAN no window made a difference): docs/module.md,
     * "Ordering over SOAP/HTTP". Each step costs a sender thread per peer. A window of 1 keeps each
     * destination's messages in FIFO order; PBFT does not need it.
     */
    public static final ConfigKey<Integer> MULTICAST_WINDOW =
            ConfigKey.integer("bftws.multicast.window", INSTANCE, 4, 1, 64);

    /**
     * Retransmissions of one message after its POST failed (no connection, timeout, 5xx without a SOAP
     * fault) before the destination is marked down and only probed. 3, after 100, 200 and 400 ms
     * ({@code bftws.multicast.retransmitMillis}): a peer refusing connections for ≈0.7 s is given up, so it
     * holds no thread and no memory; a lost message beyond that is PBFT's to repair (Castro-Liskov §4.2).
     */
    public static final ConfigKey<Integer> MULTICAST_RETRANSMISSIONS =
            ConfigKey.integer("bftws.multicast.retransmissions", INSTANCE, 3, 0, 16);

    /**
     * Wait before the first retransmission; it doubles for each further one. 100 ms is several LAN round
     * trips and two emulated-WAN ones, and a tenth of PBFT's own retransmission period at the default tick.
     */
    public static final ConfigKey<Integer> MULTICAST_RETRANSMIT_MILLIS =
            ConfigKey.integer("bftws.multicast.retransmitMillis", INSTANCE, 100, 1, 60_000);

    /**
     * Bytes of messages waiting for a window slot, per destination, before the oldest waiting one is dropped
     * (PBFT retransmits; the newest messages move it on). 8 MiB holds hundreds of batches of 1 KB requests,
     * far more than a live peer lags behind; a dead peer holds at most one message. One message larger than
     * this is still sent, alone.
     */
    public static final ConfigKey<Integer> MULTICAST_BUFFER_BYTES =
            ConfigKey.integer("bftws.multicast.bufferBytes", INSTANCE, 8 << 20, 64 << 10, 1 << 30);

    /**
     * Seconds between a replica's status lines in its log (view, primary, executed, stable checkpoint, pending
     * requests, evidence, peers down; docs/operating.md); 0 turns them off. 30 s shows a replica falling behind
     * or a view change within half a minute at two lines a minute per replica; finer state is on the MBean.
     */
    public static final ConfigKey<Integer> STATUS_LOG_SECONDS =
            ConfigKey.integer("bftws.statusLogSeconds", REPLICA, 30, 0, 86_400);

    /**
     * Which client keys form one replicated client (BFT-WS paper §3.4: the 3p+1 replicas of a middle tier that
     * call this group, each with its own client key): groups separated by ';', each a ','-separated list of
     * client ids and ranges, e.g. {@code 4-7}. Set alike on every replica of the called group (whose replicas
     * then order a member's request only with p+1 identical copies from distinct members, p = (members − 1)
     * / 3, and answer every member) and on each member's nested client (which then can share a sequence with
     * the other members, docs/three-tier.md). Default none: every client stands alone.
     */
    public static final ConfigKey<ReplicatedClients> REPLICATED_CLIENTS = ConfigKey.of("bftws.replicatedClients",
            GROUP, ReplicatedClients.none(), BftwsKeys::replicatedClients,
            "client id groups like 4-7 or 4,5,6,7;8-11, disjoint", ReplicatedClients::toText);

    /**
     * An ordering replica's data directory, where it keeps its journal (docs/journal.md): with it, a
     * replica killed and started again restarts with the state of its last stable checkpoint and the messages
     * it signed since (PBFT's votes, Castro-Liskov TOCS 2002 §4.3; the asynchronous engine's committing
     * messages, SINTRA §2; the hybrid engine's lane votes, SWITCHes and fallback messages), instead of empty. One per replica, never shared. No default: unset, the replica
     * keeps nothing on disk and restarts empty, fetching the state by state transfer. Refused on configuration
     * III's execution nodes, which keep no journal.
     */
    public static final ConfigKey<Path> DATA_DIR = ConfigKey.path("bftws.dataDir", REPLICA);

    /**
     * os | fsync: how far a journal record is written before the messages it covers are sent. os hands it to
     * the operating system, which keeps it when the replica's process is killed (kill -9) but not when the
     * host loses power; fsync forces it to the disk first. Default os: a power loss of one replica's host is
     * one fault among the f the group tolerates, whereas fsync costs a disk flush per ordering step (measured in
     * docs/journal.md, "Durability"); choose fsync where more than f replicas could lose power together.
     */
    public static final ConfigKey<JournalDurability> JOURNAL_DURABILITY = ConfigKey.choice("bftws.journal.durability",
            REPLICA, JournalDurability.class, JournalDurability.OS);

    /**
     * The group's administrators, k of whom sign a reconfiguration (docs/design/reconfiguration.md): the
     * {@code admins.pub} written by {@code scripts/keygen --admin J --out DIR}. Set alike on every replica and
     * client of the group; with it, the replicas run the epoch engine and refuse at start-up, naming the key,
     * what that engine does not support ({@link ReconfigParameters}). No default: unset, the membership never
     * changes and nothing else differs.
     */
    public static final ConfigKey<Path> RECONFIG_ADMINISTRATORS = ConfigKey.path("bftws.reconfig.administrators",
            GROUP);

    /**
     * k, how many of the administrators of {@link #RECONFIG_ADMINISTRATORS} must sign a reconfiguration, 1 to
     * their number. Default 1: one operator administers a group unless more are listed; set it above 1 so one
     * stolen administrator key changes nothing.
     */
    public static final ConfigKey<Integer> RECONFIG_THRESHOLD = ConfigKey.integer("bftws.reconfig.threshold", GROUP,
            1, 1, Administrators.MAX);

    /**
     * The keys that place an instance in a group (its endpoints, id, key files, reply port, policy): read only
     * with {@code bftws.replicated=true}, so a plain WS-RM instance may leave stale ones in its axis2.xml.
     */
    public static final List<ConfigKey<?>> MEMBERSHIP = List.of(GROUP_ENDPOINT, REPLICAS, REPLICA_ID,
            PRIVATE_KEY, PUBLIC_KEYS, CLIENT_REPLY_ENDPOINT, SECURITY_POLICY, RECONFIG_ADMINISTRATORS);

    /** Every key of the module, in the order of the configuration reference (docs/configuration.md). */
    public static final List<ConfigKey<?>> ALL = List.of(REPLICATED, ROLE, GROUP_ENDPOINT, REPLICAS, REPLICA_ID,
            PRIVATE_KEY, PUBLIC_KEYS, KEYS_MODE, KEYS_REFRESH_EVERY_CHECKPOINTS, TICK_MILLIS, CONTROL_MAX_BYTES, CONTROL_DIRECT_RECEIVE, HTTP_MAX_REQUEST_BYTES,
            XML_MAX_DEPTH, XML_MAX_ELEMENTS, XML_MAX_ATTRIBUTES, CLIENT_REPLY_ENDPOINT, RANDOMNESS, THRESHOLD_SCHEME, SECURITY,
            SECURITY_POLICY, AUTHENTICATION, MULTICAST_WINDOW, MULTICAST_RETRANSMISSIONS, MULTICAST_RETRANSMIT_MILLIS,
            MULTICAST_BUFFER_BYTES, STATUS_LOG_SECONDS, REPLICATED_CLIENTS, ORDERING, DATA_DIR, JOURNAL_DURABILITY,
            RECONFIG_ADMINISTRATORS, RECONFIG_THRESHOLD);

    private BftwsKeys() {
    }

    private static ReplicatedClients replicatedClients(String text) {
        try {
            return ReplicatedClients.parse(text);
        } catch (IllegalArgumentException e) {
            throw new ConfigKey.Refused(e.getMessage());
        }
    }

    /** One {@code id=endpoint} entry of {@link #REPLICAS}; the id's range depends on f, checked later. */
    private static ReplicaEndpoint replicaEntry(String entry) {
        int eq = entry.indexOf('=');
        if (eq <= 0) {
            throw new ConfigKey.Refused("is no id=endpoint pair");
        }
        int id;
        try {
            id = Integer.parseInt(entry.substring(0, eq));
        } catch (NumberFormatException e) {
            throw new ConfigKey.Refused("has no integer id");
        }
        if (id < 0) {
            throw new ConfigKey.Refused("has a negative id");
        }
        return new ReplicaEndpoint(id, ConfigKey.parseHttpUrl(entry.substring(eq + 1)));
    }
}
