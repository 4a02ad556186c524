package org.bftws.core.dkg;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.bftws.core.crypto.threshold.GroupValue;
import org.bftws.core.crypto.threshold.ThresholdScheme;
import org.bftws.core.keys.GroupKeys;
import org.bftws.core.keys.KeyFiles;
import org.bftws.core.testkit.TestRandom;
import org.junit.Test;

/**
 * A refresh's state in the group's checkpoints ({@link RefreshCheckpoint}): what replicas that took the same agreed
 * sequence encode is byte-identical (a checkpoint's digest covers it); a replica that installs it learns the
 * group's epoch and verification keys (Herzberg-Jarecki-Krawczyk-Yung 1995, §3: a replica back from a refresh it
 * missed), asks for its share and recovers it (Desmedt-Jajodia 1997 redistribution); a replica that installs it
 * while a run goes on follows the run from its logged operations to the others' keys. Four replicas, f = 1.
 */
public class RefreshCheckpointTest {
  private static final byte[] MSG = "coin".getBytes(StandardCharsets.US_ASCII);
  private static final int N = DealtGroup.N;

  private final DealtGroup g = new DealtGroup(23);

  private RefreshCheckpoint transferred(int from) {
    byte[] encoded = g.replicas[from].checkpoint().encode();
    for (int i = 1; i <= N; i++) {
      if (!g.down[i]) {
        assertArrayEquals("replica " + i + "'s checkpoint equals replica " + from + "'s", encoded,
            g.replicas[i].checkpoint().encode());
      }
    }
    return RefreshCheckpoint.decode(encoded, N);
  }

  @Test
  public void aReplicaBehindLearnsTheEpochFromACheckpointAsksAndRecoversItsShare() throws Exception {
    g.down[4] = true;
    g.submit(1, g.replicas[1].request());
    g.submit(2, g.replicas[2].request());
    g.run();
    assertEquals(1, g.replicas[1].epoch());
    RefreshCheckpoint c = transferred(1);
    assertEquals(1, c.epoch());
    assertEquals(RefreshCheckpoint.Run.NONE, c.run());
    assertEquals(KeyFiles.groupText(g.outputs[1].group()), KeyFiles.groupText(c.current()));
    g.down[4] = false;
    g.replicas[4] = GroupRefresh.resume(g.members, g.ids.get(3), c, null, TestRandom.seeded(5));
    assertEquals(1, g.replicas[4].epoch());
    assertFalse(g.replicas[4].holdsShare());
    g.clear();
    g.submit(4, g.replicas[4].recover());
    g.run();
    for (int i = 1; i <= N; i++) {
      assertEquals(2, g.outputs[i].epoch());
      assertNotNull("replica " + i + " holds a share of epoch 2", g.outputs[i].keys());
    }
    assertCombines(g.outputs[4].group(), 4, 1);
    transferred(1); // and all four agree again
  }

  @Test
  public void aReplicaThatInstallsACheckpointDuringARefreshFollowsItToTheOthersKeys() throws Exception {
    g.down[4] = true;
    g.submit(1, g.replicas[1].request());
    g.submit(2, g.replicas[2].request());
    g.step(2); // the two votes: the refresh starts, the dealings are submitted
    assertTrue(g.replicas[1].running());
    g.step(3);
    RefreshCheckpoint c = transferred(2);
    assertEquals(RefreshCheckpoint.Run.REFRESH, c.run());
    assertEquals(3, c.log().size());
    assertEquals(List.of(1, 2), c.votes());
    g.down[4] = false;
    // it holds epoch 0's share: the refresh renews it like the others'
    g.replicas[4] = GroupRefresh.resume(g.members, g.ids.get(3), c, g.dealt[4], TestRandom.seeded(6));
    assertTrue(g.replicas[4].running());
    g.run();
    String text = KeyFiles.groupText(g.outputs[1].group());
    for (int i = 1; i <= N; i++) {
      assertEquals(1, g.outputs[i].epoch());
      assertEquals("the same verification keys at replica " + i, text, KeyFiles.groupText(g.outputs[i].group()));
    }
    assertNotNull("replica 4 renewed its share from the logged dealings", g.outputs[4].keys());
    assertCombines(g.outputs[4].group(), 4, 2);
    transferred(3);
  }

  @Test
  public void aRunTakesABoundedNumberOfOperationsOfOneReplica() {
    g.submit(1, g.replicas[1].request());
    g.submit(2, g.replicas[2].request());
    g.step(2);
    byte[] junk = Arrays.copyOf(GroupRefresh.MAGIC, GroupRefresh.MAGIC.length + 5 + 1);
    junk[GroupRefresh.MAGIC.length] = 2; // a coin message of epoch 1 whose body is no message
    junk[GroupRefresh.MAGIC.length + 4] = 1;
    for (int k = 0; k < 3 * GroupRefresh.MAX_RUN_OPERATIONS; k++) {
      for (int i = 1; i <= N; i++) {
        g.replicas[i].deliver(3, junk);
      }
    }
    long fromThree = g.replicas[1].checkpoint().log().stream().filter(l -> l.submitter() == 3).count();
    assertEquals(GroupRefresh.MAX_RUN_OPERATIONS, fromThree);
    g.run();
    assertEquals("the flood did not stop the refresh", 1, g.replicas[1].epoch());
  }

  @Test
  public void aDamagedCheckpointIsRefused() {
    byte[] encoded = g.replicas[1].checkpoint().encode();
    for (byte[] bad : List.of(Arrays.copyOf(encoded, encoded.length - 1), Arrays.copyOf(encoded, encoded.length + 1),
        "nothing".getBytes(StandardCharsets.US_ASCII))) {
      try {
        RefreshCheckpoint.decode(bad, N);
        fail("decoded " + bad.length + " bytes");
      } catch (IllegalArgumentException expected) {
        // refused
      }
    }
    assertEquals(0, RefreshCheckpoint.decode(encoded, N).epoch());
  }

  /** Replica {@code a}'s and {@code b}'s coin shares of {@code keys} combine to the dealt group's coin. */
  private void assertCombines(GroupKeys keys, int a, int b) throws Exception {
    ThresholdScheme ts = keys.thresholdScheme();
    GroupValue expected = ts.combine(g.group.threshold(), MSG, List.of(
        ts.share(g.group.threshold(), g.dealt[1].share(), MSG), ts.share(g.group.threshold(), g.dealt[2].share(), MSG)));
    GroupValue now = ts.combine(keys.threshold(), MSG, List.of(ts.share(keys.threshold(), g.outputs[a].keys().share(),
        MSG), ts.share(keys.threshold(), g.outputs[b].keys().share(), MSG)));
    assertArrayEquals(expected.unique(), now.unique());
  }
}
