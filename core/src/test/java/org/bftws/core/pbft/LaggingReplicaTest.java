package org.bftws.core.pbft;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.bftws.core.message.Kind;
import org.junit.Test;

/**
 * A backup loses the pre-prepare of the last request before traffic stops, and its clock runs four times as
 * fast as the others' (they are the loaded ones: a replica's ticks slow down under load). The others progress,
 * so they are not stalled; they must still resend to the peer whose commit never came before its view-change
 * timer fires, or it sits alone in a view change nobody joins. (Seen once in a loaded run of BftEchoGroupTest:
 * replica 3 never executed the last call.)
 */
public class LaggingReplicaTest {
  private static final int FASTER = 4;

  @Test
  public void aBackupThatLostThePrePrepareOfTheLastRequestCatchesUpWithoutAViewChange() {
    Cluster c = new Cluster(GroupConfigs.withOutstanding(1), 1);
    c.invoke("first");
    c.tick(5);
    AtomicBoolean dropped = new AtomicBoolean();
    c.drop = m -> m.to() == 3 && Cluster.kind(m) == Kind.PRE_PREPARE && dropped.compareAndSet(false, true);
    c.invoke("last");
    int timeout = c.cfg.get(org.bftws.core.config.GroupConfig.VIEW_CHANGE_TIMEOUT);
    for (int t = 0; t < 2 * timeout; t++) {
      c.tick(1);
      for (int extra = 1; extra < FASTER; extra++) {
        c.handle(3, c.replicas[3].tick());
        c.deliverAll();
      }
    }
    assertTrue("the pre-prepare was lost", dropped.get());
    assertEquals(List.of("first", "last"), c.operations(0));
    assertEquals("replica 3 caught up", c.operations(0), c.operations(3));
    assertEquals("and stayed in view 0", 0, c.replicas[3].view());
    assertTrue(c.replicas[3].isActive());
  }
}
