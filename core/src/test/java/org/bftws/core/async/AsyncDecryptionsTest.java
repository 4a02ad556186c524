package org.bftws.core.async;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.bftws.core.crypto.threshold.Dealt;
import org.bftws.core.crypto.threshold.Tdh2;
import org.bftws.core.crypto.threshold.ThresholdParams;
import org.bftws.core.message.Kind;
import org.bftws.core.message.Request;
import org.bftws.core.message.Signed;
import org.bftws.core.replication.ConfidentialConfig;
import org.bftws.core.replication.ConfidentialOperations;
import org.bftws.core.testkit.TestRandom;
import org.junit.Test;

/**
 * Secure causal atomic broadcast (SINTRA §2.6) on the asynchronous channel: client 0's requests are sealed
 * under the group's TDH2 key, client 1's are plain; a round executes once its ciphertexts opened.
 */
public class AsyncDecryptionsTest {
  private static final Tdh2 TDH2 = new Tdh2();
  private static final byte[] GROUP = "urn:bftws:async-group".getBytes(StandardCharsets.US_ASCII);

  private static AsyncCluster group(long seed, Set<Integer> byzantine, Dealt keys) {
    AsyncCluster c = new AsyncCluster(4, 1, 2, seed, byzantine, 8);
    String sealedSequence = "seq-" + c.n;
    ConfidentialOperations ops = ConfidentialOperations.wholeOperation(r -> r.sequenceId().equals(sealedSequence));
    for (int i = 0; i < c.n; i++) {
      if (c.correct(i)) {
        c.replica(i).confidentialOperations(new ConfidentialConfig(keys.group(), keys.share(i + 1), GROUP, ops));
      }
    }
    return c;
  }

  /** Client 0's request {@code number}, {@code text} sealed with its label, posted to every replica. */
  private static void sealed(AsyncCluster c, Dealt keys, long number, String text) {
    int client = c.n;
    byte[] ct = ConfidentialConfig.seal(keys.group(), GROUP, "seq-" + client, number,
        text.getBytes(StandardCharsets.UTF_8), TestRandom.seeded(number));
    Request q = new Request(client, "seq-" + client, number, false, ct);
    Signed s = Signed.sign(Kind.REQUEST, client, q.encode(), c.signer(client));
    for (int i = 0; i < c.n; i++) {
      c.post(client, i, s.encode());
    }
  }

  private static List<String> operations(AsyncCluster c, int i) {
    List<String> out = new ArrayList<>();
    for (Request r : c.executed.get(i)) {
      out.add(new String(r.operation(), StandardCharsets.UTF_8));
    }
    return out;
  }

  @Test
  public void sealedAndPlainRequestsExecuteInOneOrderAsPlaintext() {
    for (long seed = 1; seed <= 10; seed++) {
      Dealt keys = TDH2.deal(ThresholdParams.forF(1), TestRandom.seeded(seed));
      AsyncCluster c = group(seed, Set.of(), keys);
      for (int k = 1; k <= 3; k++) {
        sealed(c, keys, k, "bid " + k);
        c.request(1, List.of(0, 1, 2, 3));
        c.run();
      }
      List<String> order = operations(c, 0);
      assertEquals("seed " + seed, 6, order.size());
      assertTrue(order.containsAll(List.of("bid 1", "bid 2", "bid 3")));
      for (int i = 1; i < c.n; i++) {
        assertEquals("seed " + seed, order, operations(c, i));
      }
    }
  }

  // One replica silent (Byzantine, f = 1), one cut off for a while and back: k = 2 shares still come from the
  // correct ones, and the one that was down opens what the others opened.
  @Test
  public void openWithOneSilentAndOneLaggingReplica() {
    for (long seed = 11; seed <= 16; seed++) {
      Dealt keys = TDH2.deal(ThresholdParams.forF(1), TestRandom.seeded(seed));
      AsyncCluster c = group(seed, Set.of(3), keys);
      sealed(c, keys, 1, "bid A");
      c.run();
      assertEquals("seed " + seed, List.of("bid A"), operations(c, 0));
      c.down(2, true);
      sealed(c, keys, 2, "bid B");
      c.tickAndRun(3);
      assertFalse("two correct replicas cannot order alone, seed " + seed, operations(c, 0).contains("bid B"));
      c.down(2, false);
      c.tickAndRun(40);
      for (int i = 0; i < 3; i++) {
        assertEquals("replica " + i + ", seed " + seed, List.of("bid A", "bid B"), operations(c, i));
      }
    }
  }

  @Test
  public void relabelledCiphertextIsRefusedAndNeverExecuted() {
    Dealt keys = TDH2.deal(ThresholdParams.forF(1), TestRandom.seeded(20));
    AsyncCluster c = group(20, Set.of(), keys);
    int client = c.n;
    byte[] forOne = ConfidentialConfig.seal(keys.group(), GROUP, "seq-" + client, 1,
        "bid".getBytes(StandardCharsets.UTF_8), TestRandom.seeded(1));
    Request replay = new Request(client, "seq-" + client, 2, false, forOne);
    Signed s = Signed.sign(Kind.REQUEST, client, replay.encode(), c.signer(client));
    for (int i = 0; i < c.n; i++) {
      c.post(client, i, s.encode());
    }
    c.request(1, List.of(0, 1, 2, 3));
    c.run();
    for (int i = 0; i < c.n; i++) {
      assertEquals(1, c.executed.get(i).size());
      assertTrue(c.evidence.get(i).stream().anyMatch(e -> e.node() == client
          && e.what().contains("labelled for another request")));
    }
  }
}
