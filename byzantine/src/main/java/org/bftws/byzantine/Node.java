package org.bftws.byzantine;

import java.util.ArrayList;
import java.util.List;

import org.bftws.core.config.GroupConfig;
import org.bftws.core.engine.Engine;
import org.bftws.core.engine.Ready;
import org.bftws.core.message.Kind;
import org.bftws.core.message.Signed;
import org.bftws.module.config.Ordering;
import org.bftws.module.order.EngineDecorator;

/** The Byzantine replica as its behaviours see it: its engine's state, its key, its peers. */
final class Node {
    private final Engine engine;
    private final EngineDecorator.Context context;

    Node(Engine engine, EngineDecorator.Context context) {
        this.engine = engine;
        this.context = context;
    }

    int id() {
        return context.id();
    }

    int n() {
        return context.group().n();
    }

    int f() {
        return context.group().f();
    }

    GroupConfig group() {
        return context.group();
    }

    /**
     * Whether the replica's messages are asynchronous protocol instances: the asynchronous engine's
     * ({@code bftws.ordering=async}) or the hybrid engine's ({@code hybrid}), not PBFT's.
     */
    boolean asynchronous() {
        return context.ordering() != Ordering.PBFT;
    }

    /** Whether the group orders with the hybrid engine ({@code bftws.ordering=hybrid}). */
    boolean hybrid() {
        return context.ordering() == Ordering.HYBRID;
    }

    Engine engine() {
        return engine;
    }

    /** An envelope of this replica, correctly signed with its own key. */
    byte[] sign(Kind kind, byte[] body) {
        return Signed.sign(kind, id(), body, context.signer()).encode();
    }

    /** This replica's own signature on {@code data} (what a protocol binds into a message, not an envelope). */
    byte[] signature(byte[] data) {
        return context.signer().sign(data);
    }

    /** The other replicas, in id order. */
    List<Integer> peers() {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < n(); i++) {
            if (i != id()) {
                out.add(i);
            }
        }
        return out;
    }

    /** Whether a destination of {@link Ready.Outbound} is a replica (one or all), not a client. */
    boolean toReplicas(Ready.Outbound o) {
        return o.to() == Ready.ALL_REPLICAS || (o.to() >= 0 && o.to() < n());
    }
}
