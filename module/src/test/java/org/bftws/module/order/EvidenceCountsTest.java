package org.bftws.module.order;

import static org.junit.Assert.assertEquals;

import java.util.Map;

import org.junit.Test;

/** Evidence is counted per kind and per node for operators, in bounded memory whatever peers send. */
public class EvidenceCountsTest {
    @Test
    public void aKindIsTheTextWithoutNumbersOrDetail() {
        assertEquals("double commit for view N seq N", EvidenceCounts.kind("double commit for view 3 seq 17"));
        assertEquals("malformed envelope", EvidenceCounts.kind("malformed envelope: truncated at byte 12"));
        assertEquals("bad signature on PREPARE", EvidenceCounts.kind("bad signature on PREPARE"));
        assertEquals(EvidenceCounts.OTHER_KIND, EvidenceCounts.kind(": only detail"));
    }

    @Test
    public void countsInTotalPerKindAndPerNode() {
        EvidenceCounts c = new EvidenceCounts();
        assertEquals(1, c.record(1, "double commit for view 0 seq 1"));
        assertEquals(2, c.record(1, "double commit for view 0 seq 2"));
        assertEquals(1, c.record(-1, "malformed envelope: x"));
        assertEquals(3, c.total());
        assertEquals(Map.of("double commit for view N seq N", 2L, "malformed envelope", 1L), c.byKind());
        assertEquals(Map.of(-1, 1L, 1, 2L), c.byNode());
    }

    @Test
    public void madeUpKindsAndSendersAreCountedInBoundedMaps() {
        EvidenceCounts c = new EvidenceCounts();
        for (int i = 0; i < 10 * EvidenceCounts.MAX_NODES; i++) {
            c.record(1000 + i, "made-up kind " + Character.toString('a' + i % 26) + Character.toString('a' + i / 26 % 26));
        }
        assertEquals(10L * EvidenceCounts.MAX_NODES, c.total());
        assertEquals(EvidenceCounts.MAX_KINDS + 1, c.byKind().size());
        assertEquals(EvidenceCounts.MAX_NODES + 1, c.byNode().size());
        assertEquals(10L * EvidenceCounts.MAX_NODES, c.byNode().values().stream().mapToLong(Long::longValue).sum());
    }
}
