package org.bftws.module.random;

import org.bftws.core.crypto.threshold.SchemeId;
import org.bftws.core.replication.CoinConfig;
import org.bftws.core.engine.CoinProof;
import org.bftws.core.pbft.RandomnessConfig;
import org.bftws.module.api.RandomProof;

/**
 * The {@link RandomProof} a replica hands its service with a randomized request, from the engine's
 * {@link CoinProof}: the signed message and the combined signature for publicly verifiable schemes (threshold
 * BLS, Shoup RSA); algorithm, scheme and message only for a CKS coin; the algorithm only for BA.
 */
public final class RandomProofs {
    private final RandomnessConfig randomness;
    private final String keyId;

    public RandomProofs(RandomnessConfig randomness) {
        this.randomness = randomness;
        CoinConfig coins = randomness.coins();
        this.keyId = coins == null ? "" : RandomProof.keyId(coins.group());
    }

    /** The proof of {@code random} (null when the request got no number). */
    public RandomProof of(byte[] random, CoinProof coin) {
        if (random == null || random.length == 0) {
            return null;
        }
        CoinConfig coins = randomness.coins();
        if (randomness.algorithm() != RandomnessConfig.Algorithm.CT || coins == null) {
            return new RandomProof(randomness.algorithm().name().toLowerCase().replace('_', '-'), "", "",
                    new byte[0], new byte[0]);
        }
        SchemeId scheme = coins.scheme().id();
        byte[] signature = coin.present() && RandomProof.publiclyVerifiable(scheme) ? coin.value().unique() : new byte[0];
        return new RandomProof("ct", scheme.label(), keyId, coin.message(), signature);
    }
}
