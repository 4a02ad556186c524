package org.bftws.byzantine;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.bftws.core.engine.Ready;

/**
 * {@code replay}: on every tick, {@link #PER_TICK} old messages again to the other replicas, drawn from the last
 * {@link #KEPT} this replica received (its peers' correctly signed messages of earlier views and sequence
 * numbers) and sent. Each is authentic; correct replicas must take it as the duplicate or the stale message it is.
 */
final class Replay extends Behaviour {
    static final int PER_TICK = 8;
    static final int KEPT = 2048;

    private final Random random;
    private final List<byte[]> kept = new ArrayList<>();
    private long seen;

    Replay(Node node) {
        super(node);
        this.random = new Random(node.id() * 104729L + 3);
    }

    @Override
    void received(byte[] bytes) {
        keep(bytes);
    }

    @Override
    List<Ready.Outbound> outgoing(List<Ready.Outbound> messages) {
        for (Ready.Outbound o : messages) {
            if (node.toReplicas(o)) {
                keep(o.bytes());
            }
        }
        return messages;
    }

    /** Reservoir sampling: every message seen so far equally likely to be kept. */
    private void keep(byte[] bytes) {
        seen++;
        if (kept.size() < KEPT) {
            kept.add(bytes);
        } else {
            long slot = (long) (random.nextDouble() * seen);
            if (slot < KEPT) {
                kept.set((int) slot, bytes);
            }
        }
    }

    @Override
    List<Ready.Outbound> onTick() {
        if (kept.isEmpty()) {
            return List.of();
        }
        List<Ready.Outbound> out = new ArrayList<>(PER_TICK);
        for (int i = 0; i < PER_TICK; i++) {
            out.add(new Ready.Outbound(Ready.ALL_REPLICAS, kept.get(random.nextInt(kept.size()))));
        }
        return out;
    }
}
