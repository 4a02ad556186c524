package org.bftws.core.crypto.threshold;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.util.List;
import org.bftws.core.testkit.TestRandom;
import org.junit.Test;

/** The counting wrapper counts each call once and answers exactly as the scheme it wraps. */
public class CoinCountsTest {
  @Test
  public void countsEachCallAndStaysUsable() throws Exception {
    CoinCounts counts = new CoinCounts();
    ThresholdScheme s = counts.counting(Thresholds.scheme(SchemeId.CKS));
    Dealt d = s.deal(ThresholdParams.forF(1), TestRandom.seeded(3));
    byte[] msg = {1, 2, 3};
    SignatureShare a = s.share(d.group(), d.share(1), msg);
    SignatureShare b = s.share(d.group(), d.share(2), msg);
    assertTrue(s.verifyShare(d.group(), msg, a));
    assertFalse("a share for another message", s.verifyShare(d.group(), new byte[] {9}, b));
    GroupValue v = s.combine(d.group(), msg, List.of(a, b));
    assertTrue(s.verifyCombined(d.group(), msg, v));
    assertEquals(2, counts.sharesMade());
    assertEquals(2, counts.sharesVerified());
    assertEquals(1, counts.sharesInvalid());
    assertEquals(1, counts.combined());
    assertEquals(1, counts.combinedVerified());
    assertEquals(SchemeId.CKS, s.id());
  }
}
