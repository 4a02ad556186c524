package org.bftws.core.dkg;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.nio.charset.StandardCharsets;
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
 * Share recovery over one agreed sequence ({@link GroupRefresh#recover}): a replica down during a refresh
 * (Herzberg-Jarecki-Krawczyk-Yung 1995, §3) comes back holding only its old share, which no longer combines; it
 * asks, and the replicas that hold shares redistribute them to the same members (Desmedt-Jajodia 1997,
 * {@link DkgConfig.Mode#RESHARE}), which gives it a share of the current keys checked against the commitments and
 * verification keys (what HJKY §4's share recovery gives) while every other share is renewed as well. Four
 * replicas (f = 1), CKS coin and TDH2.
 */
public class GroupRecoveryTest {
  private static final ThresholdScheme CKS = Thresholds.scheme(SchemeId.CKS);
  private static final Tdh2 TDH2 = new Tdh2();
  private static final int N = DealtGroup.N;
  private static final byte[] MSG = "coin".getBytes(StandardCharsets.US_ASCII);

  private final DealtGroup g = new DealtGroup(15);
  private final GroupRefresh[] replicas = g.replicas;
  private final GroupRefresh.Output[] outputs = g.outputs;
  private final boolean[] started = g.started;
  private final ReplicaKeys[] dealtKeys = g.dealt;
  private final GroupKeys group = g.group;
  /** The keys of epoch 1, after the refresh replica 4 missed. */
  private GroupKeys epochOne;

  private void submit(int i, GroupRefresh.Step step) {
    g.submit(i, step);
  }

  /** Replicas 1..3 refresh to epoch 1 (HJKY §3) while replica 4 is down; it returns with the epoch's keys only. */
  private void refreshWithReplicaFourDown() {
    g.down[4] = true;
    submit(1, replicas[1].request());
    submit(2, replicas[2].request());
    g.run();
    assertEquals(1, replicas[1].epoch());
    assertEquals("replica 4 missed the refresh", 0, replicas[4].epoch());
    g.down[4] = false;
    // what its restart learns from the group: the epoch and its verification keys, not a share
    epochOne = outputs[1].group();
    replicas[4] = new GroupRefresh(g.members, g.ids.get(3), epochOne, null, 1, TestRandom.seeded(90));
    g.clear();
  }

  @Test
  public void aReplicaDownDuringARefreshRecoversAShareOfTheCurrentKeysThatCombinesWithTheOthers() throws Exception {
    refreshWithReplicaFourDown();
    assertFalse(replicas[4].holdsShare());
    assertTrue(replicas[1].holdsShare());
    submit(4, replicas[4].recover());
    g.run();
    String groupText = KeyFiles.groupText(outputs[1].group());
    for (int i = 1; i <= N; i++) {
      assertTrue("replica " + i + " started the recovery where the ask was ordered", started[i]);
      assertNotNull("replica " + i + " ended the recovery", outputs[i]);
      assertEquals(2, outputs[i].epoch());
      assertNotNull("replica " + i + " holds a share of epoch 2", outputs[i].keys());
      assertEquals("the same verification keys everywhere", groupText, KeyFiles.groupText(outputs[i].group()));
      assertArrayEquals("the coin's group key stays", group.threshold().commonEncoding(),
          outputs[i].group().threshold().commonEncoding());
      assertArrayEquals("the TDH2 key stays", group.encryption().commonEncoding(),
          outputs[i].group().encryption().commonEncoding());
    }
    assertTrue(replicas[4].holdsShare());
    GroupKeys now = outputs[4].group();
    ThresholdScheme ts = now.thresholdScheme();
    GroupValue before = CKS.combine(group.threshold(), MSG, List.of(CKS.share(group.threshold(),
        dealtKeys[1].share(), MSG), CKS.share(group.threshold(), dealtKeys[2].share(), MSG)));
    SignatureShare recovered = ts.share(now.threshold(), outputs[4].keys().share(), MSG);
    assertTrue("the recovered share verifies against verification key 4", ts.verifyShare(now.threshold(), MSG,
        recovered));
    GroupValue after = ts.combine(now.threshold(), MSG, List.of(recovered,
        ts.share(now.threshold(), outputs[2].keys().share(), MSG)));
    assertArrayEquals("the recovered share and another give the group's coin", before.unique(), after.unique());
    Tdh2Ciphertext ct = TDH2.encrypt(group.encryption(), "l".getBytes(StandardCharsets.US_ASCII), MSG,
        TestRandom.seeded(3));
    assertArrayEquals("the recovered decryption share opens a confidential request", MSG,
        TDH2.combine(now.encryption(), ct, List.of(TDH2.share(now.encryption(), outputs[4].keys().decryption(), ct),
            TDH2.share(now.encryption(), outputs[3].keys().decryption(), ct))));
    // the old share it came back with does not combine with the current ones
    boolean combined;
    try {
      GroupValue v = ts.combine(now.threshold(), MSG, List.of(CKS.share(group.threshold(), dealtKeys[4].share(), MSG),
          ts.share(now.threshold(), outputs[1].keys().share(), MSG)));
      combined = Arrays.equals(v.unique(), before.unique());
    } catch (Exception e) {
      combined = false;
    }
    assertFalse("replica 4's share of epoch 0 does not combine with epoch 2's", combined);
    for (int i = 1; i <= 3; i++) {
      assertFalse("replica " + i + "'s share renewed by the redistribution", Arrays.equals(
          epochOne.threshold().verificationKeyEncoding(i), now.threshold().verificationKeyEncoding(i)));
    }
  }

  @Test
  public void eachReplicaStartsOneRecoveryByItsAsksUntilAVotedRefresh() {
    refreshWithReplicaFourDown();
    for (int k = 0; k < 3; k++) {
      submit(4, replicas[4].recover()); // asked while the first runs: the later asks count for nothing
    }
    g.run();
    assertEquals(2, replicas[1].epoch());
    g.clear();
    submit(3, replicas[3].recover()); // replica 3 may ask once
    submit(3, replicas[3].recover());
    g.run();
    assertEquals("replica 3's first ask started one recovery", 3, replicas[1].epoch());
    g.clear();
    submit(3, replicas[3].recover());
    submit(4, replicas[4].recover());
    g.run();
    for (int i = 1; i <= N; i++) {
      assertEquals("no second recovery for 3 or 4 before a refresh by votes", 3, replicas[i].epoch());
      assertFalse(started[i]);
    }
    submit(1, replicas[1].request());
    submit(2, replicas[2].request());
    g.run();
    assertEquals(4, replicas[1].epoch());
    submit(4, replicas[4].recover());
    g.run();
    for (int i = 1; i <= N; i++) {
      assertEquals("after the voted refresh replica 4 may ask again", 5, replicas[i].epoch());
      assertTrue(replicas[i].holdsShare());
    }
  }

  @Test
  public void aRecoveringReplicaDealsNothingAndAsksAreIgnoredWhileARunRuns() {
    refreshWithReplicaFourDown();
    GroupRefresh.Step ask = replicas[4].recover();
    assertEquals(1, ask.toOrder().size());
    assertTrue(GroupRefresh.isRefreshOperation(ask.toOrder().get(0)));
    for (int i = 1; i <= N; i++) {
      GroupRefresh.Step s = replicas[i].deliver(4, ask.toOrder().get(0));
      assertTrue(s.started());
      assertEquals("replica " + i + (i == 4 ? " holds no share and deals nothing" : " deals for both keys"),
          i == 4 ? 0 : 2, s.toOrder().size());
      assertNull(s.output());
      submit(i, s);
      assertTrue(replicas[i].running());
    }
    assertTrue("no ask while the recovery runs", replicas[4].recover().toOrder().isEmpty());
    g.run();
    assertEquals(2, replicas[4].epoch());
  }
}
