package org.bftws.fuzz;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import org.junit.Test;

/**
 * A short, seeded run of the intake fuzzer: every input handled, none crashing or changing state. 600 inputs per
 * target (the targets take turns), about 30 s on a loaded two-core machine, most of it the targets' set-up.
 */
public class IntakeFuzzTest {
    private static final long INPUTS = 6000;

    @Test
    public void seededRunFindsNothing() throws Exception {
        IntakeFuzz.Result r = IntakeFuzz.run(1, Long.MAX_VALUE, INPUTS, null);
        assertEquals(r.summary(1, 0), INPUTS, r.total());
        assertEquals(r.summary(1, 0), java.util.List.of("engine", "payload", "ciphertext", "journal", "key-file",
                "reply", "async-journal", "journal-file", "members", "http"),
                java.util.List.copyOf(r.inputs().keySet()));
        assertTrue(r.summary(1, 0) + " " + r.findings(), r.findings().isEmpty());
    }

    @Test
    public void mutationsAlwaysChangeTheirInput() {
        Mutations m = new Mutations();
        java.util.Random random = new java.util.Random(7);
        byte[] in = "<a>1</a>".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        for (int i = 0; i < 500; i++) {
            assertTrue(!java.util.Arrays.equals(in, m.mutate(in, in, random)));
        }
    }
}
