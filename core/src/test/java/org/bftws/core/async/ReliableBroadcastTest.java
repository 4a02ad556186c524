package org.bftws.core.async;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.bftws.core.crypto.Digests;
import org.bftws.core.engine.Event;
import org.junit.Test;

public class ReliableBroadcastTest {
  private static final int SEEDS = 40;
  private static final byte[] P = "payload p".getBytes(StandardCharsets.UTF_8);
  private static final byte[] Q = "payload q".getBytes(StandardCharsets.UTF_8);

  /** One broadcast of {@code sender} registered at every correct replica, with each one's deliveries. */
  private static final class Group {
    final AsyncNet net;
    final Pid pid;
    final int sender;
    final List<List<byte[]>> delivered = new ArrayList<>();
    final ReliableBroadcast[] rbc;

    Group(int n, int f, long seed, int sender, Set<Integer> byzantine) {
      net = new AsyncNet(n, f, seed, byzantine);
      pid = Pid.root("t").child("rbc").child(sender);
      this.sender = sender;
      rbc = new ReliableBroadcast[n];
      for (int i = 0; i < n; i++) {
        List<byte[]> mine = new ArrayList<>();
        delivered.add(mine);
        if (net.correct(i)) {
          int me = i;
          net.input(i, () -> rbc[me] = net.ctx(me).router()
              .register(new ReliableBroadcast(net.ctx(me), pid, sender, mine::add)));
        }
      }
    }

    /** Agreement and integrity: every correct replica delivered at most once, all the same payload. */
    byte[] agreed() {
      byte[] first = null;
      for (int i = 0; i < net.n; i++) {
        List<byte[]> d = delivered.get(i);
        assertTrue("replica " + i + " delivered " + d.size() + " times, seed " + net.seed, d.size() <= 1);
        if (!d.isEmpty()) {
          if (first != null) {
            assertArrayEquals("agreement, seed " + net.seed, first, d.get(0));
          }
          first = d.get(0);
        }
      }
      return first;
    }

    /** Totality: if one correct replica delivered, all did. */
    void allOrNone() {
      long count = delivered.stream().filter(d -> !d.isEmpty()).count();
      long correct = java.util.stream.IntStream.range(0, net.n).filter(net::correct).count();
      assertTrue("totality: " + count + " of " + correct + " delivered, seed " + net.seed,
          count == 0 || count == correct);
    }
  }

  // Reference: SINTRA §2.2 (a correct sender's payload is delivered by every correct party)
  @Test
  public void correctSenderIsDeliveredByAllCorrect() {
    for (long seed = 0; seed < SEEDS; seed++) {
      for (int[] nf : new int[][] {{4, 1}, {7, 2}}) {
        int n = nf[0];
        Group g = new Group(n, nf[1], seed, 0, Set.of(n - 1)); // one silent Byzantine replica
        g.net.input(0, () -> g.rbc[0].send(P));
        g.net.run();
        for (int i = 0; i < n - 1; i++) {
          assertEquals("replica " + i + ", seed " + seed, 1, g.delivered.get(i).size());
          assertArrayEquals("seed " + seed, P, g.delivered.get(i).get(0));
          assertEquals("evidence at " + i + ", seed " + seed, List.of(), g.net.evidence(i));
        }
      }
    }
  }

  // Reference: SINTRA §2.2 (agreement: all honest parties deliver the same message or nothing at all)
  @Test
  public void equivocatingSenderCannotSplitCorrectReplicas() {
    int deliveredRuns = 0;
    for (long seed = 0; seed < SEEDS * 2; seed++) {
      int n = seed % 2 == 0 ? 4 : 7;
      int f = (n - 1) / 3;
      Set<Integer> byz = f == 1 ? Set.of(0) : Set.of(0, 3);
      Group g = new Group(n, f, seed, 0, byz);
      Random adv = new Random(~seed);
      for (int to = 0; to < n; to++) {
        for (int b : new java.util.TreeSet<>(byz)) { // each Byzantine party votes for p or q or nothing, per recipient
          byte[] v = adv.nextBoolean() ? P : Q;
          if (b == 0 && adv.nextInt(4) > 0) {
            g.net.post(0, to, g.net.forge(0, g.pid, ReliableBroadcast.Type.SEND.code(), v));
          }
          for (int type : new int[] {ReliableBroadcast.Type.ECHO.code(), ReliableBroadcast.Type.READY.code()}) {
            if (adv.nextBoolean()) {
              g.net.post(b, to, g.net.forge(b, g.pid, type, Digests.sha256(adv.nextBoolean() ? P : Q)));
            }
          }
        }
      }
      g.net.run();
      byte[] d = g.agreed();
      g.allOrNone();
      if (d != null) {
        assertTrue("integrity: a payload the sender sent, seed " + seed,
            java.util.Arrays.equals(d, P) || java.util.Arrays.equals(d, Q));
        deliveredRuns++;
      }
    }
    assertTrue("some runs must deliver for the test to mean anything: " + deliveredRuns, deliveredRuns > 0);
  }

