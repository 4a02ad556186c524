package org.bftws.sim;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.Test;

/** How a run is printed: a failing seed shows its first violations, one a line, unless asked for all. */
public class SimResultTest {
  private static SimResult withViolations(int count) {
    List<String> violations = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      violations.add("S1 agreement: replica " + i + " committed another batch");
    }
    return new SimResult(SimOptions.of(7, Byzantine.NONE), "loss=0", violations, 10, 9, 0, 0, 0, 0, 0, 100,
        new SimResult.Traffic(0, 0, 0, 0, 0));
  }

  @Test
  public void aFailingRunShowsItsFirstViolationsOneALineAndCountsTheRest() {
    String[] lines = withViolations(12).report(false).split("\n");
    assertTrue(lines[0], lines[0].startsWith("seed=7 ") && lines[0].endsWith(" violations=12"));
    assertEquals(1 + SimResult.VIOLATIONS_SHOWN + 1, lines.length);
    assertEquals("  violation: S1 agreement: replica 0 committed another batch", lines[1]);
    assertEquals("  ... and 7 more (--verbose for all)", lines[lines.length - 1]);
  }

  @Test
  public void verboseShowsEveryViolation() {
    String report = withViolations(12).report(true);
    assertEquals(13, report.split("\n").length);
    assertFalse(report, report.contains("more (--verbose"));
  }

  @Test
  public void aFewViolationsAreAllShownAndAPassingRunIsOneLine() {
    assertEquals(4, withViolations(3).report(false).split("\n").length);
    String ok = withViolations(0).report(false);
    assertFalse(ok, ok.contains("\n") || ok.contains("violation"));
  }

  @Test
  public void describeKeepsEveryViolationForReplayComparisons() {
    assertTrue(withViolations(12).describe().contains("replica 11 committed another batch"));
  }
}
