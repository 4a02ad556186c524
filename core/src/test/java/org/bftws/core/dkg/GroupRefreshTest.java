package org.bftws.core.dkg;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.bftws.core.crypto.threshold.GroupValue;
import org.bftws.core.crypto.threshold.SchemeId;
import org.bftws.core.crypto.threshold.SignatureShare;
import org.bftws.core.crypto.threshold.Tdh2;
import org.bftws.core.crypto.threshold.Tdh2Ciphertext;
import org.bftws.core.crypto.threshold.ThresholdScheme;
import org.bftws.core.crypto.threshold.Thresholds;
import org.bftws.core.keys.GroupKeys;
import org.bftws.core.keys.KeyFiles;
import org.bftws.core.keys.ReplicaKeys;
import org.bftws.core.testkit.TestRandom;
import org.junit.Test;

/**
 * A whole group's proactive refresh (Herzberg-Jarecki-Krawczyk-Yung 1995, §3) over one agreed sequence: it
 * starts where f+1 replicas' votes are ordered and never on f votes, ends with the same group keys and new
 * shares at every replica, and old shares no longer combine with new ones. Four replicas (f = 1), CKS coin.
 */
public class GroupRefreshTest {
  private static final ThresholdScheme CKS = Thresholds.scheme(SchemeId.CKS);
  private static final Tdh2 TDH2 = new Tdh2();
  private static final int N = DealtGroup.N;

  private final DealtGroup g = new DealtGroup(5);
  /** Replica i at i - 1. */
  private final List<GroupRefresh> replicas = Arrays.asList(g.replicas).subList(1, N + 1);
  private final GroupRefresh.Output[] outputs = g.outputs;
  private final boolean[] started = g.started;
  private final List<ReplicaKeys> dealtKeys = Arrays.asList(g.dealt).subList(1, N + 1);
  private final GroupKeys group = g.group;

  private void submit(int i, GroupRefresh.Step step) {
    g.submit(i, step);
  }

  private void run() {
    g.run();
  }

  private void ask(int i) {
    submit(i, replicas.get(i - 1).request());
  }

  @Test
  public void fPlusOneVotesStartARefreshThatKeepsTheGroupKeysAndRenewsEveryShare() throws Exception {
    ask(2);
    ask(4);
    run();
    byte[] msg = "coin".getBytes(StandardCharsets.US_ASCII);
    String groupText = KeyFiles.groupText(outputs[1].group());
    for (int i = 1; i <= N; i++) {
      assertTrue("replica " + i + " started at the second vote", started[i]);
      assertNotNull("replica " + i + " renewed", outputs[i]);
      assertEquals(1, outputs[i].epoch());
      assertEquals(1, replicas.get(i - 1).epoch());
      assertEquals("the same renewed verification keys everywhere", groupText, KeyFiles.groupText(outputs[i].group()));
      assertArrayEquals("the coin's group key stays", group.threshold().commonEncoding(),
          outputs[i].group().threshold().commonEncoding());
      assertArrayEquals("the TDH2 key stays", group.encryption().commonEncoding(),
          outputs[i].group().encryption().commonEncoding());
      assertFalse("replica " + i + "'s verification key changed", java.util.Arrays.equals(
          group.threshold().verificationKeyEncoding(i), outputs[i].group().threshold().verificationKeyEncoding(i)));
      assertFalse("replica " + i + "'s share changed",
          outputs[i].keys().share().equals(dealtKeys.get(i - 1).share()));
    }
    ThresholdScheme ts = outputs[1].group().thresholdScheme();
    List<SignatureShare> renewed = new ArrayList<>();
    for (int i = 1; i <= N; i++) {
      renewed.add(ts.share(outputs[i].group().threshold(), outputs[i].keys().share(), msg));
    }
    GroupValue after = ts.combine(outputs[1].group().threshold(), msg, renewed.subList(2, 4));
    GroupValue before = CKS.combine(group.threshold(), msg, List.of(CKS.share(group.threshold(),
        dealtKeys.get(0).share(), msg), CKS.share(group.threshold(), dealtKeys.get(1).share(), msg)));
    assertArrayEquals("the same coin from old and new shares: the group key stayed", before.unique(), after.unique());
    Tdh2Ciphertext ct = TDH2.encrypt(group.encryption(), "l".getBytes(StandardCharsets.US_ASCII), msg,
        TestRandom.seeded(1));
    assertArrayEquals(msg, TDH2.combine(outputs[1].group().encryption(), ct, List.of(
        TDH2.share(outputs[1].group().encryption(), outputs[1].keys().decryption(), ct),
        TDH2.share(outputs[3].group().encryption(), outputs[3].keys().decryption(), ct))));
    // HJKY: an old share with a new one interpolates to nothing
    List<SignatureShare> mixed = List.of(CKS.share(group.threshold(), dealtKeys.get(0).share(), msg),
        renewed.get(1));
    boolean combined;
    try {
      GroupValue v = ts.combine(outputs[1].group().threshold(), msg, mixed);
      combined = java.util.Arrays.equals(v.unique(), before.unique());
    } catch (Exception e) {
      combined = false;
    }
    assertFalse("an old share does not combine with a new one", combined);
  }

  @Test
  public void fVotesNeverStartOneHoweverOftenTheyComeAndStaleVotesCountForNothing() {
    for (int k = 0; k < 5; k++) {
      ask(3); // one faulty replica asking again and again
    }
    run();
    for (int i = 1; i <= N; i++) {
      assertFalse(started[i]);
      assertFalse(replicas.get(i - 1).running());
      assertNull(outputs[i]);
    }
    ask(1);
    ask(2);
    run();
    assertEquals("one refresh: replica 3's repeated votes counted once", 1, replicas.get(0).epoch());
    java.util.Arrays.fill(started, false);
    ask(3); // a vote for epoch 2 alone starts nothing
    run();
    for (int i = 1; i <= N; i++) {
      assertEquals(1, replicas.get(i - 1).epoch());
      assertFalse(started[i]);
    }
  }

  @Test
  public void malformedAndForeignOperationsChangeNothing() {
    GroupRefresh r = replicas.get(0);
    GroupRefresh.Step s = r.deliver(2, GroupRefresh.MAGIC);
    assertTrue(s.toOrder().isEmpty());
    byte[] shortOp = java.util.Arrays.copyOf(GroupRefresh.MAGIC, GroupRefresh.MAGIC.length + 2);
    assertFalse(r.deliver(2, shortOp).faults().isEmpty());
    assertFalse(GroupRefresh.isRefreshOperation(GroupDkg.MAGIC));
    assertFalse(r.running());
    assertEquals(0, r.epoch());
  }
}
