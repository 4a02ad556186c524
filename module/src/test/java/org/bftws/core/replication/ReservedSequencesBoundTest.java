package org.bftws.core.replication;

import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.bftws.core.message.RequestId;
import org.bftws.core.message.SequenceOwner;
import org.bftws.module.rm.SequenceIds;
import org.junit.Test;

/**
 * The sequences a replica opens for its reserved operations (a key refresh's votes, dealings, complaints and
 * openings, one sequence each, never terminated) carry a birth time, so core's client table prunes them once
 * idle for the retention: refreshes over a group's life leave a bounded table, and a pruned one's replay is old.
 */
public class ReservedSequencesBoundTest {
    private static final long RETENTION = 32;
    private static final long PRUNE_EVERY = RETENTION / 16;
    /** A reserved node id: after the clients' ids. */
    private static final int NODE = 1_000;

    @Test
    public void reservedSequencesHaveStrictlyIncreasingBirthTimesFromTheClock() {
        long before = System.currentTimeMillis();
        long last = -1;
        for (int i = 0; i < 100; i++) {
            String id = SequenceIds.newBornSequence(NODE);
            assertTrue(id, SequenceOwner.of(id) == NODE);
            long birth = SequenceOwner.birth(id);
            assertTrue(id + " born " + birth + " after " + last, birth > last && birth >= before);
            last = birth;
        }
    }

    @Test
    public void manyRefreshesOperationsLeaveABoundedTableAndTheirReplaysAreOld() {
        ClientTable table = new ClientTable(RETENTION);
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            String id = SequenceIds.newBornSequence(NODE);
            assertNotEquals(-1, SequenceOwner.birth(id));
            RequestId q = new RequestId(id, 1);
            assertTrue("operation " + i + " is new", table.isNew(q));
            table.ordered(q, NODE);
            table.result(q, ClientTable.EMPTY, ClientTable.EMPTY);
            ids.add(id);
            assertTrue("bounded: " + table.size(), table.size() <= RETENTION + PRUNE_EVERY);
        }
        for (String id : ids) {
            assertFalse("a replay of " + id + " is old", table.isNew(new RequestId(id, 1)));
        }
    }
}
