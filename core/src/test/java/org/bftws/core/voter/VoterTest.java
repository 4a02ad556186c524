package org.bftws.core.voter;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import org.junit.Test;

/** BFT-WS §3.3.1.5: deliver once f+1 replicas sent the same authentic reply. */
public class VoterTest {
  @Test
  public void needsFPlusOneMatchingRepliesFromDistinctReplicas() {
    Voter v = new Voter(1);
    assertFalse(v.add(0, new byte[] {1}, new byte[0]));
    assertFalse("a replica cannot vote twice", v.add(0, new byte[] {1}, new byte[0]));
    assertFalse("a different result does not match", v.add(1, new byte[] {2}, new byte[0]));
    assertFalse("a different random number does not match", v.add(2, new byte[] {1}, new byte[] {9}));
    assertTrue(v.add(3, new byte[] {1}, new byte[0]));
    assertArrayEquals(new byte[] {1}, v.result());
    assertFalse("decided once", v.add(2, new byte[] {2}, new byte[0]));
  }

  // Castro-Liskov §5.1.3: a read-only result needs 2f+1 matching replies.
  @Test
  public void readOnlyVoterNeeds2fPlus1AndSeesWhenTheyCannotCome() {
    Voter v = Voter.readOnly(1);
    assertFalse(v.add(0, new byte[] {1}, new byte[0]));
    assertFalse(v.add(1, new byte[] {1}, new byte[0]));
    assertFalse("f+1 is not enough", v.decided());
    assertFalse(v.add(2, new byte[] {2}, new byte[0]));
    assertFalse("replica 3 may still match", v.undecidable(4));
    assertTrue(v.add(3, new byte[] {1}, new byte[0]));
    Voter split = Voter.readOnly(1);
    split.add(0, new byte[] {1}, new byte[0]);
    split.add(1, new byte[] {2}, new byte[0]);
    assertFalse(split.undecidable(4));
    split.add(2, new byte[] {3}, new byte[0]);
    assertTrue("three different answers of four: 3 matching can no longer come", split.undecidable(4));
  }
}
