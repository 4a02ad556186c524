package org.bftws.core.replication;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Predicate;
import org.bftws.core.message.RequestId;

/**
 * Replicated clients' sequences only (BFT-WS §3.4): the replies of their last executed requests, for a member
 * that lags behind the others and sends a request the others had executed long ago. Castro-Liskov §4.1's
 * cache keeps one reply per client, enough for a client that waits for it before it sends the next, not for
 * members that each run at their own pace. Local: a replica that skipped those executions by state transfer
 * has none of them, and the others answer.
 *
 * <p>Bounded: at most {@code perSequence} ({@code bftws.maxRequestsAhead}) replies per sequence, and only for
 * sequences the {@link ClientTable} still holds ({@link #retain}, called whenever the table dropped entries):
 * a sequence whose tombstone was pruned is old as a whole, so no member's request on it is answered anyway.
 */
final class MemberReplies {
  private final int perSequence;
  /** Sequence id → message number → {result, random}, oldest first. */
  private final Map<String, LinkedHashMap<Long, byte[][]>> replies = new HashMap<>();

  MemberReplies(int perSequence) {
    this.perSequence = perSequence;
  }

  /** Remembers the reply of an executed request, forgetting its sequence's oldest beyond the bound. */
  void remember(RequestId id, byte[] result, byte[] random) {
    LinkedHashMap<Long, byte[][]> bySequence = replies.computeIfAbsent(id.sequenceId(), k -> new LinkedHashMap<>());
    bySequence.put(id.messageNumber(), new byte[][] {result, random});
    if (bySequence.size() > perSequence) {
      bySequence.remove(bySequence.keySet().iterator().next());
    }
  }

  /** {result, random} of the request, or null if it is not remembered. */
  byte[][] get(RequestId id) {
    LinkedHashMap<Long, byte[][]> bySequence = replies.get(id.sequenceId());
    return bySequence == null ? null : bySequence.get(id.messageNumber());
  }

  /** Keeps only the sequences {@code held} accepts (those still in the client table). */
  void retain(Predicate<String> held) {
    replies.keySet().removeIf(held.negate());
  }

  /** Sequences with remembered replies (for tests). */
  int sequences() {
    return replies.size();
  }

  /** Replies remembered in all (for tests). */
  int size() {
    return replies.values().stream().mapToInt(Map::size).sum();
  }
}
