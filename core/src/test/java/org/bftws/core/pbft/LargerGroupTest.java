package org.bftws.core.pbft;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.util.List;
import org.bftws.core.config.GroupConfig;
import org.bftws.core.testkit.TestKeys;
import org.junit.Test;

/**
 * Groups of n > 3f+1 replicas, as a membership epoch that grew by one or two replicas has (docs/design/reconfiguration.md):
 * PBFT's certificates (Castro-Liskov §4.2 prepared and committed, §4.3 stable, §4.4 view change) then take a
 * quorum of ⌈(n+f+1)/2⌉ replicas instead of 2f+1, so that two of them still share a correct replica.
 */
public class LargerGroupTest {

  static GroupConfig group(int n, int f) {
    return GroupConfig.builder().set(GroupConfig.F, f).replicas(n).set(GroupConfig.CHECKPOINT_INTERVAL, 4)
        .set(GroupConfig.LOG_WINDOW, 8).build();
  }

  // Reference: the quorum intersection argument behind §4.2 — any two quorums share f+1 replicas.
  @Test
  public void quorumsIntersectInACorrectReplicaForEveryGroupSize() {
    for (int f = 1; f <= 4; f++) {
      for (int n = 3 * f + 1; n <= 3 * f + 3; n++) {
        int q = group(n, f).quorum();
        assertTrue("n=" + n + " f=" + f + " q=" + q, 2 * q - n >= f + 1);
        assertTrue("n=" + n + " f=" + f + ": the correct replicas alone form a quorum", q <= n - f);
      }
      assertEquals(2 * f + 1, group(3 * f + 1, f).quorum());
    }
    assertEquals(4, group(5, 1).quorum());
    assertEquals(4, group(6, 1).quorum());
  }

  @Test
  public void fewerReplicasThanThreeFPlusOneAreRefused() {
    assertThrows(org.bftws.core.config.ConfigException.class,
        () -> GroupConfig.builder().set(GroupConfig.F, 2).replicas(6).build());
  }

  // Reference: §4.2 — five replicas (f = 1) order, execute alike and answer the client.
  @Test
  public void fiveReplicasOrderAndExecuteEverywhere() {
    Cluster c = new Cluster(group(5, 1), 1);
    for (int k = 0; k < 10; k++) {
      c.invoke("op-" + k);
      c.deliverAll();
    }
    for (int i = 0; i < c.n; i++) {
      assertEquals("replica " + i, 10, c.operations(i).size());
      assertEquals(c.operations(0), c.operations(i));
    }
    assertEquals(10, c.delivered.size());
    assertTrue("checkpoints became stable", c.replicas[0].stableCheckpoint() >= 8);
  }

  // Reference: §4.2 — with one of five replicas down, the other four are a quorum and go on.
  @Test
  public void fiveReplicasGoOnWithOneDown() {
    Cluster c = new Cluster(group(5, 1), 1);
    c.isolate(4);
    c.invoke("one-down");
    c.deliverAll();
    for (int i = 0; i < 4; i++) {
      assertEquals(List.of("one-down"), c.operations(i));
    }
  }

  // Reference: §4.2 — negative control for the quorum: with two of five replicas silent, the three left are
  // 2f+1 but not a quorum of five, so nothing commits; it commits once a fourth comes back.
  @Test
  public void threeOfFiveAreNotAQuorum() {
    Cluster c = new Cluster(group(5, 1), 1);
    c.isolate(3);
    c.isolate(4);
    c.invoke("needs-four");
    c.deliverAll();
    c.tick(20);
    for (int i = 0; i < 3; i++) {
      assertTrue("replica " + i + " executed without a quorum", c.operations(i).isEmpty());
    }
    c.heal(3);
    c.tickUntil(g -> g.operations(3).size() == 1 && g.operations(0).size() == 1, 400);
    assertEquals(List.of("needs-four"), c.operations(0));
  }

  // Reference: §4.4 — the primary of five crashes; the other four change to view 1 (primary 1 = 1 mod 5).
  @Test
  public void fiveReplicasReplaceACrashedPrimary() {
    Cluster c = new Cluster(group(5, 1), 1);
    c.invoke("before");
    c.deliverAll();
    c.isolate(0);
    c.invoke("after-crash");
    c.tickUntil(g -> g.operations(1).size() == 2 && g.operations(4).size() == 2, 1000);
    for (int i = 1; i < c.n; i++) {
      assertEquals("replica " + i, 1, c.replicas[i].view());
      assertEquals(List.of("before", "after-crash"), c.operations(i));
    }
  }

  // Reference: §4.4 — six replicas with f = 1 (quorum 4) and seven with f = 2 (quorum 5 = 2f+1).
  @Test
  public void sixAndSevenReplicasOrderWithTheirQuorums() {
    for (int[] nf : new int[][] {{6, 1}, {7, 2}}) {
      Cluster c = new Cluster(group(nf[0], nf[1]), 1);
      for (int down = 0; down < nf[1]; down++) {
        c.isolate(nf[0] - 1 - down);
      }
      c.invoke("op");
      c.deliverAll();
      for (int i = 0; i < nf[0] - nf[1]; i++) {
        assertEquals("n=" + nf[0] + " replica " + i, List.of("op"), c.operations(i));
      }
    }
  }

  // The BA algorithm's certificates hold exactly 2f+1 contributions (integrity paper §4): refused for n > 3f+1.
  @Test
  public void baRandomnessIsRefusedForALargerGroup() {
    GroupConfig cfg = group(5, 1);
    TestKeys keys = TestKeys.seeded(6, 1);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Replica.builder(cfg, 0, keys.signers().get(0), keys.verifier()).randomness(RandomnessConfig.ba(out -> { }))
            .build());
    assertTrue(e.getMessage(), e.getMessage().contains("n = 3f+1"));
  }
}
