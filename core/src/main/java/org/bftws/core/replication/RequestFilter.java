package org.bftws.core.replication;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.bftws.core.message.Request;
import org.bftws.core.message.RequestId;
import org.bftws.core.message.Signed;

/**
 * The filtering mechanism of BFT-WS §3.4: a replica accepts a request from a replicated client only once it
 * holds p+1 identical copies of it from distinct members ({@link ReplicatedClients}), "similar to the voting
 * mechanism for reply messages at the client-side". Identical means the same sequence, message number,
 * randomized flag and operation; only the signer differs. Each member counts once per request id, with the
 * first copy it sent: a faulty member that sends an altered request first holds one vote for the altered
 * bytes and cannot block or replace the correct request, which the p+1 correct members complete.
 *
 * <p>Copies wait here, not among the pending requests, so no view-change timer runs for a request that only
 * a faulty member sent. Memory is bounded per member ({@code maxPerMember}): a faulty member fills only its
 * own share. Like the pending requests, nothing here is part of a checkpoint.
 */
final class RequestFilter {
  private final ReplicatedClients groups;
  private final int maxPerMember;
  /** Request id → member → the first copy it sent. */
  private final Map<RequestId, LinkedHashMap<Integer, Signed>> copies = new HashMap<>();
  private final Map<Integer, Integer> held = new HashMap<>();

  RequestFilter(ReplicatedClients groups, int maxPerMember) {
    this.groups = groups;
    this.maxPerMember = maxPerMember;
  }

  /**
   * An authentic request {@code s} (decoded: {@code q}): the copies to order, in arrival order — {@code s}
   * alone for a client that stands alone, p+1 identical copies from distinct members once they are here —
   * or an empty list while they are not.
   */
  List<Signed> offer(Signed s, Request q) {
    if (!groups.isMember(q.client())) {
      return List.of(s);
    }
    LinkedHashMap<Integer, Signed> byMember = copies.computeIfAbsent(q.id(), k -> new LinkedHashMap<>());
    if (!byMember.containsKey(q.client()) && held.getOrDefault(q.client(), 0) < maxPerMember) {
      byMember.put(q.client(), s);
      held.merge(q.client(), 1, Integer::sum);
    }
    if (byMember.isEmpty()) {
      copies.remove(q.id());
    }
    return agreeing(byMember.values(), q);
  }

  /** The first p+1 of {@code candidates} identical to {@code q}, or an empty list if there are fewer. */
  private List<Signed> agreeing(Iterable<Signed> candidates, Request q) {
    ByteBuffer content = content(q);
    int needed = groups.copiesNeeded(q.client());
    List<Signed> same = new ArrayList<>(needed);
    for (Signed c : candidates) {
      if (content(Request.decode(c.body())).equals(content) && same.add(c) && same.size() == needed) {
        return same;
      }
    }
    return List.of();
  }

  /** A request's bytes with its signer replaced by its principal: equal for identical copies. */
  ByteBuffer content(Request q) {
    int principal = groups.principal(q.client());
    return ByteBuffer.wrap(new Request(principal, q.sequenceId(), q.messageNumber(), q.randomized(), q.operation())
        .encode());
  }

  /**
   * Null when every request of a replicated client in {@code batch} comes with p+1 identical copies from
   * distinct members in the same batch (what a backup checks of the primary's pre-prepare); else why not.
   */
  String unfiltered(List<Request> batch) {
    Map<ByteBuffer, Set<Integer>> signers = new HashMap<>();
    for (Request q : batch) {
      if (groups.isMember(q.client())) {
        signers.computeIfAbsent(content(q), k -> new HashSet<>()).add(q.client());
      }
    }
    for (Request q : batch) {
      if (groups.isMember(q.client()) && signers.get(content(q)).size() < groups.copiesNeeded(q.client())) {
        return "batch with request " + q.id() + " of replicated client " + groups.principal(q.client())
            + " without " + groups.copiesNeeded(q.client()) + " identical copies from distinct members";
      }
    }
    return null;
  }

  /** The request was ordered (or can no longer be): its copies go. */
  void forget(RequestId id) {
    LinkedHashMap<Integer, Signed> byMember = copies.remove(id);
    if (byMember != null) {
      for (Integer member : byMember.keySet()) {
        held.merge(member, -1, Integer::sum);
      }
    }
  }

  /** Drops the copies of every request id that {@code stale} matches (after a state transfer). */
  void forgetIf(Predicate<RequestId> stale) {
    for (Iterator<RequestId> it = copies.keySet().iterator(); it.hasNext(); ) {
      RequestId id = it.next();
      if (stale.test(id)) {
        for (Integer member : copies.get(id).keySet()) {
          held.merge(member, -1, Integer::sum);
        }
        it.remove();
      }
    }
  }

  /** Copies waiting here (for tests and status). */
  int waiting() {
    return copies.values().stream().mapToInt(Map::size).sum();
  }
}
