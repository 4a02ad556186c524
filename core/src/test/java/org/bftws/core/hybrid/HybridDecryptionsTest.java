package org.bftws.core.hybrid;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.bftws.core.crypto.threshold.Dealt;
import org.bftws.core.crypto.threshold.Tdh2;
import org.bftws.core.crypto.threshold.ThresholdParams;
import org.bftws.core.message.Request;
import org.bftws.core.testkit.TestRandom;
import org.junit.Test;

/**
 * Confidential requests (SINTRA §2.6, secure causal atomic broadcast) on the hybrid engine: sealed under the
 * group's TDH2 key, ordered as ciphertexts on the fast lane or in a fallback's batch, opened with the
 * replicas' decryption shares only once delivered, and executed as plaintext in one order everywhere.
 */
public class HybridDecryptionsTest {
  private static final int TIMEOUT = 20;
  private static final Tdh2 TDH2 = new Tdh2();
  private static final byte[] GROUP = "urn:bftws:hybrid-group".getBytes(StandardCharsets.US_ASCII);

  private static List<String> operations(HybridGroup g, int i) {
    List<String> out = new ArrayList<>();
    for (Request r : g.executed.get(i)) {
      out.add(new String(r.operation(), StandardCharsets.UTF_8));
    }
    return out;
  }

  private static HybridGroup group(long seed, Set<Integer> absent, Dealt keys) {
    HybridGroup g = new HybridGroup(4, 1, seed, absent, HybridGroup.seeded(seed), HybridGroup.config(TIMEOUT));
    g.confidential(keys, GROUP);
    return g;
  }

  // Reference: SINTRA §2.6 (a ciphertext is opened only after its position is fixed)
  @Test
  public void sealedAndPlainRequestsExecuteAsPlaintextInOneOrderOnTheFastLane() {
    for (long seed = 1; seed <= 5; seed++) {
      Dealt keys = TDH2.deal(ThresholdParams.forF(1), TestRandom.seeded(seed));
      HybridGroup g = group(seed, Set.of(), keys);
      List<Request> sent = new ArrayList<>();
      for (int k = 1; k <= 3; k++) {
        sent.add(g.sealed(0, keys, GROUP, "bid " + k));
        sent.add(g.request(1));
      }
      g.await(() -> sent.stream().allMatch(g::executedEverywhere), 10 * TIMEOUT);
      g.assertAgreement();
      List<String> order = operations(g, 0);
      assertTrue("seed " + seed + ": " + order, order.containsAll(List.of("bid 1", "bid 2", "bid 3")));
      for (int i = 0; i < 4; i++) {
        assertEquals("seed " + seed, order, operations(g, i));
        assertEquals("seed " + seed + ": no fallback with a timely leader", 0, g.replica(i).fallbacks());
      }
    }
  }

  // Reference: BDT §5 (the fallback's batch), SINTRA §2.6; f = 1 replica silent: k = 2 shares still come
  @Test
  public void aSealedRequestInAFallbackBatchIsOpenedWithOneReplicaSilent() {
    for (long seed = 11; seed <= 14; seed++) {
      Dealt keys = TDH2.deal(ThresholdParams.forF(1), TestRandom.seeded(seed));
      HybridGroup g = group(seed, Set.of(0), keys); // epoch 0's leader is silent: the lane stalls
      Request q = g.sealed(0, keys, GROUP, "sealed bid");
      g.await(() -> g.executedEverywhere(q), 20 * TIMEOUT);
      g.assertAgreement();
      for (int i = 1; i < 4; i++) {
        assertTrue("seed " + seed, g.replica(i).fallbacks() >= 1);
        assertTrue("seed " + seed + ": " + operations(g, i), operations(g, i).contains("sealed bid"));
      }
    }
  }

  @Test
  public void aCiphertextLabelledForAnotherRequestIsRefusedAsEvidence() {
    Dealt keys = TDH2.deal(ThresholdParams.forF(1), TestRandom.seeded(21));
    HybridGroup g = group(21, Set.of(), keys);
    Request relabelled = g.sealed(0, keys, GROUP, "bid", 2);
    Request plain = g.request(1);
    g.await(() -> g.executedEverywhere(plain), 10 * TIMEOUT);
    for (int i = 0; i < 4; i++) {
      assertTrue(g.executed.get(i).stream().noneMatch(r -> r.id().equals(relabelled.id())));
      assertTrue(g.evidence.get(i).toString(), g.evidence.get(i).stream().anyMatch(e -> e.node() == relabelled.client()
          && e.what().contains("labelled for another request")));
    }
  }
}
