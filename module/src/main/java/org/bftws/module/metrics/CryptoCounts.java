package org.bftws.module.metrics;

import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

import org.bftws.core.crypto.Signer;
import org.bftws.core.crypto.Verifier;
import org.bftws.core.crypto.threshold.CoinCounts;
import org.bftws.core.message.Kind;
import org.bftws.core.message.Signed;

/**
 * Ed25519 signatures made and checked by one group member, per message kind: the wrappers returned by
 * {@link #counting(Signer)} and {@link #counting(Verifier)} sit directly around the real key operations, so
 * every count is a real signature or verification (answers from {@code PreVerifier}'s memory are not counted).
 * Always on: one {@link LongAdder} increment per operation, against ≈30–110 µs for the operation itself.
 *
 * <p>The kind is read from the signed data, whose layout is core's {@link Signed}: a domain tag, then the
 * kind's code. The tag's length is learnt from core itself (two envelopes of different kinds are signed
 * with a capturing signer and compared), so this class cannot drift from the wire format.
 */
public final class CryptoCounts {
    /** Offset of the kind's code in the data a {@link Signed} envelope signs. */
    private static final int KIND_OFFSET = kindOffset();

    private final LongAdder[] signed = adders();
    private final LongAdder[] verified = adders();
    private final LongAdder[] failed = adders();
    private final CoinCounts coins = new CoinCounts();

    /** The threshold-coin work of this member: wrap its scheme with {@link CoinCounts#counting}. */
    public CoinCounts coins() {
        return coins;
    }

    public Signer counting(Signer signer) {
        return data -> {
            signed[slot(data)].increment();
            return signer.sign(data);
        };
    }

    public Verifier counting(Verifier verifier) {
        return (node, data, signature) -> {
            int slot = slot(data);
            verified[slot].increment();
            boolean ok = verifier.verify(node, data, signature);
            if (!ok) {
                failed[slot].increment();
            }
            return ok;
        };
    }

    /** Signatures made over envelopes of {@code kind}. */
    public long signed(Kind kind) {
        return signed[kind.ordinal()].sum();
    }

    /** Signatures checked on envelopes of {@code kind}, valid or not. */
    public long verified(Kind kind) {
        return verified[kind.ordinal()].sum();
    }

    /** Checks of {@code kind} that failed. */
    public long failed(Kind kind) {
        return failed[kind.ordinal()].sum();
    }

    /** Signatures made over data that is no {@link Signed} envelope. */
    public long signedOther() {
        return signed[Kind.values().length].sum();
    }

    /** Signatures checked on data that is no {@link Signed} envelope. */
    public long verifiedOther() {
        return verified[Kind.values().length].sum();
    }

    /** Non-zero signature counts per kind. */
    public Map<Kind, Long> signedByKind() {
        return byKind(signed);
    }

    /** Non-zero verification counts per kind. */
    public Map<Kind, Long> verifiedByKind() {
        return byKind(verified);
    }

    private static Map<Kind, Long> byKind(LongAdder[] adders) {
        Map<Kind, Long> m = new EnumMap<>(Kind.class);
        for (Kind k : Kind.values()) {
            long v = adders[k.ordinal()].sum();
            if (v > 0) {
                m.put(k, v);
            }
        }
        return m;
    }

    private static int slot(byte[] data) {
        if (data.length > KIND_OFFSET) {
            int code = data[KIND_OFFSET] & 0xff;
            if (code >= 1 && code <= Kind.values().length) {
                return code - 1;
            }
        }
        return Kind.values().length;
    }

    private static LongAdder[] adders() {
        LongAdder[] a = new LongAdder[Kind.values().length + 1];
        for (int i = 0; i < a.length; i++) {
            a[i] = new LongAdder();
        }
        return a;
    }

    private static int kindOffset() {
        byte[][] data = new byte[2][];
        Signed.sign(Kind.REQUEST, 0, new byte[0], d -> {
            data[0] = d;
            return new byte[0];
        });
        Signed.sign(Kind.PRE_PREPARE, 0, new byte[0], d -> {
            data[1] = d;
            return new byte[0];
        });
        int i = Arrays.mismatch(data[0], data[1]);
        if (i < 0) {
            throw new IllegalStateException("signed data does not depend on the message kind");
        }
        return i;
    }
}