  // Reference: SINTRA §2.2 (totality: if one correct party delivers, all correct parties do)
  @Test
  public void replicaWithoutTheSendDeliversThroughFetch() {
    for (long seed = 0; seed < SEEDS; seed++) {
      Group g = new Group(4, 1, seed, 0, Set.of(0));
      byte[] d = Digests.sha256(P);
      g.net.post(0, 1, g.net.forge(0, g.pid, ReliableBroadcast.Type.SEND.code(), P));
      g.net.post(0, 2, g.net.forge(0, g.pid, ReliableBroadcast.Type.SEND.code(), P));
      if (seed % 2 == 1) { // replica 3 gets a different payload: it echoes q, yet must deliver p
        g.net.post(0, 3, g.net.forge(0, g.pid, ReliableBroadcast.Type.SEND.code(), Q));
      }
      for (int to = 1; to < 4; to++) {
        g.net.post(0, to, g.net.forge(0, g.pid, ReliableBroadcast.Type.ECHO.code(), d));
      }
      g.net.run();
      for (int i = 1; i < 4; i++) {
        assertEquals("replica " + i + ", seed " + seed, 1, g.delivered.get(i).size());
        assertArrayEquals("seed " + seed, P, g.delivered.get(i).get(0));
      }
    }
  }

  // Reference: SINTRA §2.2 (a reliable broadcast whose sender is silent does not terminate)
  @Test
  public void silentSenderDeliversNothing() {
    for (long seed = 0; seed < 5; seed++) {
      Group g = new Group(4, 1, seed, 0, Set.of(0));
      g.net.run();
      assertEquals("seed " + seed, 0, g.delivered.stream().filter(d -> !d.isEmpty()).count());
    }
  }

  // Reference: SINTRA §2.2 (only the designated sender sends; its identity is an input of the instance)
  @Test
  public void sendFromAnotherPartyIsEvidence() {
    Group g = new Group(4, 1, 7, 0, Set.of(1));
    g.net.post(1, 2, g.net.forge(1, g.pid, ReliableBroadcast.Type.SEND.code(), Q)); // signed by 1 for 0's instance
    g.net.post(1, 2, g.net.forge(0, 1, g.pid, ReliableBroadcast.Type.SEND.code(), Q)); // claims 0, signed by 1
    g.net.run();
    assertTrue(g.delivered.get(2).isEmpty());
    List<Event.Evidence> ev = g.net.evidence(2);
    assertEquals(ev.toString(), 2, ev.size());
    assertTrue(ev.toString(), ev.contains(new Event.Evidence(1, g.pid + ": SEND from a party that is not the sender 0")));
    assertTrue(ev.toString(), ev.contains(new Event.Evidence(0, "bad signature")));
  }

  // Reference: SINTRA §2.2 (a correct party echoes and readies once per instance)
  @Test
  public void doubleEchoAndDoubleReadyAreEvidence() {
    Group g = new Group(4, 1, 3, 0, Set.of(3));
    for (byte[] p : new byte[][] {P, Q}) {
      g.net.post(3, 1, g.net.forge(3, g.pid, ReliableBroadcast.Type.ECHO.code(), Digests.sha256(p)));
      g.net.post(3, 1, g.net.forge(3, g.pid, ReliableBroadcast.Type.READY.code(), Digests.sha256(p)));
    }
    g.net.post(3, 1, g.net.forge(3, g.pid, ReliableBroadcast.Type.ECHO.code(), new byte[5]));
    g.net.run();
    List<String> what = g.net.evidence(1).stream().map(Event.Evidence::what).toList();
    assertTrue(what.toString(), what.contains(g.pid + ": two different ECHOs"));
    assertTrue(what.toString(), what.contains(g.pid + ": two different READYs"));
    assertTrue(what.toString(), what.stream().anyMatch(w -> w.contains("malformed type 2")));
    assertTrue(g.net.evidence(1).stream().allMatch(e -> e.node() == 3));
  }
}
