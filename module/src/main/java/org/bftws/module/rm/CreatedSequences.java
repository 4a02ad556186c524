package org.bftws.module.rm;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.axis2.context.ConfigurationContext;
import org.bftws.module.order.RequestAdmission;

/**
 * The sequences this replica admits requests of: those its Sandesha2 created from a CreateSequence with a
 * client UUID (recorded by {@link DeterministicRmdBeanMgr}), and those the group has ordered a request of
 * (a replica that was down during the handshake learns them from the agreed order).
 *
 * <p>Kept apart from Sandesha2's RMD beans on purpose: application requests travel on the control port, not
 * in the WS-RM sequence, so Sandesha2 sees no traffic on it and removes its bean after the inactivity
 * timeout, while the client goes on using the sequence.
 */
public final class CreatedSequences implements RequestAdmission {
    /** ConfigurationContext property under which a replica publishes its instance. */
    public static final String PROPERTY = "org.bftws.rm.createdSequences";

    private final Set<String> ids = ConcurrentHashMap.newKeySet();

    /** This Axis2 instance's registry, or null when it is no replica. */
    public static CreatedSequences of(ConfigurationContext cc) {
        Object o = cc == null ? null : cc.getProperty(PROPERTY);
        return o instanceof CreatedSequences c ? c : null;
    }

    void created(String sequenceId) {
        ids.add(sequenceId);
    }

    @Override
    public boolean admits(String sequenceId) {
        return ids.contains(sequenceId);
    }

    @Override
    public void ordered(String sequenceId) {
        ids.add(sequenceId);
    }
}
