package org.bftws.module.handlers;

import org.bftws.core.message.Request;
import org.bftws.core.replication.ConfidentialConfig;
import org.bftws.module.api.ApplicationRequest;
import org.bftws.module.config.BftwsConfig;
import org.bftws.module.config.BftwsKeys;

/**
 * The In Handler's check of a client's request against its operation's {@code <bftws:Confidential/>}
 * declaration (SINTRA §2.6), before it reaches the Total Order Manager: what would otherwise be ordered and
 * then fail to open alike at every replica is refused with a SOAP fault, nothing ordered or executed.
 */
final class ConfidentialInput {
    private ConfidentialInput() {
    }

    /** Why {@code q} must be refused, or null. {@code confidential} is null when no operation is declared so. */
    static String problem(Request q, ConfidentialConfig confidential, BftwsConfig config) {
        boolean sealed = ApplicationRequest.decode(q.operation()).sealed();
        byte[] ciphertext = confidential == null ? null : confidential.operations().ciphertext(q);
        if (ciphertext == null) {
            return sealed ? "a sealed payload for an operation not declared <bftws:Confidential/>" : null;
        }
        if (!sealed) {
            return "the operation is declared <bftws:Confidential/>: its payload must be sealed under the group key"
                    + " (client option org.bftws.confidential)";
        }
        if (config.replicatedClients().isMember(q.client())) {
            // the members seal separately, so their copies never match (BFT-WS §3.4 needs p+1 identical ones)
            return "confidential operations are not available to replicated clients ("
                    + BftwsKeys.REPLICATED_CLIENTS.name() + ")";
        }
        return ConfidentialConfig.check(confidential.groupId(), q, ciphertext).problem();
    }
}
