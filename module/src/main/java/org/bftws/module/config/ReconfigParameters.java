package org.bftws.module.config;

import static org.bftws.module.config.BftwsKeys.RECONFIG_ADMINISTRATORS;
import static org.bftws.module.config.BftwsKeys.RECONFIG_THRESHOLD;

import java.nio.file.Path;
import java.util.List;

import org.bftws.core.config.ConfigKey;
import org.bftws.core.config.ConfigValues;
import org.bftws.core.config.GroupConfig;
import org.bftws.core.crypto.Authentication;
import org.bftws.core.keys.AdminKeys;
import org.bftws.core.keys.KeyFileException;
import org.bftws.core.reconfig.Administrators;
import org.bftws.core.reconfig.ReconfigurationException;

/**
 * The rules of a reconfigurable group's keys (docs/design/reconfiguration.md, "Configurations"): the
 * administrators' file and k, and what core's epoch engine ({@code EpochReplica}) does not support, each refused
 * at start-up naming its key rather than ignored, so no operator counts on a combination that does not run.
 */
final class ReconfigParameters {
    private ReconfigParameters() {
    }

    /** Checks a group member's reconfiguration keys; nothing to check without administrators. */
    static void check(ConfigValues values, GroupConfig group) {
        if (!values.isSet(RECONFIG_ADMINISTRATORS)) {
            if (values.isSet(RECONFIG_THRESHOLD)) {
                throw new BftwsConfigException(RECONFIG_THRESHOLD.name(), "is set, but "
                        + RECONFIG_ADMINISTRATORS + " is not: a group without administrators never reconfigures");
            }
            return;
        }
        administrators(values.get(RECONFIG_ADMINISTRATORS), values.get(RECONFIG_THRESHOLD));
        refuseUnsupported(values, group);
    }

    /** The administrators the file lists, with k; a bad file or k names its key. */
    static Administrators administrators(Path file, int k) {
        List<byte[]> keys;
        try {
            keys = AdminKeys.readList(file);
        } catch (KeyFileException e) {
            throw new BftwsConfigException(RECONFIG_ADMINISTRATORS.name(), e.getMessage());
        }
        if (k > keys.size()) {
            throw new BftwsConfigException(RECONFIG_THRESHOLD.name(), "must be at most the " + keys.size()
                    + " administrators of " + file + ", got " + k);
        }
        try {
            return new Administrators(keys, k);
        } catch (ReconfigurationException e) {
            throw new BftwsConfigException(RECONFIG_ADMINISTRATORS.name(), e.getMessage());
        }
    }

    /**
     * The epoch engine runs PBFT in configuration I with signed votes, no randomness and no journal: the other
     * engines' epochs would end at a round or a fallback, configurations II and III's lists would have to
     * follow the membership, MAC session keys are per pair of members, threshold keys need resharing to new
     * members, and a journal does not record epochs yet.
     */
    private static void refuseUnsupported(ConfigValues values, GroupConfig group) {
        String why = " with " + RECONFIG_ADMINISTRATORS + " (the epoch engine";
        if (values.get(BftwsKeys.ORDERING) != Ordering.PBFT) {
            refuse(BftwsKeys.ORDERING, "must be pbft" + why + " orders by PBFT only)");
        }
        if (!group.executionNodes().isEmpty()) {
            refuse(GroupConfig.EXECUTION_NODES, "must be empty" + why + " runs configuration I only)");
        }
        if (group.separatesExecution()) {
            refuse(GroupConfig.EXECUTING_REPLICAS, "must name every replica" + why + " runs configuration I only)");
        }
        if (values.get(BftwsKeys.AUTHENTICATION) != Authentication.SIGNATURES) {
            refuse(BftwsKeys.AUTHENTICATION, "must be signatures" + why + " has no MAC session keys per epoch)");
        }
        if (values.get(BftwsKeys.RANDOMNESS) != RandomnessAlgorithm.NONE) {
            refuse(BftwsKeys.RANDOMNESS, "must be none" + why + " does not reshare threshold keys to new members)");
        }
        if (values.get(BftwsKeys.KEYS_MODE) != KeysMode.DEALER) {
            refuse(BftwsKeys.KEYS_MODE, "must be dealer" + why + " does not reshare generated keys)");
        }
        if (values.isSet(BftwsKeys.DATA_DIR)) {
            refuse(BftwsKeys.DATA_DIR, "must be unset" + why + " keeps no journal; a restarted member catches up"
                    + " by state transfer)");
        }
        if (!values.get(BftwsKeys.REPLICATED_CLIENTS).isEmpty()) {
            refuse(BftwsKeys.REPLICATED_CLIENTS, "must be none" + why + " does not filter a replicated client's"
                    + " copies)");
        }
    }

    private static void refuse(ConfigKey<?> key, String detail) {
        throw new BftwsConfigException(key.name(), detail);
    }
}
