package org.bftws.client.embedded;

import org.apache.axis2.context.ConfigurationContext;
import org.apache.sandesha2.storage.StorageManager;
import org.apache.sandesha2.storage.Transaction;
import org.apache.sandesha2.storage.beans.RMDBean;
import org.apache.sandesha2.storage.inmemory.InMemoryRMDBeanMgr;
import org.apache.sandesha2.util.SandeshaUtil;
import org.bftws.module.testing.Conditions;

/** What a replica's Sandesha2 holds of receiving-side WS-RM sequences (created by CreateSequence). */
final class RmSequences {
    private RmSequences() {
    }

    /** The Sandesha2 bean of {@code sequenceId} in this Axis2 instance, or null. */
    static RMDBean bean(ConfigurationContext cc, String sequenceId) {
        try {
            StorageManager storage = storage(cc);
            Transaction t = storage.getTransaction(); // Sandesha2 reads only inside a transaction
            try {
                return storage.getRMDBeanMgr().retrieve(sequenceId);
            } finally {
                t.commit();
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Waits until every running replica's Sandesha2 holds {@code sequenceId}: establishing a sequence returns
     * once f+1 replicas answered (and a short grace), so a slow replica may still be creating it, and a
     * message that reaches it first is refused as of an unknown sequence.
     */
    static void awaitCreated(Axis2Server[] replicas, String sequenceId, long waitMillis)
            throws InterruptedException {
        for (int r = 0; r < replicas.length; r++) {
            Axis2Server replica = replicas[r];
            if (replica != null) {
                Conditions.await("replica " + r + " created " + sequenceId, waitMillis,
                        () -> bean(replica.context(), sequenceId) != null);
            }
        }
    }

    static int count(ConfigurationContext cc) throws Exception {
        return ((InMemoryRMDBeanMgr) storage(cc).getRMDBeanMgr()).retrieveAll().size();
    }

    private static StorageManager storage(ConfigurationContext cc) throws Exception {
        return SandeshaUtil.getSandeshaStorageManager(cc, cc.getAxisConfiguration());
    }
}
