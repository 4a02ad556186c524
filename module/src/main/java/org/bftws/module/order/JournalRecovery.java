package org.bftws.module.order;

import java.util.List;

import org.bftws.core.engine.Journal;

/**
 * What a replica restarted from its journal: the stable checkpoint the journal held (0 if none yet, the
 * initial state) and how many records core's recover step was given.
 */
public record JournalRecovery(long stableCheckpoint, int records) {
    static JournalRecovery of(List<Journal.Record> records) {
        long stable = 0;
        for (Journal.Record r : records) {
            if (r.type() == Journal.Type.STABLE) {
                stable = Math.max(stable, r.seq());
            }
        }
        return new JournalRecovery(stable, records.size());
    }
}
