package org.bftws.core.pbft;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.List;
import org.bftws.core.engine.Event;
import org.junit.Test;

/** Castro-Liskov §4.3: checkpoints, stability at 2f+1, garbage collection and watermarks. */
public class CheckpointTest {

  // Reference: §4.3 — a checkpoint every K, stable with 2f+1 matching checkpoint messages, and "discards
  // all pre-prepare, prepare and commit messages with sequence number less than or equal to n".
  @Test
  public void checkpointBecomesStableAndTheLogIsCollected() {
    Cluster c = new Cluster(1); // K = 4, L = 8
    for (int k = 0; k < 9; k++) {
      c.invoke("op-" + k);
      c.deliverAll();
    }
    for (int i = 0; i < c.n; i++) {
      List<Event.CheckpointStable> stable = c.eventsOf(i, Event.CheckpointStable.class);
      assertEquals("replica " + i, List.of(4L, 8L), stable.stream().map(Event.CheckpointStable::seq).toList());
      assertEquals(8, c.replicas[i].stableCheckpoint());
      assertTrue("log holds only what is above the stable checkpoint", c.replicas[i].logSize() <= 1);
    }
    Event.CheckpointStable first = c.eventsOf(0, Event.CheckpointStable.class).get(1);
    for (int i = 1; i < c.n; i++) {
      assertArrayEquals(first.digest(), c.eventsOf(i, Event.CheckpointStable.class).get(1).digest());
      assertArrayEquals(first.executionDigest(), c.eventsOf(i, Event.CheckpointStable.class).get(1).executionDigest());
    }
  }

  // Reference: §4.3 — the high watermark H = h + L: the primary does not order beyond it until a newer
  // checkpoint is stable.
  @Test
  public void primaryStopsAtTheHighWatermarkUntilACheckpointIsStable() {
    Cluster c = new Cluster(GroupConfigs.withOutstanding(64), 1);
    // Checkpoint messages are lost: nothing becomes stable, so at most L = 8 batches can be ordered.
    c.drop = m -> Cluster.kind(m) == org.bftws.core.message.Kind.CHECKPOINT;
    for (int k = 0; k < 12; k++) {
      c.invoke("op-" + k);
      c.deliverAll();
    }
    assertEquals(0, c.replicas[0].stableCheckpoint());
    assertEquals(8, c.replicas[0].lastExecuted());
    c.drop = m -> false;
    c.tick(200); // retransmitted checkpoint messages arrive; ordering resumes
    assertTrue(c.replicas[0].stableCheckpoint() >= 8);
    assertEquals(12, c.operations(0).size());
  }

  // Reference: §4.3 — memory stays bounded: the log never exceeds the window however long the run.
  @Test
  public void logStaysWithinTheWindowOverManyRequests() {
    Cluster c = new Cluster(1);
    int max = 0;
    for (int k = 0; k < 100; k++) {
      c.invoke("op-" + k);
      c.deliverAll();
      for (Replica r : c.replicas) {
        max = Math.max(max, r.logSize());
      }
    }
    assertTrue("log size " + max + " within L = 8", max <= 8);
    assertEquals(100, c.operations(3).size());
  }
}
