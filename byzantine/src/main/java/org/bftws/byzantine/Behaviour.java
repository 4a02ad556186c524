package org.bftws.byzantine;

import java.util.List;

import org.bftws.core.codec.DecodeException;
import org.bftws.core.engine.Ready;
import org.bftws.core.message.Signed;

/**
 * What one Byzantine replica does on the wire: it rewrites what its correct engine would send, and may add
 * messages of its own on each tick. It never changes what the engine receives or executes, so its state stays
 * the group's and only the messages it sends lie.
 */
abstract class Behaviour {
    protected final Node node;

    Behaviour(Node node) {
        this.node = node;
    }

    /** What the replica sends instead of {@code messages}, its engine's output of one step. */
    List<Ready.Outbound> outgoing(List<Ready.Outbound> messages) {
        return messages;
    }

    /** A message as received, before the engine steps it. */
    void received(byte[] bytes) {
    }

    /** Messages of its own, sent on every tick of logical time. */
    List<Ready.Outbound> onTick() {
        return List.of();
    }

    /** The envelope of an outbound message to replicas, or null for bytes that are none (a client's reply). */
    static Signed envelope(byte[] bytes) {
        try {
            return Signed.decode(bytes);
        } catch (DecodeException | IllegalArgumentException e) {
            return null;
        }
    }
}
