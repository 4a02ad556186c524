package org.bftws.module.config;

import org.bftws.core.config.ConfigKey;

/**
 * Where a replica group's threshold keys come from ({@code bftws.keys.mode}; docs/security.md, "Keys without a
 * dealer").
 */
public enum KeysMode {
    /**
     * {@code scripts/keygen} deals every key: {@code bftws.keys.public} is its {@code group.pub},
     * {@code bftws.keys.private} the replica's {@code replica-I.key} with its shares.
     */
    DEALER,
    /**
     * No dealer: {@code bftws.keys.public} is the group's {@code members.pub}, {@code bftws.keys.private} the
     * replica's own {@code replica-I.id} ({@code scripts/keygen --replica}); at first start the replicas run the
     * distributed key generation over their ordering and keep the share and {@code group.pub} in
     * {@code bftws.dataDir}. Not with Shoup RSA, whose keys have no distributed generation here.
     */
    DKG;

    /** The value as written in axis2.xml. */
    public String configValue() {
        return ConfigKey.choiceText(this);
    }
}
