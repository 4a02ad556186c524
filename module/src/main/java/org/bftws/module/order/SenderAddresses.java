package org.bftws.module.order;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which network addresses each replica's messages come from, so that the intake's per-sender queues
 * ({@link SenderQueues}) go by something a faulty replica cannot choose. Aardvark gives every replica its own
 * network interface (Clement et al., NSDI 2009 §4.2); over shared HTTP links the nearest thing is the address
 * of the TCP connection a message arrives on, which a sender cannot forge without completing TCP's handshake
 * from it. A message claiming replica r that arrives from another address goes to the queue shared by every
 * other sender, where it can crowd out clients but never r: its signature is still checked there, so a replica
 * whose outgoing address differs from its endpoint's (a second interface, a proxy) is still heard, only without
 * a queue of its own.
 *
 * <p>The check is on only where it can tell replicas apart: every replica's endpoint host resolves (once, at
 * start-up) and no two replicas share an address. A group on one host (loopback, the tests' groups) leaves it
 * off, and the queues go by the sender each envelope claims.
 */
final class SenderAddresses {
    /**
     * Each replica's addresses by replica id, in {@link InetAddress#getHostAddress()}'s form, the form Axis2 gives
     * a connection's peer in: a received message's source is looked up as it comes, with no parsing on the
     * receiving thread. Empty when the check is off.
     */
    private final List<Set<String>> byReplica;
    /** The same, each address to its replica: no address is two replicas' while the check is on. */
    private final Map<String, Integer> replicaAt = new HashMap<>();

    private SenderAddresses(List<Set<String>> byReplica) {
        this.byReplica = byReplica;
        for (int r = 0; r < byReplica.size(); r++) {
            for (String a : byReplica.get(r)) {
                replicaAt.put(a, r);
            }
        }
    }

    /** No check: every message keeps the lane of the sender it claims. */
    static SenderAddresses off() {
        return new SenderAddresses(List.of());
    }

    /** From the replicas' control endpoints, indexed by replica id; off if they cannot tell replicas apart. */
    static SenderAddresses of(List<URI> replicaControl) {
        List<Set<String>> byReplica = new ArrayList<>();
        Set<InetAddress> seen = new HashSet<>();
        for (URI endpoint : replicaControl) {
            Set<InetAddress> addresses = resolve(endpoint.getHost());
            if (addresses.isEmpty()) {
                return off();
            }
            for (InetAddress a : addresses) {
                if (!seen.add(a)) {
                    return off(); // two replicas share an address: it tells them apart no better than the claim
                }
            }
            Set<String> texts = new HashSet<>();
            addresses.forEach(a -> texts.add(a.getHostAddress()));
            byReplica.add(Set.copyOf(texts));
        }
        return new SenderAddresses(List.copyOf(byReplica));
    }

    /** True if the check is on (see the class comment). */
    boolean checking() {
        return !byReplica.isEmpty();
    }

    /**
     * Whether a message claiming {@code replica} and received from {@code source} may take that replica's queue:
     * always with the check off, or for a message made in this JVM (no source); otherwise only from one of
     * its addresses.
     */
    boolean mayClaim(int replica, String source) {
        if (!checking() || source == null) {
            return true;
        }
        return replica >= 0 && replica < byReplica.size() && byReplica.get(replica).contains(source);
    }

    /**
     * The replica whose address {@code source} is (in {@link InetAddress#getHostAddress()}'s form); -1 with the
     * check off, for a message made in this JVM (no source) or for any other address.
     */
    int replicaAt(String source) {
        Integer r = source == null ? null : replicaAt.get(source);
        return r == null ? -1 : r;
    }

    private static Set<InetAddress> resolve(String host) {
        if (host == null || host.isEmpty()) {
            return Set.of();
        }
        try {
            String name = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
            return new HashSet<>(Arrays.asList(InetAddress.getAllByName(name)));
        } catch (UnknownHostException | IllegalArgumentException e) {
            return Set.of();
        }
    }
}
