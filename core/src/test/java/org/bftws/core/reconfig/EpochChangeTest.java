package org.bftws.core.reconfig;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.Test;

/**
 * Where an epoch ends (docs/design/reconfiguration.md, "Where it takes effect"): at the first checkpoint seq at
 * or above the seq that executed the reconfiguration (Castro-Liskov §4.3), once that checkpoint is stable.
 */
public class EpochChangeTest {
  private static final int K = 4;

  private static EpochChange epochs() {
    return new EpochChange(Fixture.initial(4), Fixture.admins(1), Fixture.GROUP, K);
  }

  @Test
  public void theBoundaryIsTheFirstCheckpointAtOrAboveTheSeq() {
    assertEquals(4, EpochChange.boundary(1, 4));
    assertEquals(4, EpochChange.boundary(4, 4));
    assertEquals(8, EpochChange.boundary(5, 4));
    assertEquals(16, EpochChange.boundary(16, 16));
  }

  @Test
  public void anAcceptedChangeStopsExecutionAboveTheBoundaryAndTakesEffectWhenItIsStable() {
    EpochChange ec = epochs();
    EpochChange.Verdict v = ec.execute(6, Fixture.add(ec.current(), 4).encode());
    assertTrue(v.message(), v.accepted());
    assertEquals(8, v.lastSeq());
    assertTrue(new String(v.reply(), StandardCharsets.UTF_8).startsWith("accepted: epoch 1: n=5"));
    assertTrue(ec.executes(7));
    assertTrue(ec.executes(8));
    assertFalse("a batch above the boundary waits for the new epoch", ec.executes(9));
    assertNull("the checkpoint at 4 lies below the boundary", ec.onStable(4));
    assertEquals(0, ec.current().epoch());
    Membership next = ec.onStable(8);
    assertEquals(1, next.epoch());
    assertEquals(5, ec.current().n());
    assertTrue(ec.executes(9));
    assertNull(ec.pending());
  }

  @Test
  public void aSecondChangeInTheSameEpochIsRefusedAndChangesNothing() {
    EpochChange ec = epochs();
    assertTrue(ec.execute(2, Fixture.add(ec.current(), 4).encode()).accepted());
    byte[] before = ec.encode();
    EpochChange.Verdict second = ec.execute(3, Fixture.signed(Reconfigure.remove(Fixture.GROUP, 0, 3), 0).encode());
    assertFalse(second.accepted());
    assertTrue(second.message(), second.message().contains("already ends at seq 4"));
    assertTrue(java.util.Arrays.equals(before, ec.encode()));
  }

  @Test
  public void aRefusedChangeChangesNothing() {
    EpochChange ec = epochs();
    byte[] before = ec.encode();
    byte[] garbage = java.util.Arrays.copyOf(Reconfigure.MAGIC, Reconfigure.MAGIC.length + 3);
    EpochChange.Verdict v = ec.execute(1, garbage);
    assertFalse(v.accepted());
    assertTrue(new String(v.reply(), StandardCharsets.UTF_8).startsWith("refused: malformed reconfiguration"));
    EpochChange.Verdict unsigned = ec.execute(2,
        Reconfigure.add(Fixture.GROUP, 0, Fixture.endpoint(4), Fixture.key(4)).encode());
    assertFalse(unsigned.accepted());
    assertTrue(java.util.Arrays.equals(before, ec.encode()));
    assertTrue(ec.executes(100));
  }

  // A replica that catches up by state transfer learns a pending change with the checkpoint's state.
  @Test
  public void thePendingChangeTravelsWithTheCheckpointState() {
    EpochChange ec = epochs();
    ec.execute(5, Fixture.add(ec.current(), 4).encode());
    EpochChange other = epochs();
    other.restore(ec.encode());
    assertEquals(8, other.lastSeq());
    assertEquals(ec.pending(), other.pending());
    assertFalse(other.executes(9));
    assertEquals(1, other.onStable(12).epoch());
  }
}
