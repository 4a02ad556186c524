package org.bftws.byzantine;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.bftws.core.engine.Ready;
import org.bftws.core.message.Signed;

/**
 * {@code forge}: on every tick, {@link #PER_TICK} forged or garbled messages to the other replicas, made from the
 * replica's own recent messages: the same body claimed by another replica (its signature then wrong), the
 * signature with a flipped bit, bytes flipped anywhere, the envelope cut short, and random bytes; and to a client
 * it replied to, its last reply with a result the certificate does not cover. Correct nodes must refuse each one
 * as evidence and change nothing.
 */
final class Forge extends Behaviour {
    static final int PER_TICK = 4;
    private static final int RECENT = 64;

    private final Random random;
    private final List<byte[]> recent = new ArrayList<>();
    private Ready.Outbound lastReply;
    private int next;

    Forge(Node node) {
        super(node);
        this.random = new Random(node.id() * 7919L + 17);
    }

    @Override
    List<Ready.Outbound> outgoing(List<Ready.Outbound> messages) {
        for (Ready.Outbound o : messages) {
            if (!node.toReplicas(o)) {
                lastReply = o;
            } else if (recent.size() < RECENT) {
                recent.add(o.bytes());
            } else {
                recent.set(random.nextInt(RECENT), o.bytes());
            }
        }
        return messages;
    }

    @Override
    List<Ready.Outbound> onTick() {
        List<Ready.Outbound> out = new ArrayList<>(PER_TICK + 1);
        for (int i = 0; i < PER_TICK; i++) {
            out.add(new Ready.Outbound(Ready.ALL_REPLICAS, forged(next++ % 5)));
        }
        if (lastReply != null) {
            out.add(new Ready.Outbound(lastReply.to(), flipped(lastReply.bytes(), lastReply.bytes().length - 1)));
        }
        return out;
    }

    private byte[] forged(int variant) {
        byte[] base = recent.isEmpty() ? new byte[16] : recent.get(random.nextInt(recent.size()));
        Signed s = envelope(base);
        switch (variant) {
            case 0: // another replica's name on this replica's message
                if (s != null) {
                    int other = node.peers().get(random.nextInt(node.n() - 1));
                    return Signed.of(s.kind(), other, s.body(), s.signature()).encode();
                }
                break;
            case 1: // a bit of the signature flipped
                if (s != null && s.signature().length > 0) {
                    byte[] sig = s.signature().clone();
                    sig[random.nextInt(sig.length)] ^= 1;
                    return Signed.of(s.kind(), s.sender(), s.body(), sig).encode();
                }
                break;
            case 2:
                return flipped(base, random.nextInt(Math.max(1, base.length)));
            case 3: // cut short
                return java.util.Arrays.copyOf(base, random.nextInt(Math.max(1, base.length)));
            default:
                break;
        }
        byte[] noise = new byte[1 + random.nextInt(512)];
        random.nextBytes(noise);
        return noise;
    }

    private static byte[] flipped(byte[] bytes, int at) {
        byte[] out = bytes.clone();
        if (out.length > 0) {
            out[at] ^= 0x20;
        }
        return out;
    }
}
