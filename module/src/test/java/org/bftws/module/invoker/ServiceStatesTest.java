package org.bftws.module.invoker;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

import org.bftws.core.codec.ByteWriter;
import org.bftws.core.codec.DecodeException;
import org.junit.Test;

/**
 * The checkpointed application state of a group with several stateful services (BFT-WS §3.3.1.8): replicas
 * must produce identical bytes for identical states, whatever order they captured them in, and installing
 * accepts only those bytes.
 */
public class ServiceStatesTest {
    @Test
    public void noStatefulServiceIsTheEmptyState() {
        assertEquals(0, ServiceStates.encode(new TreeMap<>()).length);
        assertTrue(ServiceStates.decode(new byte[0]).isEmpty());
    }

    @Test
    public void statesRoundTripSortedByName() {
        SortedMap<String, byte[]> states = states("Counter", "<c:state/>", "Accounts", "", "Zähler", "x");
        SortedMap<String, byte[]> back = ServiceStates.decode(ServiceStates.encode(states));
        assertEquals(List.of("Accounts", "Counter", "Zähler"), List.copyOf(back.keySet()));
        for (String name : states.keySet()) {
            assertArrayEquals(name, states.get(name), back.get(name));
        }
    }

    @Test
    public void theBytesDependOnTheStatesOnlyNotOnTheOrderTheyWereCaptured() {
        SortedMap<String, byte[]> a = new TreeMap<>();
        a.put("B", bytes("2"));
        a.put("A", bytes("1"));
        SortedMap<String, byte[]> b = new TreeMap<>();
        b.put("A", bytes("1"));
        b.put("B", bytes("2"));
        assertArrayEquals(ServiceStates.encode(a), ServiceStates.encode(b));
        // length prefixes keep ("AB", "") and ("A", "B...") apart
        assertTrue(!Arrays.equals(ServiceStates.encode(states("AB", "")), ServiceStates.encode(states("A", "B"))));
    }

    @Test
    public void onlyCanonicalBytesDecode() {
        byte[] good = ServiceStates.encode(states("A", "1", "B", "2"));
        refused("truncated", Arrays.copyOf(good, good.length - 1));
        refused("trailing byte", Arrays.copyOf(good, good.length + 1));
        refused("names out of order", new ByteWriter().i32(2).str("B").bytes(bytes("2")).str("A").bytes(bytes("1"))
                .toBytes());
        refused("a name twice", new ByteWriter().i32(2).str("A").bytes(bytes("1")).str("A").bytes(bytes("2"))
                .toBytes());
        refused("count 0 (the empty state is no bytes)", new ByteWriter().i32(0).toBytes());
        refused("negative count", new ByteWriter().i32(-1).toBytes());
        refused("count beyond the bound", new ByteWriter().i32(ServiceStates.MAX_SERVICES + 1).toBytes());
    }

    @Test(expected = IllegalArgumentException.class)
    public void aMapWithAnotherOrderIsNotEncoded() {
        SortedMap<String, byte[]> reversed = new TreeMap<>((x, y) -> y.compareTo(x));
        reversed.put("A", bytes("1"));
        ServiceStates.encode(reversed);
    }

    private static void refused(String what, byte[] bytes) {
        try {
            ServiceStates.decode(bytes);
            fail(what + " decoded");
        } catch (DecodeException expected) {
            // refused, as it must be
        }
    }

    private static SortedMap<String, byte[]> states(String... nameThenState) {
        SortedMap<String, byte[]> m = new TreeMap<>();
        for (int i = 0; i < nameThenState.length; i += 2) {
            m.put(nameThenState[i], bytes(nameThenState[i + 1]));
        }
        return m;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
