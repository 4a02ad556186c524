package org.bftws.module.config;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;

import org.bftws.core.config.ConfigKey;
import org.bftws.core.config.ConfigValues;
import org.bftws.core.config.GroupConfig;
import org.bftws.core.crypto.Authentication;
import org.bftws.core.reconfig.Administrators;
import org.bftws.core.replication.ReplicatedClients;
import org.bftws.module.transport.MulticastSettings;
import org.bftws.module.xml.XmlLimits;

/**
 * The validated BFT-WS settings of one Axis2 instance, as read from axis2.xml by {@link BftwsParameters#parse}:
 * the values of the module's keys ({@link BftwsKeys}) and core's {@link GroupConfig}. Immutable; one instance
 * per ConfigurationContext. Each getter reads one declared key (see its declaration for the meaning and the
 * default), or a few of them grouped the way their user takes them.
 */
public final class BftwsConfig {
    /** {@link #replicaId()} of a client, or of an instance outside a group. */
    public static final int NO_REPLICA = -1;

    private final ConfigValues values;
    private final GroupConfig group;
    private final XmlLimits xmlLimits;
    private final MulticastSettings multicast;

    BftwsConfig(ConfigValues values, GroupConfig group) {
        this.values = values;
        this.group = group;
        this.xmlLimits = new XmlLimits(get(BftwsKeys.XML_MAX_DEPTH), get(BftwsKeys.XML_MAX_ELEMENTS),
                get(BftwsKeys.XML_MAX_ATTRIBUTES));
        this.multicast = new MulticastSettings(get(BftwsKeys.MULTICAST_WINDOW),
                get(BftwsKeys.MULTICAST_RETRANSMISSIONS), get(BftwsKeys.MULTICAST_RETRANSMIT_MILLIS),
                get(BftwsKeys.MULTICAST_BUFFER_BYTES), MulticastSettings.BUFFER_MESSAGES_DEFAULT,
                MulticastSettings.TIMEOUT_DEFAULT);
    }

    /** The value of one of the module's keys: as given, else its default (null if it has none). */
    public <T> T get(ConfigKey<T> key) {
        return values.get(key);
    }

    /** This replica's data directory ({@code bftws.dataDir}), or null: no journal, restart empty. */
    public Path dataDir() {
        return get(BftwsKeys.DATA_DIR);
    }

    public JournalDurability journalDurability() {
        return get(BftwsKeys.JOURNAL_DURABILITY);
    }

    /** False: bftws.mar behaves exactly like Sandesha2 (plain WS-RM, paper §3.3.1). */
    public boolean replicated() {
        return get(BftwsKeys.REPLICATED);
    }

    /** Which side of the group this instance is ({@code bftws.role}). */
    public Side side() {
        return get(BftwsKeys.ROLE);
    }

    /**
     * The protocol settings the whole group agrees on (f, K, L, batching, timeouts in ticks), declared once in
     * core's {@link GroupConfig}.
     */
    public GroupConfig group() {
        return group;
    }

    /** The group endpoint, or null when not replicated. */
    public URI groupEndpoint() {
        return get(BftwsKeys.GROUP_ENDPOINT);
    }

    /** The replicas ordered by id (index i holds replica i); empty when not replicated. */
    public List<ReplicaEndpoint> replicas() {
        List<ReplicaEndpoint> listed = listed();
        return listed.size() <= n() ? listed : listed.subList(0, n());
    }

    /**
     * Configuration III's execution nodes (BFT-WS §3.3.3) as {@code bftws.replicas} names them, in the order of
     * {@code bftws.executionNodes}; empty in configurations I and II.
     */
    public List<ReplicaEndpoint> executionNodes() {
        List<ReplicaEndpoint> listed = listed();
        return listed.size() <= n() ? List.of() : listed.subList(n(), listed.size());
    }

    /** The endpoint of node {@code id}, a replica or an execution node of {@code bftws.replicas}. */
    public ReplicaEndpoint member(int id) {
        for (ReplicaEndpoint r : listed()) {
            if (r.id() == id) {
                return r;
            }
        }
        throw new IllegalArgumentException("no member " + id + " in " + BftwsKeys.REPLICAS.name());
    }

    /** True on an execution node of configuration III: it executes what the agreement replicas ordered. */
    public boolean isExecutionNode() {
        return isReplica() && group.isExecutionNode(replicaId());
    }

    /** Replicas by id, then execution nodes (checked by {@link BftwsParameters}). */
    private List<ReplicaEndpoint> listed() {
        List<ReplicaEndpoint> replicas = get(BftwsKeys.REPLICAS);
        return replicas == null ? List.of() : replicas;
    }

    /** This instance's id in {@link #replicas()}, or {@link #NO_REPLICA} on a client. */
    public int replicaId() {
        Integer id = get(BftwsKeys.REPLICA_ID);
        return id == null ? NO_REPLICA : id;
    }

    public Path privateKeyPath() {
        return get(BftwsKeys.PRIVATE_KEY);
    }

    public Path publicKeysPath() {
        return get(BftwsKeys.PUBLIC_KEYS);
    }

    /** Wall-clock length of one core tick. */
    public int tickMillis() {
        return get(BftwsKeys.TICK_MILLIS);
    }

    /** Largest BFT-WS control message accepted or sent (decoded bytes). */
    public int controlMaxBytes() {
        return get(BftwsKeys.CONTROL_MAX_BYTES);
    }

