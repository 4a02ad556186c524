package org.bftws.module.config;

import org.bftws.core.config.ConfigKey;

/**
 * Which of core's ordering engines a replica group runs ({@code bftws.ordering}, docs/configuration.md,
 * "Ordering modes"). All implement core's {@code engine.Engine}, so everything around ordering — services,
 * WS-RM sequences, the Voter, checkpoints, state transfer, the CT coins of randomized operations, WS-Security
 * signing — is the same in either mode.
 */
public enum Ordering {
    /**
     * Castro-Liskov PBFT ({@code pbft.Replica}): a primary orders, backups watch it with the view-change
     * timer. Fewest messages per request; live only while messages arrive before that timer fires.
     */
    PBFT,
    /**
     * SINTRA's atomic broadcast (Cachin-Poritz, DSN 2002, §2.5; {@code async.AsyncReplica}): every replica
     * proposes, randomized agreement decides, no timer decides anything, so a slow replica cannot slow the
     * group down. Needs the group's threshold coin (scripts/keygen deals it), configuration I and no
     * replicated clients; see {@link BftwsParameters} for what it refuses and ignores.
     */
    ASYNC,
    /**
     * A leader's fast lane with SINTRA's agreement as the fallback (Bolt-Dumbo Transformer, with Aardvark's
     * slow-leader rule; {@code hybrid.HybridReplica}, docs/design/hybrid.md): PBFT's few messages while the
     * leader is timely, the asynchronous engine's progress when it is not. Needs the group's threshold coin,
     * configuration I and no replicated clients, as {@link #ASYNC}, and keeps a journal as it does.
     */
    HYBRID;

    /**
     * Whether this engine's agreements toss the group's threshold coin (SINTRA §2.3): the asynchronous engine's
     * always, the hybrid engine's in its fallback. Such a group always holds CT randomness.
     */
    public boolean tossesCoin() {
        return this != PBFT;
    }

    /** The value as written in axis2.xml. */
    public String configValue() {
        return ConfigKey.choiceText(this);
    }
}
