package org.bftws.module.config;

import static org.bftws.module.config.BftwsKeys.CLIENT_REPLY_ENDPOINT;
import static org.bftws.module.config.BftwsKeys.CONTROL_MAX_BYTES;
import static org.bftws.module.config.BftwsKeys.GROUP_ENDPOINT;
import static org.bftws.module.config.BftwsKeys.HTTP_MAX_REQUEST_BYTES;
import static org.bftws.module.config.BftwsKeys.ORDERING;
import static org.bftws.module.config.BftwsKeys.RANDOMNESS;
import static org.bftws.module.config.BftwsKeys.REPLICATED_CLIENTS;
import static org.bftws.module.config.BftwsKeys.PRIVATE_KEY;
import static org.bftws.module.config.BftwsKeys.PUBLIC_KEYS;
import static org.bftws.module.config.BftwsKeys.REPLICAS;
import static org.bftws.module.config.BftwsKeys.REPLICATED;
import static org.bftws.module.config.BftwsKeys.REPLICA_ID;
import static org.bftws.module.config.BftwsKeys.ROLE;
import static org.bftws.module.config.BftwsKeys.SECURITY;
import static org.bftws.module.config.BftwsKeys.SECURITY_POLICY;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.bftws.core.config.ConfigException;
import org.bftws.core.config.ConfigKey;
import org.bftws.core.config.ConfigValues;
import org.bftws.core.config.GroupConfig;

/**
 * Reads the axis2.xml {@code <parameter>}s of the Axis2 module: each key declared in {@link BftwsKeys} (the
 * module's) or {@link GroupConfig} (core's protocol keys, parsed by {@link GroupConfig#fromProperties}) is
 * parsed by its declaration; the rules that span keys are checked here.
 *
 * <p>Any parameter whose name starts with {@value #PREFIX} and is declared neither in the module nor in core
 * is rejected, so a misspelt key stops start-up instead of silently falling back to a default. Without
 * {@code bftws.replicated=true} the other keys are still type-checked, except {@link BftwsKeys#MEMBERSHIP},
 * and the group keys are not required: the module then serves plain WS-RM (backward compatibility, paper
 * §3.3.1).
 */
public final class BftwsParameters {
    public static final String PREFIX = "bftws.";

    /** Every key axis2.xml may set: the module's and core's. */
    public static final List<ConfigKey<?>> DECLARED = declared();
    /** The names of the module's own keys ({@link BftwsKeys#ALL}); core's are {@link GroupConfig#ALL}. */
    public static final List<String> MODULE_KEYS = names(BftwsKeys.ALL);
    /** The names of {@link #DECLARED}, for the unknown-key check. */
    public static final List<String> KEYS = names(DECLARED);

