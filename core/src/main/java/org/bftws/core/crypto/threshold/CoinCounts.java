package org.bftws.core.crypto.threshold;

import java.security.SecureRandom;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;


/**
 * The threshold-coin work asked of a scheme (integrity paper §5's CT, and the coins of the asynchronous engine's
 * binary agreements, SINTRA §2.1's release / verify / assemble): coin shares made and checked, and coins combined
 * and checked. The scheme returned by {@link #counting} sits directly around the real one, so every count is a
 * real group operation (each one costs milliseconds: a count per call is nothing beside it). It counts calls,
 * not the scheme's inner checks: CKS's {@code combine} verifies the k shares it interpolates inside that one call.
 * A replica's metrics keep one per replica; the simulator's benchmarks one per group.
 */
public final class CoinCounts {
    private final LongAdder sharesMade = new LongAdder();
    private final LongAdder sharesVerified = new LongAdder();
    private final LongAdder sharesInvalid = new LongAdder();
    private final LongAdder combined = new LongAdder();
    private final LongAdder combinedVerified = new LongAdder();

    /** {@code scheme}, its share, verification and combination counted here. */
    public ThresholdScheme counting(ThresholdScheme scheme) {
        return new Counting(scheme);
    }

    public long sharesMade() {
        return sharesMade.sum();
    }

    /** Coin shares checked, valid or not. */
    public long sharesVerified() {
        return sharesVerified.sum();
    }

    public long sharesInvalid() {
        return sharesInvalid.sum();
    }

    /** Coins combined from k shares. */
    public long combined() {
        return combined.sum();
    }

    /** Combined coins checked against the group key. */
    public long combinedVerified() {
        return combinedVerified.sum();
    }

    private final class Counting implements ThresholdScheme {
        private final ThresholdScheme scheme;

        Counting(ThresholdScheme scheme) {
            this.scheme = scheme;
        }

        @Override
        public SignatureShare share(GroupKey group, KeyShare key, byte[] message) {
            sharesMade.increment();
            return scheme.share(group, key, message);
        }

        @Override
        public boolean verifyShare(GroupKey group, byte[] message, SignatureShare share) {
            sharesVerified.increment();
            boolean ok = scheme.verifyShare(group, message, share);
            if (!ok) {
                sharesInvalid.increment();
            }
            return ok;
        }

        @Override
        public GroupValue combine(GroupKey group, byte[] message, Collection<SignatureShare> shares)
                throws ThresholdException {
            combined.increment();
            return scheme.combine(group, message, shares);
        }

        @Override
        public boolean verifyCombined(GroupKey group, byte[] message, GroupValue value) {
            combinedVerified.increment();
            return scheme.verifyCombined(group, message, value);
        }

        @Override
        public byte[] coinValue(GroupValue combinedValue) {
            return scheme.coinValue(combinedValue);
        }

        @Override
        public SchemeId id() {
            return scheme.id();
        }

        @Override
        public Dealt deal(ThresholdParams params, SecureRandom random) {
            return scheme.deal(params, random);
        }

        @Override
        public GroupKey groupKey(ThresholdParams params, byte[] common, List<byte[]> verificationKeys) {
            return scheme.groupKey(params, common, verificationKeys);
        }

        @Override
        public KeyShare keyShare(ThresholdParams params, int index, byte[] secret) {
            return scheme.keyShare(params, index, secret);
        }

        @Override
        public boolean keyShareMatches(GroupKey group, KeyShare key) {
            return scheme.keyShareMatches(group, key);
        }
    }
}
