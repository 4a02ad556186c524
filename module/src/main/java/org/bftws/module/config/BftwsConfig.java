package org.bftws.module.config;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;

import org.bftws.core.config.GroupConfig;

/**
 * The validated BFT-WS settings of one Axis2 instance, as read from axis2.xml by
 * {@link BftwsParameters#parse}. Immutable; one instance per ConfigurationContext.
 *
 * @param replicated          false: bftws.mar behaves exactly like Sandesha2 (plain WS-RM, paper §3.3.1)
 * @param group               the protocol settings the whole group agrees on (f, K, L, batching, timeouts
 *                            in ticks), declared once in core's {@link GroupConfig}
 * @param replicaId           this instance's id in {@code replicas}, or -1 on a client
 * @param thresholdSharePath  null unless a replica uses the CT coin
 * @param tickMillis          wall-clock length of one core tick
 * @param controlMaxBytes     largest BFT-WS control message accepted or sent (decoded bytes)
 * @param clientReplyEndpoint a client's control port as the replicas reach it, or null (see
 *                            {@link BftwsParameters#CLIENT_REPLY_ENDPOINT_KEY})
 */
public record BftwsConfig(
        boolean replicated,
        Role role,
        GroupConfig group,
        URI groupEndpoint,
        List<ReplicaEndpoint> replicas,
        int replicaId,
        Path privateKeyPath,
        Path publicKeysPath,
        Path thresholdSharePath,
        int tickMillis,
        int controlMaxBytes,
        URI clientReplyEndpoint,
        RandomnessAlgorithm randomness,
        ThresholdScheme thresholdScheme) {

    public BftwsConfig {
        replicas = List.copyOf(replicas);
    }

    /** Faults tolerated (core's {@code bftws.f}). */
    public int f() {
        return group.f();
    }

    /** Number of replicas, n = 3f + 1 in configuration I; 0 when not replicated. */
    public int n() {
        return replicated ? group.n() : 0;
    }

    /** True on a replica of a configured group: the only case where ordering handlers act. */
    public boolean isReplica() {
        return replicated && role == Role.REPLICA;
    }

    /** True if {@code address} (a message's wsa:To) is this configuration's group endpoint. */
    public boolean isGroupEndpoint(String address) {
        return groupEndpoint != null && address != null && groupEndpoint.toString().equals(address.trim());
    }

    /** True on a client of a configured group: the only case where the voter acts. */
    public boolean isGroupClient() {
        return replicated && role == Role.CLIENT;
    }
}