    /**
     * The largest POST body the control port reads directly, without Axis2's handler chain (its largest message
     * base64-encoded in the envelope, within {@code bftws.http.maxRequestBytes}); 0 with
     * {@code bftws.control.directReceive=false}.
     */
    public int controlDirectBodyBytes() {
        if (!get(BftwsKeys.CONTROL_DIRECT_RECEIVE)) {
            return 0;
        }
        return (int) Math.min(BftwsParameters.controlEnvelopeBytes(controlMaxBytes()), httpMaxRequestBytes());
    }

    /** Largest HTTP request body (Content-Length) let into Axis2. */
    public int httpMaxRequestBytes() {
        return get(BftwsKeys.HTTP_MAX_REQUEST_BYTES);
    }

    /** Shape limits on a client's payload (depth, elements, attributes). */
    public XmlLimits xmlLimits() {
        return xmlLimits;
    }

    /** A client's control port as the replicas reach it, or null (see {@link BftwsKeys#CLIENT_REPLY_ENDPOINT}). */
    public URI clientReplyEndpoint() {
        return get(BftwsKeys.CLIENT_REPLY_ENDPOINT);
    }

    /** Which ordering engine the group runs ({@code bftws.ordering}). */
    public Ordering ordering() {
        return get(BftwsKeys.ORDERING);
    }

    public RandomnessAlgorithm randomness() {
        return get(BftwsKeys.RANDOMNESS);
    }

    /** Where the group's threshold keys come from ({@code bftws.keys.mode}). */
    public KeysMode keysMode() {
        return get(BftwsKeys.KEYS_MODE);
    }

    /** Stable checkpoints between a replica's votes for a refresh of the keys ({@code 0}: none). */
    public int refreshEveryCheckpoints() {
        return get(BftwsKeys.KEYS_REFRESH_EVERY_CHECKPOINTS);
    }

    public ThresholdScheme thresholdScheme() {
        return get(BftwsKeys.THRESHOLD_SCHEME);
    }

    /** Which client keys form one replicated client (BFT-WS §3.4; {@code bftws.replicatedClients}). */
    public ReplicatedClients replicatedClients() {
        return get(BftwsKeys.REPLICATED_CLIENTS);
    }

    /** How replicas authenticate prepares and commits to each other ({@code bftws.authentication}). */
    public Authentication authentication() {
        return get(BftwsKeys.AUTHENTICATION);
    }

    /** WS-Security signing of the client↔replica WS-RM exchange. */
    public SecurityMode security() {
        return get(BftwsKeys.SECURITY);
    }

    /** The WS-SecurityPolicy file Rampart enforces, or null without signing. */
    public Path securityPolicy() {
        return get(BftwsKeys.SECURITY_POLICY);
    }

    /** The Multicast Sender's window, retransmission and buffer limits (§3.3.1.2). */
    public MulticastSettings multicast() {
        return multicast;
    }

    /** Seconds between the replica's status lines in its log, 0 for none. */
    public int statusLogSeconds() {
        return get(BftwsKeys.STATUS_LOG_SECONDS);
    }

    /** Faults tolerated (core's {@code bftws.f}). */
    public int f() {
        return group.f();
    }

    /** Number of replicas, n = 3f + 1 in configuration I; 0 when not replicated. */
    public int n() {
        return replicated() ? group.n() : 0;
    }

    /**
     * The first client node id (core's {@code bftws.maxReplicas}, n when not given): clients and execution
     * nodes number from here, above every replica index an epoch can use; 0 when not replicated.
     */
    public int clientBase() {
        return replicated() ? group.clientBase() : 0;
    }

    /** True on a replica of a configured group: the only case where ordering handlers act. */
    public boolean isReplica() {
        return replicated() && side() == Side.REPLICA;
    }

    /** True if {@code address} (a message's wsa:To) addresses a service of this configuration's group. */
    public boolean isGroupEndpoint(String address) {
        return groupService(address) != null;
    }

    /**
     * The group's service {@code address} names: "" for the group endpoint itself (the group's main service),
     * NAME for a sibling {@code .../services/NAME} of it (another service deployed on the replicas), null for
     * any other address.
     */
    public String groupService(String address) {
        URI groupEndpoint = groupEndpoint();
        if (groupEndpoint == null || address == null) {
            return null;
        }
        String group = groupEndpoint.toString();
        String to = address.trim();
        if (group.equals(to)) {
            return "";
        }
        String base = group.substring(0, group.lastIndexOf('/') + 1);
        String name = to.startsWith(base) ? to.substring(base.length()) : "";
        return name.isEmpty() || !name.chars().allMatch(c -> Character.isLetterOrDigit(c) || c == '_' || c == '-')
                ? null : name;
    }

    /**
     * The group's administrators ({@code bftws.reconfig.administrators} with {@code bftws.reconfig.threshold}),
     * or null: the membership never changes.
     */
    public Administrators administrators() {
        Path file = get(BftwsKeys.RECONFIG_ADMINISTRATORS);
        return replicated() && file != null
                ? ReconfigParameters.administrators(file, get(BftwsKeys.RECONFIG_THRESHOLD)) : null;
    }

    /** True on a client of a configured group: the only case where the voter acts. */
    public boolean isGroupClient() {
        return replicated() && side() == Side.CLIENT;
    }
}
