package org.bftws.core.async;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import org.bftws.core.config.GroupConfig;
import org.bftws.core.message.Request;
import org.junit.Test;

/**
 * The asynchronous engine numbers clients from the client base, bftws.maxReplicas, as PBFT does: with 7, client
 * node 7 is ordered and answered, and a request signed by node 5 (an index a grown epoch may give a replica) is
 * not ordered.
 */
public class AsyncClientBaseTest {
  private static final long SEED = 3;

  @Test
  public void aClientFromTheBaseIsOrderedANodeBelowItIsNot() {
    AsyncCluster c = new AsyncCluster(4, 1, 1, SEED, Set.of(), GroupConfig.builder().maxReplicas(7));
    assertEquals(7, c.base);
    int kept = 5;
    Request q = new Request(kept, "seq-" + kept, 1, false, "kept".getBytes(StandardCharsets.US_ASCII));
    c.send(kept - c.base, q); // signed by node 5, with the key the test keys hold for it, to every replica
    c.request(0, List.of(0, 1, 2, 3));
    c.run();
    for (int i = 0; i < c.n; i++) {
      List<Request> executed = c.executed.get(i);
      assertEquals("replica " + i + " executed client 7's request only, seed " + SEED, 1, executed.size());
      assertEquals(7, executed.get(0).client());
    }
    assertTrue("f+1 matching replies to client 7", c.matchingReplies(0, 1) >= 2);
  }
}
