package org.bftws.module.config;

import org.bftws.core.config.ConfigKey;

/**
 * Which side of a replica group this Axis2 instance is: the value of {@code bftws.role}. Declared rather than
 * guessed: on the client, synchronous WS-RM replies pass the in-flow with {@code isServerSide() == true}
 * (docs/design/dependencies.md, SenderWorker.checkForSyncResponses), so handlers cannot tell the sides apart.
 * Not the replica's protocol role in configurations II and III ({@code core.pbft.Role}).
 */
public enum Side {
    CLIENT,
    REPLICA;

    /** The value as written in axis2.xml. */
    public String configValue() {
        return ConfigKey.choiceText(this);
    }
}
