package org.bftws.samples.dealer;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * A deterministic stream of unbiased integers expanded from one collective random number: SHA-256 in
 * counter mode, block i = SHA-256(tag ‖ seed ‖ i as 8 bytes big-endian). Every correct replica holds the
 * same seed (integrity paper §4–§5), so every replica draws the same integers; nobody who cannot predict
 * the seed can predict them.
 *
 * <p>No lambdas and no string {@code +}: Axis2 1.7 parses service bytecode (docs/design/dependencies.md).
 */
public final class RandomStream {
    private static final byte[] TAG = {'B', 'F', 'T', 'W', 'S', '-', 'd', 'e', 'a', 'l', 'e', 'r', '-', 'v', '1'};

    private final MessageDigest sha;
    private final byte[] seed;
    private long counter;
    private byte[] block = new byte[0];
    private int used;

    public RandomStream(byte[] seed) {
        try {
            this.sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 missing from the JDK", e);
        }
        this.seed = seed.clone();
    }

    /** A uniform integer in [0, bound), by rejection: values of the top partial range are drawn again. */
    public int below(int bound) {
        if (bound <= 0) {
            throw new IllegalArgumentException("bound must be positive");
        }
        long range = 1L << 32;
        long limit = range - range % bound;
        long u = nextUnsigned32();
        while (u >= limit) {
            u = nextUnsigned32();
        }
        return (int) (u % bound);
    }

    private long nextUnsigned32() {
        if (used + 4 > block.length) {
            refill();
        }
        long u = 0;
        for (int i = 0; i < 4; i++) {
            u = (u << 8) | (block[used++] & 0xff);
        }
        return u;
    }

    private void refill() {
        sha.reset();
        sha.update(TAG);
        sha.update(seed);
        for (int shift = 56; shift >= 0; shift -= 8) {
            sha.update((byte) (counter >>> shift));
        }
        counter++;
        block = sha.digest();
        used = 0;
    }
}
