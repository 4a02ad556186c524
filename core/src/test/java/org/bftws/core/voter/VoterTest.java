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
}
