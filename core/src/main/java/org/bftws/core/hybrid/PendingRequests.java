package org.bftws.core.hybrid;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.bftws.core.crypto.Digests;
import org.bftws.core.message.Request;
import org.bftws.core.message.RequestId;
import org.bftws.core.message.Signed;
import org.bftws.core.replication.ClientRequests;

/**
 * A hybrid replica's authentic requests received and not yet executed, in arrival order, with the tick each
 * arrived (the slow-leader rule's clock), and at the leader those proposed in the current epoch; what the lane
 * and the SWITCH take from them is what the group still {@code wanted} (not ordered or delivered already).
 */
final class PendingRequests {
  private final LinkedHashMap<RequestId, Signed> pending = new LinkedHashMap<>();
  private final Map<RequestId, Long> arrival = new HashMap<>();
  private final Set<RequestId> proposed = new HashSet<>();
  private final Predicate<byte[]> wanted;

  PendingRequests(Predicate<byte[]> wanted) {
    this.wanted = wanted;
  }

  /** The requests by id, for {@code replication.RequestIntake}, which checks a new one against them. */
  LinkedHashMap<RequestId, Signed> byId() {
    return pending;
  }

  void add(RequestId id, Signed s, long now) {
    if (pending.putIfAbsent(id, s) == null) {
      arrival.put(id, now);
    }
  }

  void remove(RequestId id) {
    pending.remove(id);
    arrival.remove(id);
  }

  /** Drops those the client table would not run any more (executed here, or by a state installed). */
  void keepRunnable(ClientRequests requests) {
    pending.values().removeIf(q -> !requests.wouldRun(Request.decode(q.body())));
    arrival.keySet().retainAll(pending.keySet());
  }

  boolean isEmpty() {
    return pending.isEmpty();
  }

  int size() {
    return pending.size();
  }

  /** The tick the oldest wanted request arrived, or null if none is wanted. */
  Long oldestWanted() {
    for (Map.Entry<RequestId, Signed> e : pending.entrySet()) {
      if (wanted.test(e.getValue().encode())) {
        return arrival.get(e.getKey());
      }
    }
    return null;
  }

  /** A new epoch: its leader has proposed nothing in it yet. */
  void newEpoch() {
    proposed.clear();
  }

  /** The leader's next batch: wanted requests not proposed in this epoch yet, at most {@code max}. */
  List<byte[]> nextBatch(int max) {
    List<byte[]> batch = new ArrayList<>();
    for (Map.Entry<RequestId, Signed> e : pending.entrySet()) {
      if (batch.size() >= max) {
        break;
      }
      byte[] p = e.getValue().encode();
      if (!proposed.contains(e.getKey()) && wanted.test(p)) {
        proposed.add(e.getKey());
        batch.add(p);
      }
    }
    return batch;
  }

  /**
   * The requests replica {@code id} owns in {@code epoch} first (HoneyBadgerBFT §4.4's disjoint proposals, as
   * the asynchronous channel's: owner (h + epoch) mod n), then its oldest ones, at most {@code max}.
   */
  List<byte[]> switchBatch(int max, int id, int n, long epoch) {
    List<byte[]> owned = new ArrayList<>();
    List<byte[]> others = new ArrayList<>();
    for (Signed q : pending.values()) {
      byte[] p = q.encode();
      if (wanted.test(p)) {
        byte[] h = Digests.sha256(p);
        long owner = (((h[0] & 0xffL) << 24 | (h[1] & 0xff) << 16 | (h[2] & 0xff) << 8 | (h[3] & 0xff)) + epoch) % n;
        (owner == id ? owned : others).add(p);
      }
    }
    owned.addAll(others);
    return owned.subList(0, Math.min(max, owned.size()));
  }
}
