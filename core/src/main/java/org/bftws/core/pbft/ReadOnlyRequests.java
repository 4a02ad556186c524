package org.bftws.core.pbft;

import org.bftws.core.config.GroupConfig;
import org.bftws.core.engine.Effect;
import org.bftws.core.engine.Event;
import org.bftws.core.engine.Ready;
import org.bftws.core.message.Request;
import org.bftws.core.message.Signed;
import org.bftws.core.replication.ClientRequests;

/**
 * PBFT's read-only optimisation at a replica (Castro-Liskov, OSDI'99 and TOCS 2002 §5.1.3): a client
 * multicasts a read-only request, and each replica executes it at once against its current state, without
 * ordering, after checking that it is authentic, that the client may use the sequence, and that the
 * operation is in fact read-only ({@link ReadOnlyOperations}); the reply is signed as a {@code
 * READ_ONLY_REPLY}. PBFT executes it against the tentative state and holds the reply until all tentatively
 * executed requests committed; this engine executes only committed batches, so its current state (after the
 * executions handed out so far) is committed already.
 *
 * <p>Nothing of it touches ordering: no pending entry, no view-change timer, no message number of the
 * client's sequence (the request carries the client's read counter), no client-table entry, no checkpoint
 * state. The client accepts 2f+1 matching replies, or sends the operation again as an ordered request.
 */
final class ReadOnlyRequests {
  private final ClientRequests requests;
  private final Role role;
  private final int maxInFlight;
  private ReadOnlyOperations operations = ReadOnlyOperations.NONE;
  /** Read-only executions handed out and not answered yet: bounded like pending requests. */
  private int inFlight;

  ReadOnlyRequests(GroupConfig cfg, ClientRequests requests, Role role) {
    this.requests = requests;
    this.role = role;
    this.maxInFlight = cfg.get(GroupConfig.MAX_PENDING);
  }

  void declare(ReadOnlyOperations ops) {
    this.operations = ops;
  }

  /** An authentic read-only request: executed at once, or refused with evidence against the client. */
  void onRequest(Signed s, Request q, Ready out) {
    String refusal = refusal(s, q);
    if (refusal != null) {
      out.events.add(new Event.Evidence(s.sender(), refusal));
      return;
    }
    if (role == Role.AGREEMENT || inFlight >= maxInFlight) {
      return; // nothing here executes (configuration III), or too much is queued: the client falls back
    }
    inFlight++;
    out.effects.add(new Effect.ExecuteReadOnly(q));
  }

  private String refusal(Signed s, Request q) {
    if (!operations.isReadOnly(q)) {
      return "read-only request for an operation that is not read-only: " + q.id();
    }
    if (q.randomized() || q.terminates() || requests.randomizedOperation(q)) {
      return "read-only request that needs ordering (randomized or a terminate): " + q.id();
    }
    if (requests.terminated(q.sequenceId())) {
      return "read-only request on a terminated sequence: " + q.id();
    }
    return requests.refusal(s, q);
  }

  /** The embedding executed {@code q}: reply to its client, signed as a read-only reply. */
  void executed(long view, Request q, byte[] result, Ready out) {
    inFlight = Math.max(0, inFlight - 1);
    requests.sendReadOnlyReply(view, q, result, out);
  }
}
