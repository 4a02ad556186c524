package org.bftws.core.engine;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What one step of the state machine asks of its embedding, in the manner of etcd raft's {@code Ready}.
 * Obligations: perform {@link #effects} in list order, feeding each execution's results back through
 * {@link Engine#executed} and each captured state through {@link Engine#stateCaptured} before the next
 * effect; send {@link #messages} (in any order, unreliably: the protocol retransmits). {@link #events}
 * are observations for logs, metrics and the simulator's checker; nothing depends on them being read.
 */
public final class Ready {
  /** Destination meaning "every replica but the sender". */
  public static final int ALL_REPLICAS = -1;

  /** One encoded {@code Signed} envelope to one node, or to all other replicas. */
  public record Outbound(int to, byte[] bytes) {}

  public final List<Outbound> messages;
  public final List<Effect> effects;
  public final List<Event> events;
  /**
   * Records the embedding appends durably, in order, before it sends {@link #messages} ({@link Journal});
   * empty unless the engine was built to keep a journal.
   */
  public final List<Journal.Record> persist;

  /** A fresh, mutable Ready, which a state machine fills during one step. */
  public Ready() {
    this(new ArrayList<>(), new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
  }

  private Ready(List<Outbound> messages, List<Effect> effects, List<Event> events, List<Journal.Record> persist) {
    this.messages = messages;
    this.effects = effects;
    this.events = events;
    this.persist = persist;
  }

  public static Ready empty() {
    return new Ready(Collections.emptyList(), Collections.emptyList(), Collections.emptyList(), Collections.emptyList());
  }

  public boolean isEmpty() {
    return messages.isEmpty() && effects.isEmpty() && events.isEmpty() && persist.isEmpty();
  }
}
