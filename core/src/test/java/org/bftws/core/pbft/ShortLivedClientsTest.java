package org.bftws.core.pbft;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.nio.charset.StandardCharsets;
import org.bftws.core.config.GroupConfig;
import org.bftws.core.message.Kind;
import org.bftws.core.message.Request;
import org.bftws.core.message.SequenceOwner;
import org.bftws.core.message.Signed;
import org.bftws.core.voter.ClientCore;
import org.junit.Test;

/**
 * A group serving many short-lived clients (each creates a sequence, calls once and terminates it, or, every
 * {@link #CRASH_EVERY}th, crashes before its terminate) keeps every per-client and per-sequence structure of its
 * replicas below its bound, and exactly-once survives: a replayed request of a client served long ago, terminated
 * or crashed, executes nowhere.
 */
public class ShortLivedClientsTest {
  private static final int RETENTION = 64;
  private static final int CLIENTS = 200;
  private static final int LOG_WINDOW = 8;
  private static final int CRASH_EVERY = 5;

  private final GroupConfig cfg = GroupConfig.builder().set(GroupConfig.CHECKPOINT_INTERVAL, 4)
      .set(GroupConfig.LOG_WINDOW, LOG_WINDOW).set(GroupConfig.CLIENT_TABLE_RETENTION, RETENTION).build();

  /** A sequence bound to {@code client} born at {@code millis} (a version 7 UUID, as the module derives them). */
  private static String sequence(int client, long millis, int k) {
    return SequenceOwner.bind(client, String.format("%08x-%04x-7000-8000-%012x", millis >>> 16, millis & 0xFFFF, k));
  }

  @Test
  public void manyShortLivedClientsLeaveEveryReplicasPerClientStateBounded() {
    Cluster c = new Cluster(cfg, 1);
    int client = c.n;
    // per CRASH_EVERY clients, 2 * CRASH_EVERY - 1 ordered requests (a crashed client orders only its call): the
    // sequences that ordered within the retention and the ordered requests since the last pruning (retention / 16)
    int tableBound = (RETENTION + RETENTION / 16) * CRASH_EVERY / (2 * CRASH_EVERY - 1) + 2;
    int maxTable = 0;
    for (int k = 0; k < CLIENTS; k++) {
      ClientCore core = new ClientCore(cfg, client, sequence(client, 1_000 + k, k), c.signers.get(client), c.verifier);
      c.clients.put(client, core);
      c.invoke("op-" + k);
      c.deliverAll();
      if (k % CRASH_EVERY != CRASH_EVERY - 1) {
        c.handleClient(core, core.terminate());
        c.deliverAll();
      }
      for (int i = 0; i < c.n; i++) {
        Replica r = c.replicas[i];
        maxTable = Math.max(maxTable, r.requests.table().size());
        assertTrue("replica " + i + "'s client table after " + (k + 1) + " clients: " + r.requests.table().size(),
            r.requests.table().size() <= tableBound);
        assertEquals("nothing pending at replica " + i, 0, r.pendingRequests());
        assertTrue("replica " + i + "'s log within the window: " + r.log.size(), r.log.size() <= LOG_WINDOW);
      }
    }
    assertEquals("every call and terminate delivered", 2 * CLIENTS - CLIENTS / CRASH_EVERY, c.delivered.size());
    assertTrue("pruning happened: the table once held " + maxTable, maxTable < CLIENTS);

    long executedBefore = executions(c);
    for (int k : new int[] {0, CRASH_EVERY - 1}) { // the first client, terminated, and the first that crashed
      Request call = new Request(client, sequence(client, 1_000 + k, k), 1, false,
          ("op-" + k).getBytes(StandardCharsets.UTF_8));
      Signed replay = Signed.sign(Kind.REQUEST, client, call.encode(), c.signers.get(client));
      for (int i = 0; i < c.n; i++) {
        c.inject(client, i, replay.encode());
      }
    }
    c.deliverAll();
    c.tick(3 * cfg.get(GroupConfig.VIEW_CHANGE_TIMEOUT));
    assertEquals("the replays of the first clients' calls execute nowhere", executedBefore, executions(c));
  }

  private static long executions(Cluster c) {
    long n = 0;
    for (int i = 0; i < c.n; i++) {
      n += c.executed.get(i).stream().mapToLong(ex -> ex.requests().size()).sum();
    }
    return n;
  }
}
