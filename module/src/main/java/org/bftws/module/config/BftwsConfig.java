package org.bftws.module.config;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;

import org.bftws.core.config.GroupConfig;
import org.bftws.module.transport.MulticastSettings;
import org.bftws.module.xml.XmlLimits;

/**
 * The validated BFT-WS settings of one Axis2 instance, as read from axis2.xml by
 * {@link BftwsParameters#parse}. Immutable; one instance per ConfigurationContext.
 *
 * @param replicated          false: bftws.mar behaves exactly like Sandesha2 (plain WS-RM, paper §3.3.1)
 * @param group               the protocol settings the whole group agrees on (f, K, L, batching, timeouts
 *                            in ticks), declared once in core's {@link GroupConfig}
 * @param replicaId           this instance's id in {@code replicas}, or -1 on a client
 * @param tickMillis          wall-clock length of one core tick
 * @param controlMaxBytes     largest BFT-WS control message accepted or sent (decoded bytes)
 * @param httpMaxRequestBytes largest HTTP request body (Content-Length) let into Axis2
 * @param xmlLimits           shape limits on a client's payload (depth, elements, attributes)
 * @param clientReplyEndpoint a client's control port as the replicas reach it, or null (see
 *                            {@link BftwsParameters#CLIENT_REPLY_ENDPOINT_KEY})
 * @param security            WS-Security signing of the client↔replica WS-RM exchange
 * @param securityPolicy      the WS-SecurityPolicy file Rampart enforces, or null without signing
 * @param multicast           the Multicast Sender's window, retransmission and buffer limits (§3.3.1.2)
 * @param statusLogSeconds    seconds between a replica's status lines in its log, 0 for none
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
        int tickMillis,
        int controlMaxBytes,
        int httpMaxRequestBytes,
        XmlLimits xmlLimits,
        URI clientReplyEndpoint,
        RandomnessAlgorithm randomness,
        ThresholdScheme thresholdScheme,
        SecurityMode security,
        Path securityPolicy,
        MulticastSettings multicast,
        int statusLogSeconds) {

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

    /** True on a client of a configured group: the only case where the voter acts. */
    public boolean isGroupClient() {
        return replicated && role == Role.CLIENT;
    }
}
