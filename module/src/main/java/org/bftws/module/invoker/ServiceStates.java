package org.bftws.module.invoker;

import java.util.Collections;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;
import org.bftws.core.codec.DecodeException;

/**
 * The application state a checkpoint carries when a group serves several stateful services (BFT-WS paper
 * §3.3.1.8: the Total Order Manager takes get_state of the replicated service; here of each of them). The
 * replicas' checkpoint digests must agree (§3.3.1.8, Castro-Liskov §4.3), so the bytes are canonical: the
 * services sorted by name, each as (name, state) length-prefixed, behind a count:
 * <pre>
 *   i32 count, then count × (i32 length, UTF-8 name, i32 length, state bytes), names strictly ascending
 * </pre>
 * No stateful service at all encodes as no bytes, the empty state a stateless group always checkpointed.
 */
public final class ServiceStates {
    /** More services than any repository deploys; bounds the decoder. */
    static final int MAX_SERVICES = 4096;

    private ServiceStates() {
    }

    /** The canonical bytes of {@code states} (service name → that service's get_state bytes). */
    public static byte[] encode(SortedMap<String, byte[]> states) {
        if (states.isEmpty()) {
            return new byte[0];
        }
        if (states.comparator() != null) {
            throw new IllegalArgumentException("service states must be sorted by name in natural order");
        }
        ByteWriter w = new ByteWriter();
        w.i32(states.size());
        for (Map.Entry<String, byte[]> e : states.entrySet()) {
            w.str(e.getKey()).bytes(e.getValue());
        }
        return w.toBytes();
    }

    /**
     * The services' states in {@code bytes}, sorted by name. Only {@link #encode}'s output decodes: anything
     * else (truncated, trailing bytes, names out of order or repeated) is refused.
     *
     * @throws DecodeException if {@code bytes} is not canonical
     */
    public static SortedMap<String, byte[]> decode(byte[] bytes) {
        if (bytes.length == 0) {
            return Collections.emptySortedMap();
        }
        ByteReader r = new ByteReader(bytes);
        int count = r.count(MAX_SERVICES);
        if (count == 0) {
            throw new DecodeException("no services: the empty state is encoded as no bytes");
        }
        TreeMap<String, byte[]> states = new TreeMap<>();
        String previous = null;
        for (int i = 0; i < count; i++) {
            String name = r.str();
            if (previous != null && previous.compareTo(name) >= 0) {
                throw new DecodeException("service names not strictly ascending at " + name);
            }
            states.put(name, r.bytes());
            previous = name;
        }
        r.end();
        return states;
    }
}
