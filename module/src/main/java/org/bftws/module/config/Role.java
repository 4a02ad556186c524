package org.bftws.module.config;

import org.bftws.core.config.ConfigKey;

/**
 * Which side of a replica group this Axis2 instance is. Declared rather than guessed: on the client,
 * synchronous WS-RM replies pass the in-flow with {@code isServerSide() == true}
 * (docs/design/dependencies.md, SenderWorker.checkForSyncResponses), so handlers cannot tell the sides apart.
 */
public enum Role {
    CLIENT,
    REPLICA;

    /** The value as written in axis2.xml. */
    public String configValue() {
        return ConfigKey.choiceText(this);
    }
}
