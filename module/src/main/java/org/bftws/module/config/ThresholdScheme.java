package org.bftws.module.config;

import org.bftws.core.config.ConfigKey;

/** Threshold scheme behind the CT coin; see docs/design/cryptography.md for costs and assumptions. */
public enum ThresholdScheme {
    /** Cachin-Kursawe-Shoup coin on P-256 (pure Java, Bouncy Castle). */
    CKS,
    /** Threshold BLS12-381 (publicly verifiable with the group key; blst via JNI). */
    BLS,
    /** Shoup threshold RSA over safe primes (slow to sign, no native code). */
    RSA;

    /** The value as written in axis2.xml. */
    public String configValue() {
        return ConfigKey.choiceText(this);
    }
}
