package org.bftws.sim;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Function;
import org.junit.Test;

/** scripts/simulate's loop over seeds: a run that throws fails the whole range, naming its seed. */
public class MainTest {
  private static SimResult passing(SimOptions opt) {
    return new SimResult(opt, "loss=0", List.of(), 1, 1, 0, 0, 0, 0, 0, 10, new SimResult.Traffic(0, 0, 0, 0, 0));
  }

  @Test
  public void aRunThatThrowsFailsTheRangeAndPrintsItsSeedAndReplay() throws Exception {
    Function<SimOptions, SimResult> throwsOnSeed3 = opt -> {
      if (opt.seed() == 3) {
        throw new IllegalStateException("forced failure");
      }
      return passing(opt);
    };
    String[] out = new String[1];
    int status = captured(out, () -> Main.run(1, 5, SimOptions.of(1, Byzantine.NONE), List.of(Byzantine.NONE), 2,
        false, throwsOnSeed3));
    assertEquals(out[0], 1, status);
    assertTrue(out[0], out[0].contains("FAIL seed=3 threw java.lang.IllegalStateException: forced failure"));
    assertTrue(out[0], out[0].contains("replay: scripts/simulate --seeds 3 "));
    assertTrue(out[0], out[0].contains("simulate: seeds=5 runs_ok=4 violations=0 runs_thrown=1 "));
  }

  @Test
  public void theNegativeControlFailsTooWhenARunThrows() throws Exception {
    String[] out = new String[1];
    int status = captured(out, () -> Main.run(1, 2, SimOptions.of(1, Byzantine.OVER_THRESHOLD),
        List.of(Byzantine.OVER_THRESHOLD), 1, false, opt -> {
          throw new IllegalStateException("forced failure");
        }));
    assertEquals(out[0], 1, status);
  }

  @Test
  public void passingRunsExitZero() throws Exception {
    String[] out = new String[1];
    int status = captured(out, () -> Main.run(1, 3, SimOptions.of(1, Byzantine.NONE), List.of(Byzantine.NONE), 2,
        false, MainTest::passing));
    assertEquals(out[0], 0, status);
  }

  interface Run {
    int call() throws Exception;
  }

  /** Runs {@code run} with System.out captured into out[0]; its exit status. */
  private static int captured(String[] out, Run run) throws Exception {
    PrintStream before = System.out;
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    try {
      return run.call();
    } finally {
      System.setOut(before);
      out[0] = bytes.toString(StandardCharsets.UTF_8);
    }
  }
}
