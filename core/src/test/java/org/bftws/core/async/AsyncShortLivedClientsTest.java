package org.bftws.core.async;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.bftws.core.config.GroupConfig;
import org.bftws.core.message.Request;
import org.bftws.core.message.SequenceOwner;
import org.bftws.core.message.Signed;
import org.junit.Test;

/**
 * The asynchronous group (SINTRA's atomic broadcast) serving many short-lived clients, each a new sequence
 * calling once and then terminating it, or, every {@link #CRASH_EVERY}th, crashing before its terminate:
 * every replica's client table, pending requests, delivered-ahead marks and buffers stay below their bounds,
 * and exactly-once survives the pruning: a replay of a pruned client's call executes nowhere.
 */
public class AsyncShortLivedClientsTest {
  private static final int RETENTION = 64;
  private static final int CLIENTS = 100;
  private static final int CRASH_EVERY = 5;
  private static final long[] SEEDS = {1, 2};

  /** A sequence bound to {@code client} born at {@code millis} (a version 7 UUID, as the module derives them). */
  private static String sequence(int client, long millis, int k) {
    return SequenceOwner.bind(client, String.format("%08x-%04x-7000-8000-%012x", millis >>> 16, millis & 0xFFFF, k));
  }

  @Test
  public void manyShortLivedClientsLeaveEveryReplicasPerClientStateBounded() {
    for (long seed : SEEDS) {
      serve(seed);
    }
  }

  private static void serve(long seed) {
    AsyncCluster c = new AsyncCluster(4, 1, 1, seed, Set.of(), GroupConfig.builder()
        .set(GroupConfig.CHECKPOINT_INTERVAL, 4).set(GroupConfig.CLIENT_TABLE_RETENTION, RETENTION));
    int client = c.n;
    // per CRASH_EVERY clients, 2 * CRASH_EVERY - 1 ordered requests (a crashed client orders only its call): the
    // sequences that ordered within the retention and the ordered requests since the last pruning (retention / 16)
    int tableBound = (RETENTION + RETENTION / 16) * CRASH_EVERY / (2 * CRASH_EVERY - 1) + 2;
    int maxTable = 0;
    int maxBuffered = 0;
    List<Signed> calls = new ArrayList<>();
    for (int k = 0; k < CLIENTS; k++) {
      String seq = sequence(client, 1_000 + k, k);
      calls.add(c.send(0, new Request(client, seq, 1, false, ("op-" + k).getBytes(StandardCharsets.UTF_8))));
      runUntilServed(c, c.replica(0).lastExecuted());
      if (k % CRASH_EVERY != CRASH_EVERY - 1) {
        c.send(0, Request.terminate(client, seq));
        runUntilServed(c, c.replica(0).lastExecuted());
      }
      for (int i = 0; i < c.n; i++) {
        AsyncReplica r = c.replica(i);
        maxTable = Math.max(maxTable, r.clientTableEntries());
        maxBuffered = Math.max(maxBuffered, r.buffered());
        assertTrue("replica " + i + "'s client table after " + (k + 1) + " clients: " + r.clientTableEntries()
            + ", seed " + seed, r.clientTableEntries() <= tableBound);
        assertEquals("nothing pending at replica " + i + ", seed " + seed, 0, r.pendingRequests());
        assertEquals("no delivered-ahead marks at replica " + i, 0, r.deliveredAhead());
      }
    }
    assertTrue("pruning happened: the table once held " + maxTable, maxTable < CLIENTS / 2);
    assertTrue("buffers stay small: " + maxBuffered, maxBuffered < CLIENTS);

    long before = executions(c);
    c.send(0, Request.decode(calls.get(0).body())); // re-signed: the same request
    for (int k : new int[] {0, CRASH_EVERY - 1}) { // a terminated client and a crashed one, both pruned
      for (int i = 0; i < c.n; i++) {
        c.post(client, i, calls.get(k).encode());
      }
    }
    c.run();
    c.tickAndRun(8 * AsyncCluster.RETRANSMIT_TICKS);
    assertEquals("the replays of pruned clients' calls execute nowhere, seed " + seed, before, executions(c));
  }

  /**
   * Runs the cluster (ticking when it falls quiet) until the request just sent is served: nothing pending at any
   * replica, every replica past round {@code before} and at the same round (one that caught up by state transfer
   * did not execute it: a terminate reaches the client table only).
   */
  private static void runUntilServed(AsyncCluster c, long before) {
    c.run();
    for (int ticks = 0; !served(c, before); ticks++) {
      assertTrue("not served after " + ticks + " ticks: " + c.replica(0).describe() + ", seed " + c.seed, ticks < 100);
      c.tickAndRun(1);
    }
  }

  private static boolean served(AsyncCluster c, long before) {
    for (int i = 0; i < c.n; i++) {
      if (c.replica(i).pendingRequests() > 0 || c.replica(i).lastExecuted() != c.replica(0).lastExecuted()) {
        return false;
      }
    }
    return c.replica(0).lastExecuted() > before;
  }

  private static long executions(AsyncCluster c) {
    return c.executed.stream().mapToLong(List::size).sum();
  }
}
