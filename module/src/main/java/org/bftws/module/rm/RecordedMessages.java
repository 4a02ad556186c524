package org.bftws.module.rm;

import java.security.cert.X509Certificate;

import org.apache.axis2.AxisFault;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.sandesha2.storage.StorageManager;
import org.apache.sandesha2.storage.Transaction;
import org.apache.sandesha2.storage.beans.RMDBean;
import org.apache.sandesha2.util.SandeshaUtil;

/**
 * What this replica's Sandesha2 recorded of a receiving-side sequence. SandeshaGlobalInHandler dispatches
 * two kinds of message to its duplicate operations: numbers it has recorded already (retransmissions) and
 * messages of sequences it does not know (so that SequenceProcessor faults them); only the first kind may
 * reach ordering.
 */
public final class RecordedMessages {
    private RecordedMessages() {
    }

    /** True if Sandesha2 knows {@code sequenceId} and has recorded message {@code number} of it. */
    public static boolean recorded(ConfigurationContext cc, String sequenceId, long number) throws AxisFault {
        return recorded(receiving(cc, sequenceId), number);
    }

    /** True if {@code bean} (null: an unknown sequence) has recorded message {@code number}. */
    public static boolean recorded(RMDBean bean, long number) {
        return bean != null && bean.getServerCompletedMessages().isMessageNumberInRanges(number);
    }

    /**
     * The certificate that signed {@code sequenceId}'s CreateSequence on this replica (with
     * {@code bftws.security=rampart}), or null.
     */
    public static X509Certificate creator(ConfigurationContext cc, String sequenceId) throws AxisFault {
        StorageManager storage = SandeshaUtil.getSandeshaStorageManager(cc, cc.getAxisConfiguration());
        return storage.getRMDBeanMgr() instanceof DeterministicRmdBeanMgr beans ? beans.creatorOf(sequenceId) : null;
    }

    /**
     * This replica's Sandesha2 bean of the receiving-side sequence {@code sequenceId}, or null if it does not know
     * the sequence. Read once per application message and asked both questions (known? number recorded?).
     */
    public static RMDBean receiving(ConfigurationContext cc, String sequenceId) throws AxisFault {
        StorageManager storage = SandeshaUtil.getSandeshaStorageManager(cc, cc.getAxisConfiguration());
        Transaction t = storage.getTransaction(); // Sandesha2 reads beans inside a transaction only
        try {
            return storage.getRMDBeanMgr().retrieve(sequenceId);
        } finally {
            t.commit();
        }
    }
}
