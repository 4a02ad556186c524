package org.bftws.core.async;

import static org.junit.Assert.assertTrue;

import java.util.Random;
import java.util.Set;
import org.junit.Test;

/**
 * Rounds to decide under the adversarial scheduler of {@link AsyncNet}: CKS 2005 §4 proves an expected
 * constant number of rounds (each round ends all correct pre-votes alike with probability ≥ 1/2). The
 * test prints the measured mean and maximum, the figures the documentation quotes.
 */
public class AgreementRoundsTest {
  // Reference: CKS 2005 §4 (expected constant rounds); SINTRA §2.3 ("terminates within an expected
  // constant number of rounds")
  @Test
  public void roundsToDecideStayConstantOverManySeeds() {
    measure(4, 1, 300, Set.of());
    measure(4, 1, 300, AgreementGroup.lastF(4, 1));
    measure(7, 2, 300, AgreementGroup.lastF(7, 2));
  }

  private static void measure(int n, int f, int seeds, Set<Integer> byzantine) {
    long total = 0;
    long max = 0;
    int coinRounds = 0;
    for (long seed = 0; seed < seeds; seed++) {
      AgreementGroup g = new AgreementGroup(n, f, seed, byzantine);
      Random in = new Random(seed ^ 0x5eed);
      for (int x : byzantine) { // a pre-process vote per recipient, chosen to split the majorities
        for (int to = 0; to < n; to++) {
          if (g.net.correct(to)) {
            g.net.post(x, to, g.preProcess(x, in.nextInt(2)));
          }
        }
      }
      for (int i = 0; i < n; i++) {
        if (g.net.correct(i)) {
          g.propose(i, i % 2 == 0 ? in.nextBoolean() : i % 4 == 1);
        }
      }
      g.net.run();
      g.agreed();
      long rounds = 0;
      for (int i = 0; i < n; i++) {
        if (g.net.correct(i)) {
          rounds = Math.max(rounds, g.decidedRound(i));
        }
      }
      total += rounds;
      max = Math.max(max, rounds);
      coinRounds += rounds > 1 ? 1 : 0;
    }
    double mean = (double) total / seeds;
    System.out.printf("ABBA rounds to decide, n=%d f=%d, %d Byzantine splitting pre-processing, %d seeds:"
        + " mean %.2f, max %d, runs past round 1: %d%n", n, f, byzantine.size(), seeds, mean, max, coinRounds);
    assertTrue("mean rounds " + mean, mean < 4);
    assertTrue("max rounds " + max, max < 20);
    // the Byzantine parties send pre-process votes only, never a coin share: the runs past round 1 tossed
    // coins from the correct parties' shares alone (f+1 of them, SINTRA §2.3)
    assertTrue("runs that needed the coin without the Byzantine parties' shares",
        byzantine.isEmpty() || coinRounds > 0);
  }
}
