package org.bftws.sim;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.bftws.core.engine.Effect;
import org.bftws.core.message.Request;
import org.bftws.core.message.RequestId;
import org.bftws.core.reconfig.Membership;
import org.bftws.core.testkit.HashChainApp;

/**
 * The invariants of a run whose membership changes ({@link ReconfigureSimulation}, docs/simulator.md), judged on
 * what the correct replicas and clients report. Sequence numbers run on across epochs (epoch e + 1 orders from
 * the checkpoint at which epoch e ended), so the executed history is one history:
 *
 * <ul>
 *   <li>R1 agreement: every correct replica that executes seq executes the same requests there, in any epoch.
 *   <li>R2 integrity: a replica executes seqs in increasing order and no request twice.
 *   <li>R3 epochs: every correct member of epoch e began it with the same membership, at the same seq, and that
 *       membership is the one the administrators' reconfiguration leads to (a bogus one changed nothing).
 *   <li>R4 clients: each accepted reply equals a replay of the executed history (nothing acknowledged is lost,
 *       and the history is linearizable: a call answered before another was issued is ordered before it).
 * </ul>
 */
final class EpochChecker {
  private final Set<String> violations = new LinkedHashSet<>();
  /** seq → the ids of the requests executed there (the canonical executed history), and the requests. */
  private final TreeMap<Long, List<RequestId>> executedAt = new TreeMap<>();
  private final Map<Long, List<Request>> requestsAt = new HashMap<>();
  private final ExecutionIntegrity integrity = new ExecutionIntegrity("R2", this::violation);
  /** epoch → the membership its members began it with, and the seq it began at. */
  private final Map<Long, Membership> began = new HashMap<>();
  private final Map<Long, Long> beganAt = new HashMap<>();
  /** epoch → the membership the administrators' reconfigurations lead to. */
  private final Map<Long, Membership> expected = new HashMap<>();
  /** Replies clients accepted: request → (result, issued at, accepted at). */
  private final Map<RequestId, byte[]> delivered = new HashMap<>();
  private final Map<RequestId, long[]> times = new HashMap<>();
  long executions;
  long stateTransfers;

  void violation(String v) {
    violations.add(v);
  }

  List<String> violations() {
    return new ArrayList<>(violations);
  }

  /** The membership epoch {@code m.epoch()} must have: the group's first, or an accepted reconfiguration's. */
  void expect(Membership m) {
    expected.put(m.epoch(), m);
  }

  void executed(int replica, Effect.Execute ex) {
    executions++;
    List<RequestId> ids = ex.requests().stream().map(Request::id).toList();
    integrity.executed(replica, ex.seq(), ids);
    List<RequestId> before = executedAt.putIfAbsent(ex.seq(), ids);
    requestsAt.putIfAbsent(ex.seq(), ex.requests());
    if (before != null && !before.equals(ids)) {
      violation("R1 agreement: seq " + ex.seq() + " executed as " + ids + " at replica " + replica + ", as " + before
          + " elsewhere");
    }
  }

  /** A state transfer installed the checkpoint at seq at this replica: it executes on from there. */
  void installed(int replica, long seq) {
    stateTransfers++;
    integrity.installed(replica, seq);
  }

  /** A correct replica began epoch {@code m.epoch()} at {@code seq} (the previous epoch's last checkpoint). */
  void began(int replica, Membership m, long seq) {
    Membership first = began.putIfAbsent(m.epoch(), m);
    if (first != null && !first.equals(m)) {
      violation("R3 epochs: replica " + replica + " began epoch " + m.epoch() + " as " + m + ", another as " + first);
    }
    Long at = beganAt.putIfAbsent(m.epoch(), seq);
    if (at != null && at != seq) {
      violation("R3 epochs: replica " + replica + " began epoch " + m.epoch() + " at seq " + seq + ", another at " + at);
    }
    Membership want = expected.get(m.epoch());
    if (want == null || !want.equals(m)) {
      violation("R3 epochs: replica " + replica + " began epoch " + m.epoch() + " as " + m + ", which no administrator"
          + " signed (expected " + want + ")");
    }
  }

  /** A client accepted {@code result} for {@code id}, issued at {@code issued}, at {@code accepted}. */
  void delivered(RequestId id, byte[] result, long issued, long accepted) {
    delivered.put(id, result);
    times.put(id, new long[] {issued, accepted});
  }

  /** The epochs correct replicas began. */
  int epochsBegun() {
    return began.size();
  }

  /** R4, at the end of the run: replies against a replay of the executed history, and real-time order. */
  void finish() {
    HashChainApp model = new HashChainApp();
    Map<RequestId, byte[]> results = new HashMap<>();
    Map<RequestId, Long> position = new HashMap<>();
    long pos = 0;
    for (Map.Entry<Long, List<Request>> e : new TreeMap<>(requestsAt).entrySet()) {
      for (Request q : e.getValue()) {
        results.put(q.id(), model.execute(q, new byte[0]));
        position.put(q.id(), pos++);
      }
    }
    for (Map.Entry<RequestId, byte[]> d : delivered.entrySet()) {
      byte[] want = results.get(d.getKey());
      if (want == null) {
        violation("R4 clients: the reply for " + d.getKey() + " was accepted, but no correct replica executed it");
      } else if (!Arrays.equals(want, d.getValue())) {
        violation("R4 clients: the accepted reply for " + d.getKey() + " differs from the replayed history");
      }
    }
    List<RequestId> byIssue = new ArrayList<>(times.keySet());
    byIssue.sort((a, b) -> Long.compare(times.get(a)[0], times.get(b)[0]));
    for (RequestId a : times.keySet()) {
      for (RequestId b : byIssue) {
        if (times.get(b)[0] <= times.get(a)[1]) {
          continue;
        }
        Long pa = position.get(a);
        Long pb = position.get(b);
        if (pa != null && pb != null && pb < pa) {
          violation("R4 clients: " + b + " was issued after " + a + " was answered but is ordered before it");
        }
      }
    }
  }
}
