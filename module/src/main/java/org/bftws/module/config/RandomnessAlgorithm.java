package org.bftws.module.config;

import org.bftws.core.config.ConfigKey;

/**
 * How a collective random number is produced for randomized operations (integrity paper §4–§5); each maps
 * to one of core's {@code RandomnessConfig} factories.
 */
public enum RandomnessAlgorithm {
    /** No randomized operations: no extra agreement step. */
    NONE,
    /** Byzantine-agreement based: contributions collected in the pp-update phase (§4). */
    BA,
    /** BA with commit-before-reveal: no last-revealer or subset-choice bias (docs/randomness.md, BA). */
    BA_HARDENED,
    /** Threshold coin: each replica adds a share on commit, k shares combine (§5). */
    CT;

    /** The value as written in axis2.xml. */
    public String configValue() {
        return ConfigKey.choiceText(this);
    }
}
