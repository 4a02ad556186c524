package org.bftws.core.pbft;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.bftws.core.reconfig.Reconfigure;
import org.junit.Test;

/**
 * A seeded sweep of PBFT's epoch change (docs/design/reconfiguration.md) with a Byzantine replica: each seed
 * draws the delivery order and which replica of four is Byzantine (it corrupts a quarter of its messages and
 * submits an unsigned reconfiguration). The group replaces the Byzantine replica, which then replays everything
 * it sent in the old epoch to the new members, and adds a fifth replica; then orders more. Checked per seed:
 * every request answered, the correct members of the newest epoch in it with equal service state, no request
 * executed twice at a correct replica, nothing executed in the old epoch above its last seq, the bogus
 * reconfiguration refused. Seeds: {@code -Dreconfig.seeds=1..N} (default 1..20); a failure names its seed.
 */
public class EpochSweepTest {

  private static int seeds() {
    String s = System.getProperty("reconfig.seeds", "1..20");
    return Integer.parseInt(s.substring(s.indexOf("..") + 2));
  }

  @Test
  public void replaceAndAddWithAByzantineReplicaKeepEveryInvariant() {
    for (int seed = 1; seed <= seeds(); seed++) {
      try {
        run(seed);
      } catch (AssertionError e) {
        throw new AssertionError("seed " + seed + ": " + e.getMessage(), e);
      }
    }
  }

  private static void run(int seed) {
    Random rnd = new Random(seed);
    EpochGroup g = new EpochGroup(4);
    g.order = rnd;
    int b = 1 + rnd.nextInt(3);
    g.byzantine.add(b);
    for (int k = 0; k < 3; k++) {
      g.submit("a-" + k);
    }
    long bogus = g.submit(Reconfigure.add(EpochGroup.GROUP, 0, EpochGroup.endpoint(b), EpochGroup.KEYS.publicKey(20)
        .getEncoded()).encode());
    long replace = g.submit(g.replace(b).encode());
    for (int k = 0; k < 3; k++) {
      g.submit("b-" + k);
    }
    settle(g);
    String verdict = g.verdicts(replace).get(0);
    assertTrue(verdict, verdict.startsWith("accepted: epoch 1"));
    assertTrue(g.verdicts(bogus).get(0), g.verdicts(bogus).get(0).startsWith("refused"));
    long lastSeq = Long.parseLong(verdict.substring(verdict.lastIndexOf(' ') + 1));
    g.replay();
    long add = g.submit(g.add().encode());
    for (int k = 0; k < 4; k++) {
      g.submit("c-" + k);
    }
    settle(g);
    assertTrue(g.verdicts(add).get(0), g.verdicts(add).get(0).startsWith("accepted: epoch 2: n=5"));
    check(g, b, lastSeq);
  }

  private static void settle(EpochGroup g) {
    g.tickUntil(x -> x.inNewestEpoch() && x.allAnswered() && x.divergent().isEmpty(), 6000);
  }

  private static void check(EpochGroup g, int byzantine, long lastSeqOfEpoch0) {
    for (var e : g.batches.entrySet()) {
      if (e.getKey() == byzantine) {
        continue;
      }
      for (long[] batch : e.getValue()) {
        assertTrue("replica " + e.getKey() + " executed seq " + batch[1] + " in epoch 0",
            batch[0] != 0 || batch[1] <= lastSeqOfEpoch0);
      }
      Set<String> ops = new HashSet<>();
      for (String op : g.executed.get(e.getKey())) {
        assertTrue("replica " + e.getKey() + " executed " + op + " twice", ops.add(op));
      }
    }
    List<Integer> members = g.newest.members().stream().map(m -> m.id()).toList();
    assertEquals(5, members.size());
    assertTrue(!members.contains(byzantine));
  }
}
