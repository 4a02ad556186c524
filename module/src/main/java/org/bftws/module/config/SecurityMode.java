package org.bftws.module.config;

import org.bftws.core.config.ConfigKey;

/**
 * Whether client↔replica messages carry WS-Security signatures (paper §3.3.1: "the messages exchanged
 * between the client and the replicas are protected by WS-Security"; protocol messages between replicas keep
 * their own Ed25519 signatures either way).
 */
public enum SecurityMode {
    /** No WS-Security: the CreateSequence exchange is unauthenticated. */
    NONE,
    /** Rampart enforces {@code bftws.security.policy} on the client's CreateSequence and the replica's answer. */
    RAMPART;

    /** The value as written in axis2.xml. */
    public String configValue() {
        return ConfigKey.choiceText(this);
    }
}
