package org.bftws.perf.recovery;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

import org.bftws.core.engine.Event;
import org.bftws.module.order.TotalOrderManager;

/**
 * The engine events one replica performed, each with the {@link System#nanoTime()} at which its Total Order
 * Manager performed it (through {@link TotalOrderManager#addEventListener}). Commits are kept only at
 * checkpoint sequence numbers, so a long run does not hold every batch.
 */
final class EventLog implements TotalOrderManager.EventListener {
    record Timed(Event event, long nanos) {
    }

    private final long checkpointInterval;
    private final List<Timed> events = new ArrayList<>();

    private EventLog(long checkpointInterval) {
        this.checkpointInterval = checkpointInterval;
    }

    /** A log attached to {@code manager} from now on. */
    static EventLog attach(TotalOrderManager manager, long checkpointInterval) {
        EventLog log = new EventLog(checkpointInterval);
        manager.addEventListener(log);
        return log;
    }

    @Override
    public void onEvent(Event e, long nanoTime) {
        if (e instanceof Event.Committed c && c.seq() % checkpointInterval != 0) {
            return;
        }
        if (e instanceof Event.PrePrepared || e instanceof Event.RandomnessAgreed) {
            return;
        }
        synchronized (events) {
            events.add(new Timed(e, nanoTime));
        }
    }

    /** When the first event matching {@code which} happened, or -1. */
    long first(Predicate<Event> which) {
        synchronized (events) {
            for (Timed t : events) {
                if (which.test(t.event())) {
                    return t.nanos();
                }
            }
        }
        return -1;
    }

    List<Timed> snapshot() {
        synchronized (events) {
            return new ArrayList<>(events);
        }
    }
}
