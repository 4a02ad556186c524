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

  // The engines' installed checkpoint (PBFT's and the asynchronous one's alike): the keys its state delivered come
  // with the embedding's installation of that state, after the step that installed it.
  @Test
  public void nothingAboveAnInstalledCheckpointIsReleasedBeforeItsStateIsInstalled() {
    KeyEpochs<String> e = new KeyEpochs<>(null, true);
    assertTrue("final before the checkpoint: waits for the results below", e.defer(9, new byte[0], List.of()));
    assertNull("the checkpoint at 8 settles up to it, not the batch after it", e.checkpointInstalled(8));
    assertTrue("committed after the checkpoint, before its state is installed", e.defer(10, new byte[0], List.of()));
    assertTrue(e.awaitingState());
    assertNull("results back meanwhile release nothing", e.settle(8));
    assertNull("a confirmation of an older checkpoint releases nothing", e.stateInstalled(4));
    e.install(6, "generated");
    assertEquals(9, e.stateInstalled(8).seq());
    assertEquals("generated", e.at(9));
    assertFalse(e.awaitingState());
    assertNull("a second confirmation releases nothing", e.stateInstalled(8));
    assertEquals(10, e.settle(9).seq());
  }

  @Test
  public void withFixedKeysAnInstalledCheckpointAwaitsNothing() {
    KeyEpochs<String> e = new KeyEpochs<>("dealt", false);
    assertNull(e.checkpointInstalled(8));
    assertFalse(e.awaitingState());
    assertFalse(e.defer(9, new byte[0], List.of()));
  }
}
