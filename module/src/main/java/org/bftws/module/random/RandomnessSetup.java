package org.bftws.module.random;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;

import org.bftws.core.keys.GroupKeys;
import org.bftws.core.replication.CoinConfig;
import org.bftws.core.pbft.Entropy;
import org.bftws.core.replication.RandomizedOperations;
import org.bftws.core.pbft.RandomnessConfig;
import org.bftws.core.crypto.threshold.KeyShare;
import org.bftws.module.metrics.CryptoCounts;
import org.bftws.module.config.BftwsConfig;
import org.bftws.module.config.BftwsConfigException;
import org.bftws.module.config.BftwsKeys;
import org.bftws.module.keys.GroupKeyMaterial;

/**
 * A replica's {@link RandomnessConfig} from {@code bftws.randomness.algorithm} and the keygen files
 * (integrity paper §4 BA, §5 CT): CT with the group key of {@code group.pub} and this replica's threshold
 * share from its {@code replica-I.key}; BA and hardened BA with a {@link SecureRandom} as the replica's own
 * entropy source; none. Which requests are randomized is decided by the services' declarations.
 */
public final class RandomnessSetup {
    private RandomnessSetup() {
    }

    /**
     * With {@code bftws.ordering=async} or {@code hybrid} always CT: those engines hold the group's threshold coin
     * for their binary agreements anyway (SINTRA §2.3), and give each randomized operation the coin of its batch
     * (none therefore means ct there; BftwsParameters refuses BA).
     */
    public static RandomnessConfig of(BftwsConfig config, GroupKeyMaterial keys, RandomizedOperations operations) {
        RandomnessConfig base = switch (config.randomness()) {
            case NONE -> config.ordering().tossesCoin() ? RandomnessConfig.ct(coins(config, keys))
                    : RandomnessConfig.none();
            case CT -> RandomnessConfig.ct(coins(config, keys));
            case BA -> RandomnessConfig.ba(entropy());
            case BA_HARDENED -> RandomnessConfig.baHardened(entropy());
        };
        return base.withOperations(operations);
    }

    /** The group id bound into every coin: the group endpoint, which every member of the group shares. */
    public static byte[] groupId(BftwsConfig config) {
        return config.groupEndpoint().toString().getBytes(StandardCharsets.UTF_8);
    }

    private static CoinConfig coins(BftwsConfig config, GroupKeyMaterial keys) {
        return coins(config, keys.counts(), keys.group(), keys.share());
    }

    /** A replica's coin from the group's keys and its share (dealt, or generated without a dealer). */
    public static CoinConfig coins(BftwsConfig config, CryptoCounts counts, GroupKeys group, KeyShare share) {
        String dealt = group.scheme().label();
        if (!dealt.equals(config.thresholdScheme().configValue())) {
            throw new BftwsConfigException(BftwsKeys.THRESHOLD_SCHEME.name(), "is "
                    + config.thresholdScheme().configValue() + ", but " + BftwsKeys.PUBLIC_KEYS.name()
                    + " holds a " + dealt + " group key (scripts/keygen --scheme)");
        }
        try {
            return new CoinConfig(counts.coins().counting(group.thresholdScheme()), group.threshold(), share,
                    groupId(config));
        } catch (IllegalArgumentException e) {
            throw new BftwsConfigException(BftwsKeys.PRIVATE_KEY.name(), "holds a threshold share that "
                    + BftwsKeys.PUBLIC_KEYS.name() + "'s group key does not match: " + e.getMessage());
        }
    }

    /** One generator per replica, seeded by the OS: a BA contribution nobody else can predict (§4). */
    private static Entropy entropy() {
        SecureRandom random = new SecureRandom();
        return random::nextBytes;
    }
}
