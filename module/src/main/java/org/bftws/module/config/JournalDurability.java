package org.bftws.module.config;

import org.bftws.core.config.ConfigKey;

/**
 * How far a replica's journal ({@code bftws.dataDir}) is written before the messages it covers are sent
 * (docs/journal.md, "Durability").
 */
public enum JournalDurability {
    /** Handed to the operating system: survives the replica's process being killed, not the host losing power. */
    OS,
    /** Also forced to the disk (fsync) before sending: survives the host losing power. */
    FSYNC;

    /** The value as written in axis2.xml. */
    public String configValue() {
        return ConfigKey.choiceText(this);
    }
}
