package org.bftws.module.rm;

import java.security.cert.X509Certificate;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.axiom.om.OMElement;
import org.apache.axis2.context.AbstractContext;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.context.MessageContext;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.apache.sandesha2.storage.SandeshaStorageException;
import org.apache.sandesha2.storage.beans.RMDBean;
import org.apache.sandesha2.storage.inmemory.InMemoryRMDBeanMgr;
import org.apache.sandesha2.storage.inmemory.InMemoryStorageManager;
import org.bftws.module.config.BftwsConfig;
import org.bftws.module.config.SecurityMode;
import org.bftws.module.security.SequenceCreators;
import org.bftws.module.BftwsRuntime;

/**
 * Sandesha2's in-memory store of receiving-side sequences, with the one change BFT-WS makes to sequence
 * creation (paper §3.3.1.1, §3.3.1.4): on a replica, a sequence created from a CreateSequence that carries a
 * client UUID gets the id {@link SequenceIds#derive}(UUID, client id, group endpoint, creator certificate)
 * instead of Sandesha2's random one, so all replicas answer the client with the same id.
 *
 * <p>Sandesha2 sets the random id just before inserting the bean and reads it back from the bean when it
 * builds the CreateSequenceResponse, so replacing it on insert is enough. The CreateSequence being processed
 * is the current message context: Sandesha2 handles it inside its message receiver, which Axis2 runs with
 * the message as the thread's current one.
 *
 * <p>With {@code bftws.security=rampart} it also keeps, per sequence, the X.509 certificate that signed the
 * CreateSequence (Rampart has verified it by then), dropped with the bean: the In Handler accepts the
 * sequence's application messages only when signed by it ({@link SequenceCreators}).
 */
final class DeterministicRmdBeanMgr extends InMemoryRMDBeanMgr {
    private static final Logger LOG = LogManager.getLogger(DeterministicRmdBeanMgr.class);

    private final Map<String, X509Certificate> creators = new ConcurrentHashMap<>();

    DeterministicRmdBeanMgr(InMemoryStorageManager mgr, AbstractContext context) {
        super(mgr, context);
    }

    /** The certificate that signed {@code sequenceId}'s CreateSequence, or null (unsigned, or not known). */
    X509Certificate creatorOf(String sequenceId) {
        return creators.get(sequenceId);
    }

    @Override
    public boolean delete(String sequenceId) throws SandeshaStorageException {
        creators.remove(sequenceId);
        return super.delete(sequenceId);
    }

    @Override
    public boolean insert(RMDBean bean) throws SandeshaStorageException {
        MessageContext mc = MessageContext.getCurrentMessageContext();
        ConfigurationContext cc = mc == null ? null : mc.getConfigurationContext();
        Object config = cc == null ? null : cc.getProperty(BftwsRuntime.CONFIG_PROPERTY);
        boolean replica = config instanceof BftwsConfig c && c.isReplica();
        OMElement createSequence = replica ? ClientUuidElement.createSequenceOf(mc.getEnvelope()) : null;
        ClientUuidElement.Claim claim = createSequence == null ? null : ClientUuidElement.read(createSequence);
        if (claim == null) {
            // Not a replica, or plain WS-RM: Sandesha2's random id (the In Handler refuses a replica's
            // CreateSequence without a UUID before it gets here).
            return super.insert(bean);
        }
        BftwsConfig c = (BftwsConfig) config;
        X509Certificate creator = c.security() == SecurityMode.RAMPART ? SequenceCreators.signerOf(mc) : null;
        String id = SequenceIds.derive(claim.uuid(), claim.client(), c.groupEndpoint(), creator);
        bean.setSequenceID(id);
        if (creator != null) {
            creators.putIfAbsent(id, creator); // the id covers the certificate: a repeat cannot rebind it
        }
        boolean inserted = super.insert(bean);
        LOG.debug("sequence {} created for a client UUID (new: {})", id, inserted);
        return inserted;
    }
}
