package org.bftws.module.rm;

import org.apache.axis2.context.ConfigurationContext;
import org.apache.sandesha2.SandeshaException;
import org.apache.sandesha2.storage.beanmanagers.RMDBeanMgr;
import org.apache.sandesha2.storage.inmemory.InMemoryStorageManager;

/**
 * Sandesha2's in-memory storage manager with {@link DeterministicRmdBeanMgr} as its RMD bean manager (paper
 * §3.3.1.6: the Storage Manager comes with Sandesha2; §3.3.1.1: BFT-WS changes only how the sequence id of
 * a new sequence is chosen). Chosen by the {@code sandesha2:InMemoryStorageManager} element of module.xml's
 * policy. The replacement bean manager shares Sandesha2's table (Sandesha2 keeps it in the context), and
 * {@link #getRMDBeanMgr} is the only way Sandesha2 reaches it.
 */
public class BftwsStorageManager extends InMemoryStorageManager {
    private final RMDBeanMgr rmdBeans;

    public BftwsStorageManager(ConfigurationContext context) throws SandeshaException {
        super(context);
        this.rmdBeans = new DeterministicRmdBeanMgr(this, context);
    }

    @Override
    public RMDBeanMgr getRMDBeanMgr() {
        return rmdBeans;
    }
}
