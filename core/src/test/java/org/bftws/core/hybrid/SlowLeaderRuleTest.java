package org.bftws.core.hybrid;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.Random;
import org.junit.Test;

/**
 * The slow-leader rule alone (Aardvark NSDI 2009 §4.3, the lane against the fallback over a window of
 * deliveries): a lane whose deliveries are fast with now and then one stall of a few fallbacks' worth (a
 * collection, a starved thread on a loaded machine) is kept; a lane slower than the fallback at every
 * delivery, or silent, is left. The noise is seeded; a failure prints its seed.
 */
public class SlowLeaderRuleTest {
  private static final long TIMEOUT = 200;
  private static final long COST = 6;
  /** A fallback this replica joined when the others had nearly finished it. */
  private static final long MIN_DRAWN_IN = 1;

  private static SlowLeaderRule measured() {
    SlowLeaderRule rule = new SlowLeaderRule(TIMEOUT);
    for (int i = 0; i < 4; i++) {
      rule.fallbackTook(COST, true);
    }
    return rule;
  }

  /** Whether a request that waits {@code wait} ticks for the lane's next delivery makes this replica switch. */
  private static boolean switches(SlowLeaderRule rule, long wait) {
    for (long t = 1; t <= wait; t++) {
      if (t >= rule.budget()) {
        return true;
      }
    }
    return false;
  }

  @Test
  public void aFastLaneWithOccasionalStallsOfTwoFallbacksIsKept() {
    for (long seed = 1; seed <= 50; seed++) {
      SlowLeaderRule rule = measured();
      Random random = new Random(seed);
      for (int d = 0; d < 2_000; d++) {
        long wait = d % 10 == 9 ? 2 * COST : random.nextInt(3); // every tenth delivery stalls two fallbacks' worth
        assertTrue("seed " + seed + ", delivery " + d + ": a stall of " + wait + " ticks switched, budget "
            + rule.budget(), !switches(rule, wait));
        rule.laneDelivered(wait);
      }
    }
  }

  @Test
  public void aLaneSlowerThanTheFallbackAtEveryDeliveryIsLeftWithinTheWindow() {
    SlowLeaderRule rule = measured();
    for (int d = 0; d < 20; d++) {
      rule.laneDelivered(1);
    }
    long slow = COST + 2; // each delivery a little slower than a fallback, far under the timeout
    int kept = 0;
    while (!switches(rule, slow)) {
      rule.laneDelivered(slow);
      kept++;
      assertTrue("still kept after " + kept + " slow deliveries", kept < SlowLeaderRule.WINDOW);
    }
  }

  @Test
  public void aSilentLaneIsLeftAfterAWindowOfFallbacksAndNeverAfterTheTimeout() {
    SlowLeaderRule rule = measured();
    rule.laneDelivered(0);
    assertEquals(SlowLeaderRule.WINDOW * COST, rule.budget());
    SlowLeaderRule slowFallbacks = new SlowLeaderRule(TIMEOUT);
    slowFallbacks.fallbackTook(TIMEOUT, true);
    assertEquals(TIMEOUT, slowFallbacks.budget());
  }

  @Test
  public void aFallbackThisReplicaWasDrawnIntoCountsOnlyAsItsFirstMeasure() {
    SlowLeaderRule rule = new SlowLeaderRule(TIMEOUT);
    rule.fallbackTook(COST, false);
    assertEquals(COST, rule.fallbackCost());
    rule.fallbackTook(MIN_DRAWN_IN, false);
    assertEquals(COST, rule.fallbackCost());
    rule.fallbackTook(COST + 2, true);
    assertEquals(COST + 1, rule.fallbackCost());
  }

  @Test
  public void beforeAnyFallbackTheBudgetIsTheSmallest() {
    SlowLeaderRule rule = new SlowLeaderRule(TIMEOUT);
    rule.laneDelivered(1);
    assertEquals(SlowLeaderRule.MIN_BUDGET, rule.budget());
  }
}
