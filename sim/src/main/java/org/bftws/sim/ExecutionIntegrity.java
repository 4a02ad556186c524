package org.bftws.sim;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.bftws.core.message.RequestId;

/**
 * Integrity of each correct replica's executions (docs/simulator.md; {@link Checker}'s S2, {@link EpochChecker}'s
 * R2): seqs in increasing order and no request twice. A state transfer moves a replica on to the installed seq; a
 * restart from its journal takes it back to its stable checkpoint, what it executed above that to be executed
 * again; a restart without state makes it a new replica.
 */
final class ExecutionIntegrity {
  private final String label;
  private final Consumer<String> violation;
  private final Map<Integer, Long> lastSeq = new HashMap<>();
  /** Per replica, the requests it executed since it last restarted empty, each with the seq it executed at. */
  private final Map<Integer, Map<RequestId, Long>> executedIds = new HashMap<>();

  /** {@code label} names the invariant in the violations ("S2", "R2"). */
  ExecutionIntegrity(String label, Consumer<String> violation) {
    this.label = label;
    this.violation = violation;
  }

  void executed(int replica, long seq, List<RequestId> ids) {
    Long last = lastSeq.get(replica);
    if (last != null && seq <= last) {
      violation.accept(label + " integrity: replica " + replica + " executed seq " + seq + " after " + last);
    }
    lastSeq.put(replica, seq);
    Map<RequestId, Long> mine = executedIds.computeIfAbsent(replica, k -> new HashMap<>());
    for (RequestId id : ids) {
      if (mine.putIfAbsent(id, seq) != null) {
        violation.accept(label + " integrity: replica " + replica + " executed " + id + " twice");
      }
    }
  }

  /** A state transfer installed the checkpoint at seq: the replica executes on from there. */
  void installed(int replica, long seq) {
    lastSeq.put(replica, seq);
  }

  /** Restarted from its journal at its stable checkpoint seq: what it executed above it, it executes again. */
  void restarted(int replica, long seq) {
    lastSeq.put(replica, seq);
    Map<RequestId, Long> ids = executedIds.get(replica);
    if (ids != null) {
      ids.values().removeIf(at -> at > seq);
    }
  }

  /** Restarted without its state: a new replica. */
  void forget(int replica) {
    lastSeq.remove(replica);
    executedIds.remove(replica);
  }
}
