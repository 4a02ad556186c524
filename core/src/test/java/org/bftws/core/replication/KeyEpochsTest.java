package org.bftws.core.replication;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.util.List;
import org.junit.Test;

/** Which keys serve which seq, what waits for the results below it, and what the stable checkpoint frees. */
public class KeyEpochsTest {
  @Test
  public void keysServeTheSeqsAboveTheOneThatDeliveredThem() {
    KeyEpochs<String> e = new KeyEpochs<>(null, true);
    assertNull(e.at(1));
    e.install(5, "generated");
    e.install(9, "refreshed");
    assertNull(e.at(5));
    assertEquals("generated", e.at(6));
    assertEquals("generated", e.at(9));
    assertEquals("refreshed", e.at(10));
    assertEquals("refreshed", e.latest());
    assertThrows(IllegalArgumentException.class, () -> e.install(7, "late"));
  }

  @Test
  public void fixedKeysTakeNoOthersAndNothingWaits() {
    KeyEpochs<String> e = new KeyEpochs<>("dealt", false);
    assertEquals("dealt", e.at(1));
    assertThrows(IllegalStateException.class, () -> e.install(3, "other"));
    assertFalse(e.defer(7, new byte[0], List.of()));
  }

  @Test
  public void aBatchWaitsForTheResultsBelowItAndTheStableCheckpointFreesWhatItNoLongerNeeds() {
    KeyEpochs<String> e = new KeyEpochs<>(null, true);
    assertFalse("seq 1 waits for nothing", e.defer(1, new byte[0], List.of()));
    assertTrue(e.defer(3, new byte[0], List.of()));
    assertTrue(e.defer(4, new byte[0], List.of()));
    assertNull("seq 2's results free seq 3 only once seq 2 is settled", e.settle(1));
    assertEquals(3, e.settle(2).seq());
    assertFalse(e.isDeferred(3));
    e.install(2, "generated");
    e.install(6, "refreshed");
    e.discardUpTo(8);
    assertEquals(0, e.deferredCount());
    assertEquals("only the keys serving the stable checkpoint and later stay", 1, e.keySets());
    assertEquals("refreshed", e.at(9));
  }
}
