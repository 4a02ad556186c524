package org.bftws.module.config;

import java.util.Locale;

/** How a collective random number is produced for randomized operations (paper §3.2, §4). */
public enum RandomnessAlgorithm {
    /** No randomized operations: no extra agreement step. */
    NONE,
    /** Byzantine-agreement based: contributions collected in the pp-update phase. */
    BA,
    /** Threshold coin: each replica adds a share on commit, f+1 shares combine. */
    CT;

    /** The value as written in axis2.xml. */
    public String configValue() {
        return name().toLowerCase(Locale.ROOT);
    }
}
