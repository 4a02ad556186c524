package org.bftws.byzantine;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

import org.bftws.core.async.AsyncMessage;
import org.bftws.core.codec.DecodeException;
import org.bftws.core.config.GroupConfig;
import org.bftws.core.engine.Ready;
import org.bftws.core.hybrid.LaneMessages;
import org.bftws.core.message.Kind;
import org.bftws.core.message.Signed;

/**
 * {@code slow-primary}: as primary, every pre-prepare held for 60 % of the view-change timeout
 * ({@code bftws.viewChangeTimeoutTicks}) before it leaves (Aardvark, NSDI 2009 §2: a primary just fast enough not
 * to be replaced). Backups' timers restart as each batch executes, so they never expire: the group orders one
 * batch per delay instead of one per round trip. Under the hybrid engine the same for the fast lane's PROPOSEs
 * of the epochs it leads: there the slow-leader rule, not a timer, has to replace it (docs/design/hybrid.md).
 */
final class SlowPrimary extends Behaviour {
    /** Pre-prepares waiting; more than this and the oldest are sent at once (its own retransmissions pile up). */
    static final int MAX_HELD = 10_000;

    private record Held(long due, Ready.Outbound message) {}

    private final long delayTicks;
    private final ArrayDeque<Held> held = new ArrayDeque<>();
    private long ticks;

    SlowPrimary(Node node) {
        super(node);
        this.delayTicks = Math.max(1, node.group().get(GroupConfig.VIEW_CHANGE_TIMEOUT) * 6L / 10);
    }

    long delayTicks() {
        return delayTicks;
    }

    @Override
    List<Ready.Outbound> outgoing(List<Ready.Outbound> messages) {
        List<Ready.Outbound> out = new ArrayList<>(messages.size());
        for (Ready.Outbound o : messages) {
            Signed s = node.toReplicas(o) ? envelope(o.bytes()) : null;
            if (s != null && s.sender() == node.id() && isProposal(s)) {
                held.add(new Held(ticks + delayTicks, o));
                if (held.size() > MAX_HELD) {
                    out.add(held.poll().message());
                }
            } else {
                out.add(o);
            }
        }
        return out;
    }

    private boolean isProposal(Signed s) {
        if (!node.hybrid()) {
            return s.kind() == Kind.PRE_PREPARE;
        }
        if (s.kind() != Kind.ASYNC) {
            return false;
        }
        try {
            return LaneMessages.isProposal(AsyncMessage.decode(s.body()));
        } catch (DecodeException e) {
            return false;
        }
    }

    @Override
    List<Ready.Outbound> onTick() {
        ticks++;
        List<Ready.Outbound> due = new ArrayList<>();
        while (!held.isEmpty() && held.peek().due() <= ticks) {
            due.add(held.poll().message());
        }
        return due;
    }
}
