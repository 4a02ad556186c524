package org.bftws.module.metrics;

import org.bftws.core.codec.DecodeException;
import org.bftws.core.message.Kind;
import org.bftws.core.message.PrePrepare;
import org.bftws.core.message.ReplyBundle;
import org.bftws.core.message.Request;
import org.bftws.core.message.Signed;
import org.bftws.core.message.Vote;
import org.bftws.core.engine.Event;
import org.bftws.core.engine.Ready;
import org.bftws.module.metrics.PhaseTrace.Point;
import org.bftws.module.metrics.PhaseTrace.Step;

/**
 * The phase boundaries that only the ordering thread sees, read from what core's {@code Replica} returned
 * for one step (its outbound messages, events and the input it was given), so core itself keeps no clock
 * (docs/design/architecture.md, "The core's contract"). Called only while {@link PhaseTrace#on()}: it decodes
 * the step's messages again, which costs the ordering thread time the untraced run does not spend.
 */
public final class OrderingTrace {
    private OrderingTrace() {
    }

    /**
     * After a step of replica {@code replica} on a received message {@code input} (null for another input)
     * or on the results of batch {@code executedSeq} (-1 if none).
     */
    public static void afterStep(int replica, int n, byte[] input, long arrived, long verified, long dequeued,
            long executedSeq, Ready r) {
        long end = System.nanoTime();
        int sender = -1;
        int kind = 0;
        try {
            if (input != null) {
                Signed s = Signed.decode(input);
                sender = s.sender();
                kind = s.kind().code();
                if (s.kind() == Kind.REQUEST) {
                    Request q = Request.decode(s.body());
                    PhaseTrace.mark(Point.REQUEST_DEQUEUED, replica, PhaseTrace.request(q.sequenceId(),
                            q.messageNumber()), new Step(arrived, verified, dequeued, end, sender, kind));
                }
            }
        } catch (DecodeException e) {
            // core recorded it as evidence; nothing to time
        }
        Step step = new Step(arrived, verified, dequeued, end, sender, kind);
        if (executedSeq >= 0) {
            PhaseTrace.mark(Point.EXECUTED_DEQUEUED, replica, executedSeq, dequeued);
        }
        for (Ready.Outbound o : r.messages) {
            if (o.to() >= n) {
                if (executedSeq >= 0) {
                    PhaseTrace.mark(Point.REPLY_SENT, replica, executedSeq, end);
                }
                continue;
            }
            sent(replica, o.bytes(), step);
        }
        for (Event e : r.events) {
            if (e instanceof Event.PrePrepared p) {
                PhaseTrace.mark(Point.PRE_PREPARED, replica, p.seq(), step);
            } else if (e instanceof Event.Committed c) {
                PhaseTrace.mark(Point.COMMITTED, replica, c.seq(), step);
            }
        }
    }

    private static void sent(int replica, byte[] bytes, Step step) {
        try {
            Signed m = Signed.decode(bytes);
            if (m.kind() == Kind.PRE_PREPARE) {
                PrePrepare pp = PrePrepare.decode(m.body());
                PhaseTrace.mark(Point.EMIT_PRE_PREPARE, replica, pp.seq(), step.end());
                PhaseTrace.mark(Point.PRE_PREPARED, replica, pp.seq(), step);
                for (Signed q : pp.requests()) {
                    Request req = Request.decode(q.body());
                    PhaseTrace.mark(Point.BATCH_OF, -1, PhaseTrace.request(req.sequenceId(), req.messageNumber()),
                            pp.seq());
                }
            } else if (m.kind() == Kind.PREPARE) {
                PhaseTrace.mark(Point.EMIT_PREPARE, replica, Vote.decode(m.body()).seq(), step.end());
            } else if (m.kind() == Kind.COMMIT) {
                long seq = Vote.decode(m.body()).seq();
                PhaseTrace.mark(Point.EMIT_COMMIT, replica, seq, step.end());
                PhaseTrace.mark(Point.PREPARED, replica, seq, step);
            }
        } catch (DecodeException e) {
            // our own message: cannot happen; nothing to time
        }
    }

    /**
     * At a client, after core took reply {@code replyBytes} (arrived at {@code arrived}) and returned {@code r}:
     * if it delivered a voted result, that request's {@link Point#CLIENT_VOTED}.
     */
    public static void clientReceived(byte[] replyBytes, long arrived, Ready r) {
        for (Event e : r.events) {
            if (e instanceof Event.Delivered d) {
                int sender;
                try {
                    sender = ReplyBundle.decode(replyBytes).sender();
                } catch (DecodeException ex) {
                    sender = -1;
                }
                PhaseTrace.mark(Point.CLIENT_VOTED, -1, PhaseTrace.request(d.request().sequenceId(),
                        d.request().messageNumber()), new Step(arrived, 0, 0, System.nanoTime(), sender, 0));
            }
        }
    }
}