    /** Room for the SOAP envelope and headers around a control message's base64 text. */
    static final int ENVELOPE_ALLOWANCE = 16 * 1024;

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
        boolean replicated = read(params, List.of(REPLICATED)).get(REPLICATED);
        List<ConfigKey<?>> keys = new ArrayList<>(BftwsKeys.ALL);
        if (!replicated) {
            keys.removeAll(BftwsKeys.MEMBERSHIP);
        }
        ConfigValues values = read(params, keys);
        GroupConfig group = groupConfig(params);
        checkMessageLimits(values, group);
        checkOrdering(values, group);
        if (replicated) {
            values = checkMembership(values, group);
            checkDataDir(values, group);
            checkKeysMode(values, group);
            ReconfigParameters.check(values, group);
        }
        return new BftwsConfig(values, group);
    }

    /** The largest HTTP body carrying a control message of {@code controlMax} bytes: base64 plus its envelope. */
    public static long controlEnvelopeBytes(int controlMax) {
        return 4L * ((controlMax + 2L) / 3) + ENVELOPE_ALLOWANCE;
    }

    /** A request travels inside a signed control message, which travels base64-encoded in an HTTP body. */
    private static void checkMessageLimits(ConfigValues values, GroupConfig group) {
        int controlMax = values.get(CONTROL_MAX_BYTES);
        int requestMax = group.get(GroupConfig.MAX_REQUEST_BYTES);
        if (controlMax <= requestMax) {
            throw new BftwsConfigException(CONTROL_MAX_BYTES.name(), "must exceed " + GroupConfig.MAX_REQUEST_BYTES
                    + " (" + requestMax + "): a request travels inside a signed control message, got " + controlMax);
        }
        long needed = controlEnvelopeBytes(controlMax);
        int httpMax = values.get(HTTP_MAX_REQUEST_BYTES);
        if (httpMax < needed) {
            throw new BftwsConfigException(HTTP_MAX_REQUEST_BYTES.name(), "must be at least " + needed
                    + " to carry a control message of " + CONTROL_MAX_BYTES + " (" + controlMax
                    + ") base64-encoded in its envelope, got " + httpMax);
        }
    }

    /**
     * The protocol keys that only PBFT reads: with {@code bftws.ordering=async} they are ignored (there is no
     * primary to suspect and nothing proposes batches one after another), and the module logs the ones set.
     * {@code bftws.authentication} too: every message of the asynchronous engine is signed.
     */
    public static final List<ConfigKey<?>> PBFT_ONLY = List.of(GroupConfig.MAX_OUTSTANDING_BATCHES,
            GroupConfig.VIEW_CHANGE_TIMEOUT, GroupConfig.VIEW_CHANGE_TIMEOUT_MAX, BftwsKeys.AUTHENTICATION);

    /**
     * Of {@link #PBFT_ONLY}, what the hybrid engine ignores too: its switch budget is capped by {@code
     * bftws.viewChangeTimeoutTicks} with no doubling (docs/design/hybrid.md). It reads the leader's window,
     * {@code bftws.maxOutstandingBatches}, and {@code bftws.authentication} (its fast lane's PROPOSE, PREPARE and
     * COMMIT by authenticators with {@code macs}, the default).
     */
    public static final List<ConfigKey<?>> NOT_HYBRID = List.of(GroupConfig.VIEW_CHANGE_TIMEOUT_MAX);

    /** The keys {@code params} sets that {@code config}'s ordering engine does not read. */
    public static List<String> ignoredByOrdering(BftwsConfig config, Map<String, String> params) {
        List<ConfigKey<?>> ignored = switch (config.ordering()) {
            case PBFT -> List.of();
            case ASYNC -> PBFT_ONLY;
            case HYBRID -> NOT_HYBRID;
        };
        return ignored.stream().map(ConfigKey::name)
                .filter(k -> params.get(k) != null && !params.get(k).isBlank()).toList();
    }

    /**
     * What asynchronous and hybrid ordering cannot run (core's {@code AsyncReplica} and {@code HybridReplica}
     * have none of it, and the simulator refuses the same): the BA randomness algorithms, which work through
     * PBFT's primary (integrity paper §4); agreement replicas that do not execute (configuration II or III,
     * BFT-WS §3.3.2-3.3.3); replicated clients (§3.4).
     */
    private static void checkOrdering(ConfigValues values, GroupConfig group) {
        Ordering ordering = values.get(ORDERING);
        if (!ordering.tossesCoin()) {
            return;
        }
        String why = " with " + ORDERING + "=" + ordering.configValue();
        RandomnessAlgorithm random = values.get(RANDOMNESS);
        if (random == RandomnessAlgorithm.BA || random == RandomnessAlgorithm.BA_HARDENED) {
            throw new BftwsConfigException(RANDOMNESS.name(), "must be ct or none" + why + ", got "
                    + random.configValue() + ": the BA algorithms (integrity paper §4) draw through PBFT's primary;"
                    + " this engine gives randomized operations the CT coin of their batch");
        }
        if (group.separatesExecution()) {
            throw new BftwsConfigException(GroupConfig.EXECUTING_REPLICAS.name(), "must name every replica" + why
                    + " (configuration I): this engine has no agreement-only role, got "
                    + group.executingReplicas());
        }
        if (!values.get(REPLICATED_CLIENTS).isEmpty()) {
            throw new BftwsConfigException(REPLICATED_CLIENTS.name(), "must be none" + why + ": this engine does"
                    + " not filter a replicated client's copies (BFT-WS §3.4), got '"
                    + values.get(REPLICATED_CLIENTS).toText() + "'");
        }
    }

    /** The rules of a group member's keys: which are required, for which role, and how they fit together. */
    private static ConfigValues checkMembership(ConfigValues values, GroupConfig group) {
        checkSecurityPolicy(values);
        URI groupEndpoint = required(values, GROUP_ENDPOINT);
        List<ReplicaEndpoint> listed = required(values, REPLICAS);
        List<ReplicaEndpoint> replicas = replicasById(agreementEntries(listed, group), group, groupEndpoint);
        List<ReplicaEndpoint> executionNodes = executionNodesById(listed, group, replicas, groupEndpoint);
        checkReplicaId(values, group);
        checkSeparateExecution(values, group);
        readableFile(required(values, PRIVATE_KEY), PRIVATE_KEY);
        readableFile(required(values, PUBLIC_KEYS), PUBLIC_KEYS);
        if (values.isSet(CLIENT_REPLY_ENDPOINT) && values.get(ROLE) != Side.CLIENT) {
            throw new BftwsConfigException(CLIENT_REPLY_ENDPOINT.name(), "is set, but " + ROLE + " is replica");
        }
        List<ReplicaEndpoint> all = new ArrayList<>(replicas);
        all.addAll(executionNodes);
        return values.with(REPLICAS, List.copyOf(all));
    }

    /** The entries of {@code bftws.replicas} that are no execution nodes: they must be the 3f+1 replicas. */
    private static List<ReplicaEndpoint> agreementEntries(List<ReplicaEndpoint> listed, GroupConfig group) {
        return listed.stream().filter(r -> !group.isExecutionNode(r.id())).toList();
    }

    /**
     * Configuration III (BFT-WS §3.3.3): {@code bftws.replicas} also names every execution node of
     * {@code bftws.executionNodes}, by its id, so the agreement replicas reach its control port and the clients
     * send it their requests; in the order of {@code bftws.executionNodes}.
     */
    static List<ReplicaEndpoint> executionNodesById(List<ReplicaEndpoint> listed, GroupConfig group,
            List<ReplicaEndpoint> replicas, URI groupEndpoint) {
        List<ReplicaEndpoint> nodes = new ArrayList<>();
        Set<URI> seen = new HashSet<>();
        replicas.forEach(r -> seen.add(r.endpoint()));
        for (int id : group.executionNodes()) {
            List<ReplicaEndpoint> of = listed.stream().filter(r -> r.id() == id).toList();
            if (of.size() != 1) {
                throw new BftwsConfigException(REPLICAS.name(), "must list execution node " + id + " ("
                        + GroupConfig.EXECUTION_NODES + ") once, got " + of.size());
            }
            URI endpoint = of.get(0).endpoint();
            if (!seen.add(endpoint) || endpoint.equals(groupEndpoint)) {
                throw new BftwsConfigException(REPLICAS.name(), "lists endpoint " + endpoint
                        + " twice or as the group endpoint");
            }
            nodes.add(of.get(0));
        }
        return nodes;
    }

    /**
     * Execution nodes (configuration III) order nothing: asynchronous ordering has no such role (refused in
     * {@link #checkOrdering}), and neither the WS-Security reply check nor randomized operations know them yet.
     */
    private static void checkSeparateExecution(ConfigValues values, GroupConfig group) {
        if (group.executionNodes().isEmpty()) {
            return;
        }
        String why = " with " + GroupConfig.EXECUTION_NODES.name() + " (configuration III)";
        if (values.get(SECURITY) != SecurityMode.NONE) {
            throw new BftwsConfigException(SECURITY.name(), "must be none" + why + ": replies signed by execution"
                    + " nodes are not checked by the clients' WS-Security guard");
        }
        if (values.get(RANDOMNESS) != RandomnessAlgorithm.NONE) {
            throw new BftwsConfigException(RANDOMNESS.name(), "must be none" + why + ": randomized operations are"
                    + " not supported with execution nodes");
        }
    }

    /**
     * Ordering replicas keep a journal (core's {@code Journal}), whatever the ordering: configuration III's
     * execution nodes record nothing to restart from, and a client has no state to keep.
     * Refused rather than ignored, so an operator does not count on a restart with state that will not happen.
     */
    private static void checkDataDir(ConfigValues values, GroupConfig group) {
        if (!values.isSet(BftwsKeys.DATA_DIR)) {
            return;
        }
        String key = BftwsKeys.DATA_DIR.name();
        if (values.get(ROLE) == Side.CLIENT) {
            throw new BftwsConfigException(key, "is set, but " + ROLE + " is client: only replicas keep a journal");
        }
        if (group.isExecutionNode(values.get(REPLICA_ID))) {
            throw new BftwsConfigException(key, "must be unset on execution node " + values.get(REPLICA_ID)
                    + " of " + GroupConfig.EXECUTION_NODES + " (configuration III): execution nodes keep no"
                    + " journal, a restarted one gets the state by state transfer");
        }
    }

    /**
     * Keys without a dealer: the distributed key generation makes discrete-log keys only (no Shoup RSA), runs
     * over PBFT (the asynchronous engine needs the coin before it can agree on anything, and nothing runs the
     * DKG over PBFT before it starts), gives shares to the n replicas (not to execution nodes), and keeps the
     * replica's share in its data directory.
     */
    private static void checkKeysMode(ConfigValues values, GroupConfig group) {
        if (values.get(BftwsKeys.KEYS_MODE) != KeysMode.DKG && values.get(BftwsKeys.KEYS_REFRESH_EVERY_CHECKPOINTS) > 0) {
            throw new BftwsConfigException(BftwsKeys.KEYS_REFRESH_EVERY_CHECKPOINTS.name(), "must be 0 with "
                    + BftwsKeys.KEYS_MODE + "=dealer: only the keys the group generated itself are refreshed");
        }
        if (values.get(BftwsKeys.KEYS_MODE) != KeysMode.DKG || values.get(ROLE) == Side.CLIENT) {
            return;
        }
        String why = " with " + BftwsKeys.KEYS_MODE + "=dkg";
        if (values.get(BftwsKeys.THRESHOLD_SCHEME) == ThresholdScheme.RSA) {
            throw new BftwsConfigException(BftwsKeys.THRESHOLD_SCHEME.name(), "must be cks or bls" + why
                    + ": Shoup RSA keys have no distributed generation here (shared safe primes); deal them with"
                    + " scripts/keygen and " + BftwsKeys.KEYS_MODE + "=dealer");
        }
        if (values.get(BftwsKeys.RANDOMNESS) != RandomnessAlgorithm.CT) {
            throw new BftwsConfigException(BftwsKeys.RANDOMNESS.name(), "must be ct" + why + ": the generated and"
                    + " refreshed keys are installed into a running engine only beside the group's threshold coin");
        }
        if (values.get(ORDERING).tossesCoin()) {
            throw new BftwsConfigException(BftwsKeys.KEYS_MODE.name(), "must be dealer with " + ORDERING + "="
                    + values.get(ORDERING).configValue() + ": this engine agrees with the group's threshold coin,"
                    + " and running the distributed key generation over PBFT before it starts is not built yet"
                    + " (docs/status.md)");
        }
        if (!group.executionNodes().isEmpty()) {
            throw new BftwsConfigException(BftwsKeys.KEYS_MODE.name(), "must be dealer with "
                    + GroupConfig.EXECUTION_NODES + " (configuration III): execution nodes take no part in the"
                    + " distributed key generation");
        }
        if (!values.isSet(BftwsKeys.DATA_DIR)) {
            throw new BftwsConfigException(BftwsKeys.DATA_DIR.name(), "is required" + why + ": the replica keeps"
                    + " the share the distributed key generation gives it, and group.pub, there");
        }
    }

    /** The policy file, required with rampart; forbidden without, so a forgotten mode is not silently off. */
    private static void checkSecurityPolicy(ConfigValues values) {
        if (values.get(SECURITY) == SecurityMode.NONE) {
            if (values.isSet(SECURITY_POLICY)) {
                throw new BftwsConfigException(SECURITY_POLICY.name(), "is set, but " + SECURITY + " is none");
            }
            return;
        }
        readableFile(required(values, SECURITY_POLICY), SECURITY_POLICY);
    }

    private static void checkReplicaId(ConfigValues values, GroupConfig group) {
        int n = group.n();
        if (values.get(ROLE) == Side.CLIENT) {
            if (values.isSet(REPLICA_ID)) {
                throw new BftwsConfigException(REPLICA_ID.name(), "is set, but " + ROLE + " is client");
            }
            return;
        }
        if (!values.isSet(REPLICA_ID)) {
            throw new BftwsConfigException(REPLICA_ID.name(), "is required when " + ROLE + " is replica");
        }
        int id = values.get(REPLICA_ID);
        if (id >= n && !group.isExecutionNode(id)) {
            throw new BftwsConfigException(REPLICA_ID.name(), "must be between 0 and " + (n - 1) + " (n = 3f+1 = "
                    + n + ") or an execution node of " + GroupConfig.EXECUTION_NODES + ", got " + id);
        }
    }

    /** The listed replicas ordered by id; the ids must be exactly 0..n-1 and the endpoints distinct. */
    static List<ReplicaEndpoint> replicasById(List<ReplicaEndpoint> listed, GroupConfig group, URI groupEndpoint) {
        int n = group.n();
        ReplicaEndpoint[] byId = new ReplicaEndpoint[n];
        Set<URI> seen = new HashSet<>();
        for (ReplicaEndpoint r : listed) {
            if (r.id() >= n) {
                throw new BftwsConfigException(REPLICAS.name(), "lists replica id " + r.id() + ", but ids run from 0 to "
                        + (n - 1) + " (n = 3f+1 = " + n + ", " + GroupConfig.F + ")");
            }
            if (byId[r.id()] != null) {
                throw new BftwsConfigException(REPLICAS.name(), "lists replica id " + r.id() + " twice");
            }
            if (!seen.add(r.endpoint()) || r.endpoint().equals(groupEndpoint)) {
                throw new BftwsConfigException(REPLICAS.name(), "lists endpoint " + r.endpoint()
                        + " twice or as the group endpoint");
            }
            byId[r.id()] = r;
        }
        if (listed.size() != n) {
            throw new BftwsConfigException(REPLICAS.name(), "must list 3f+1 = " + n + " replicas ("
                    + GroupConfig.F + "), got " + listed.size());
        }
        return List.of(byId);
    }

    private static <T> T required(ConfigValues values, ConfigKey<T> key) {
        if (!values.isSet(key)) {
            throw new BftwsConfigException(key.name(), "is required when " + REPLICATED + " is true");
        }
        return values.get(key);
    }

    /** Whether the file is there is a fact of the host, checked at start-up rather than by the key's rule. */
    private static void readableFile(Path p, ConfigKey<Path> key) {
        if (!Files.isRegularFile(p) || !Files.isReadable(p)) {
            throw new BftwsConfigException(key.name(), "names no readable file: " + p);
        }
    }

    /** Parses the given keys; a core error becomes ours, still naming the key. */
    private static ConfigValues read(Map<String, String> params, List<ConfigKey<?>> keys) {
        try {
            return ConfigValues.read(params, keys);
        } catch (ConfigException e) {
            throw new BftwsConfigException(e.key(), e.detail());
        }
    }

    /** Core parses its own keys and checks its own rules across them. */
    private static GroupConfig groupConfig(Map<String, String> params) {
        GroupConfig group;
        try {
            group = GroupConfig.fromProperties(params);
        } catch (ConfigException e) {
            throw new BftwsConfigException(e.key(), e.detail());
        }
        return group;
    }

    private static List<ConfigKey<?>> declared() {
        List<ConfigKey<?>> all = new ArrayList<>(BftwsKeys.ALL);
        all.addAll(GroupConfig.ALL);
        return List.copyOf(all);
    }

    private static List<String> names(List<ConfigKey<?>> keys) {
        return keys.stream().map(ConfigKey::name).toList();
    }

    private static void rejectUnknownKeys(Map<String, String> params) {
        for (String name : params.keySet()) {
            if (name.startsWith(PREFIX) && !KEYS.contains(name)) {
                throw new BftwsConfigException(name, "is not a BFT-WS parameter (misspelt?)");
            }
        }
    }
}
