package org.bftws.module.order;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts of the evidence core reported ({@code Event.Evidence}: something a peer sent that a correct peer would
 * not have, Castro-Liskov §2's faulty node caught in the act), in total, per kind and per node, for operators
 * (the replica's MBean and status line). Written by the ordering thread, read by any thread.
 *
 * <p>A kind is the evidence text without its numbers and without the detail after a colon, so "double commit
 * for view 3 seq 17" and "... view 4 seq 18" count as one kind. Both maps are bounded: a Byzantine peer can
 * make up senders (the node of a malformed envelope is unknown, clients are many) and decode errors, and
 * counting them must not grow memory; beyond the bound they count under {@link #OTHER_KIND} / {@link #OTHER_NODE}.
 */
public final class EvidenceCounts {
    /** Distinct kinds counted separately; core has a few dozen evidence texts. */
    static final int MAX_KINDS = 64;
    /** Distinct nodes counted separately: the replicas of any allowed group and some clients. */
    static final int MAX_NODES = 256;
    public static final String OTHER_KIND = "other";
    /** Key of nodes beyond {@link #MAX_NODES}; -1 (unknown sender) is core's own. */
    public static final int OTHER_NODE = Integer.MIN_VALUE;

    private final AtomicLong total = new AtomicLong();
    private final ConcurrentHashMap<String, AtomicLong> byKind = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<Integer, AtomicLong> byNode = new ConcurrentHashMap<>();
    private volatile String last;

    /**
     * Counts one piece of evidence against {@code node} (-1: sender unknown).
     *
     * @return the evidence counted against {@code node} so far, this one included
     */
    public long record(int node, String what) {
        total.incrementAndGet();
        counter(byKind, kind(what), MAX_KINDS, OTHER_KIND).incrementAndGet();
        return counter(byNode, node, MAX_NODES, OTHER_NODE).incrementAndGet();
    }

    /** Remembers how the latest evidence was logged (naming its sender), for {@link #last()}. */
    void describeLast(String description) {
        last = description;
    }

    /** The latest evidence as logged, naming its sender, or null if there was none. */
    public String last() {
        return last;
    }

    public long total() {
        return total.get();
    }

    /** Kind → count, sorted by kind: a copy. */
    public Map<String, Long> byKind() {
        return copy(byKind);
    }

    /** Node id → count, sorted by id: a copy. */
    public Map<Integer, Long> byNode() {
        return copy(byNode);
    }

    /** The kind of an evidence text: up to its first colon, each run of digits as N, trimmed. */
    static String kind(String what) {
        String head = what == null ? "" : what;
        int colon = head.indexOf(':');
        if (colon >= 0) {
            head = head.substring(0, colon);
        }
        head = head.replaceAll("[0-9]+", "N").trim();
        return head.isEmpty() ? OTHER_KIND : head;
    }

    private static <K> AtomicLong counter(ConcurrentHashMap<K, AtomicLong> map, K key, int max, K other) {
        AtomicLong c = map.get(key);
        if (c != null) {
            return c;
        }
        // only the ordering thread adds, so size() then computeIfAbsent does not overshoot
        return map.computeIfAbsent(map.size() < max ? key : other, k -> new AtomicLong());
    }

    private static <K extends Comparable<K>> Map<K, Long> copy(Map<K, AtomicLong> counts) {
        Map<K, Long> out = new TreeMap<>();
        counts.forEach((k, v) -> out.put(k, v.get()));
        return out;
    }
}
