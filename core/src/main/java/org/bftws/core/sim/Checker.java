package org.bftws.core.sim;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.bftws.core.crypto.Digests;
import org.bftws.core.message.Request;
import org.bftws.core.message.RequestId;
import org.bftws.core.message.Signed;
import org.bftws.core.pbft.Effect;
import org.bftws.core.pbft.Event;

/**
 * The invariants of TESTING.md, checked on what correct replicas and clients report: one canonical
 * history that every commit must match (S1, S4), exactly-once execution (S2), only client-issued
 * requests (S3), agreeing checkpoints and state transfers (S5), view changes that keep what committed
 * (S6), and client-accepted replies equal to a replay of the agreed history on a model (S7).
 */
final class Checker {
  private final Set<String> violations = new LinkedHashSet<>();
  /** Canonical history: seq → digest, and the batch behind each digest. */
  private final TreeMap<Long, byte[]> canonical = new TreeMap<>();
  private final Map<Long, Long> committedView = new HashMap<>();
  private final Map<Long, List<Signed>> batches = new HashMap<>();
  private final List<long[]> prePrepared = new ArrayList<>();
  private final List<byte[]> prePreparedDigests = new ArrayList<>();
  private final Map<Long, byte[]> checkpointDigests = new HashMap<>();
  private final Map<Long, byte[]> stableDigests = new HashMap<>();
  private final Map<Integer, Long> lastExecutedSeq = new HashMap<>();
  private final Map<Integer, Set<RequestId>> executedIds = new HashMap<>();
  private final Set<String> issued = new HashSet<>();
  private final Map<RequestId, byte[]> delivered = new HashMap<>();
  long commits;
  long committedRequests;
  long viewChanges;
  long stateTransfers;
  long evidence;

  void violation(String v) {
    violations.add(v);
  }

  List<String> violations() {
    return new ArrayList<>(violations);
  }

  static String key(Request q) {
    return q.client() + "|" + q.sequenceId() + "|" + q.messageNumber() + "|" + Digests.hex(Digests.sha256(q.operation()), 32);
  }

  void issued(Request q) {
    issued.add(key(q));
  }

  /** A replica restarted without its state: a new incarnation, tracked afresh for S2. */
  void amnesia(int replica) {
    lastExecutedSeq.remove(replica);
    executedIds.remove(replica);
  }

  void event(int replica, Event e) {
    if (e instanceof Event.Committed c) {
      commits++;
      byte[] before = canonical.putIfAbsent(c.seq(), c.digest());
      if (before != null && !Arrays.equals(before, c.digest())) {
        violation("S1 agreement: seq " + c.seq() + " committed with two digests (replica " + replica + ")");
      }
      committedView.merge(c.seq(), c.view(), Math::min);
      batches.putIfAbsent(c.seq(), c.batch());
    } else if (e instanceof Event.PrePrepared p) {
      prePrepared.add(new long[] {p.view(), p.seq()});
      prePreparedDigests.add(p.digest());
    } else if (e instanceof Event.CheckpointTaken t) {
      same(checkpointDigests, t.seq(), t.digest(), "S5 checkpoints: replicas took different checkpoints at ");
    } else if (e instanceof Event.CheckpointStable s) {
      same(stableDigests, s.seq(), s.digest(), "S5 checkpoints: different stable checkpoints at ");
    } else if (e instanceof Event.StateInstalled s) {
      stateTransfers++;
      same(stableDigests, s.seq(), s.digest(), "S5 state transfer: installed a state other than the proven one at ");
      lastExecutedSeq.put(replica, s.seq());
    } else if (e instanceof Event.ViewEntered) {
      viewChanges++;
    } else if (e instanceof Event.Evidence) {
      evidence++;
    }
  }

  private void same(Map<Long, byte[]> m, long seq, byte[] d, String what) {
    byte[] before = m.putIfAbsent(seq, d);
    if (before != null && !Arrays.equals(before, d)) {
      violation(what + seq);
    }
  }

  void executed(int replica, Effect.Execute ex) {
    Long last = lastExecutedSeq.get(replica);
    if (last != null && ex.seq() <= last) {
      violation("S2 integrity: replica " + replica + " executed seq " + ex.seq() + " after " + last);
    }
    lastExecutedSeq.put(replica, ex.seq());
    byte[] d = canonical.get(ex.seq());
    if (d == null || !Arrays.equals(d, ex.batchDigest())) {
      violation("S4 history: replica " + replica + " executed seq " + ex.seq() + " outside the canonical history");
    }
    Set<RequestId> ids = executedIds.computeIfAbsent(replica, k -> new HashSet<>());
    for (Request q : ex.requests()) {
      if (!ids.add(q.id())) {
        violation("S2 integrity: replica " + replica + " executed " + q.id() + " twice");
      }
      if (!issued.contains(key(q))) {
        violation("S3 validity: replica " + replica + " executed " + q.id() + ", which no client issued");
      }
    }
  }

  void delivered(RequestId id, byte[] result) {
    delivered.put(id, result);
  }

  /** End of run: S6 (what committed stays), S7 (replies equal a replay of the canonical history). */
  void finish() {
    for (int i = 0; i < prePrepared.size(); i++) {
      long view = prePrepared.get(i)[0];
      long seq = prePrepared.get(i)[1];
      Long cv = committedView.get(seq);
      if (cv != null && view > cv && !Arrays.equals(canonical.get(seq), prePreparedDigests.get(i))) {
        violation("S6 view change: seq " + seq + " committed in view " + cv + " but re-proposed differently in view " + view);
      }
    }
    Map<RequestId, byte[]> expected = replay();
    committedRequests = expected.size();
    for (Map.Entry<RequestId, byte[]> e : delivered.entrySet()) {
      byte[] want = expected.get(e.getKey());
      if (want == null && complete) {
        violation("S7 clients: a reply for " + e.getKey() + " was accepted but it is not in the agreed history");
      } else if (want != null && !Arrays.equals(want, e.getValue())) {
        violation("S7 clients: the accepted reply for " + e.getKey() + " differs from the replayed history");
      }
    }
  }

  private boolean complete;

  private Map<RequestId, byte[]> replay() {
    HashChainApp model = new HashChainApp();
    Map<String, Long> last = new HashMap<>();
    Map<RequestId, byte[]> results = new HashMap<>();
    complete = true;
    long expect = 1;
    for (Map.Entry<Long, byte[]> e : canonical.entrySet()) {
      if (e.getKey() != expect) {
        complete = false; // a gap: nothing after it can be replayed
        break;
      }
      expect++;
      for (Signed s : batches.get(e.getKey())) {
        Request q = Request.decode(s.body());
        if (q.messageNumber() > last.getOrDefault(q.sequenceId(), 0L)) {
          last.put(q.sequenceId(), q.messageNumber());
          results.put(q.id(), model.execute(q, new byte[0]));
        }
      }
    }
    return results;
  }
}
