package org.bftws.core.pbft;

import static org.junit.Assert.assertEquals;

import org.bftws.core.config.GroupConfig;
import org.bftws.core.engine.Effect;
import org.bftws.core.engine.Ready;
import org.bftws.core.message.Kind;
import org.bftws.core.message.Request;
import org.bftws.core.message.Signed;
import org.bftws.core.replication.ClientRequests;
import org.bftws.core.replication.RandomizedOperations;
import org.junit.Test;

/**
 * Read-only requests (Castro-Liskov §5.1.3) hold no per-client state at a replica, and the executions handed
 * to the embedding and not yet answered are bounded by {@code bftws.maxPendingRequests}: beyond it a read-only
 * request is dropped and its client falls back to an ordered request.
 */
public class ReadOnlyBoundTest {
  private static final int MAX = 4;
  private static final int CLIENT = 10;

  private final GroupConfig cfg = GroupConfig.builder().set(GroupConfig.MAX_PENDING, MAX).build();
  private final ClientRequests requests = new ClientRequests(cfg, 0, data -> new byte[64], (node, d, s) -> true,
      RandomizedOperations.AS_FLAGGED);
  private final ReadOnlyRequests reads = new ReadOnlyRequests(cfg, requests, Role.BOTH);

  {
    reads.declare(q -> true);
  }

  private int handedOut(long number, Ready out) {
    Request q = new Request(CLIENT, "urn:uuid:reader-" + number, number, false, new byte[] {1});
    reads.onRequest(Signed.of(Kind.READ_ONLY_REQUEST, CLIENT, q.encode(), new byte[64]), q, out);
    return (int) out.effects.stream().filter(e -> e instanceof Effect.ExecuteReadOnly).count();
  }

  @Test
  public void executionsInFlightAreBoundedAndFreedByTheirAnswers() {
    Ready out = new Ready();
    for (long m = 1; m <= 10 * MAX; m++) {
      handedOut(m, out);
    }
    assertEquals("at most maxPendingRequests in flight", MAX,
        out.effects.stream().filter(e -> e instanceof Effect.ExecuteReadOnly).count());
    Effect.ExecuteReadOnly first = (Effect.ExecuteReadOnly) out.effects.get(0);
    reads.executed(0, first.request(), new byte[] {7}, new Ready());
    assertEquals("one answered: room for one more", 1, handedOut(100, new Ready()));
    assertEquals("and no more", 0, handedOut(101, new Ready()));
  }
}
