package org.bftws.core.async;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.Predicate;
import org.junit.Test;

public class ValidatedBinaryAgreementTest {
  private static final int SEEDS = 30;
  private static final int[][] GROUPS = {{4, 1}, {7, 2}};
  /** External validity of the tests: validation data for 1 is any text starting with "ok". */
  private static final Predicate<byte[]> VALID = v -> new String(v, StandardCharsets.UTF_8).startsWith("ok");
  private static final byte[] BAD = "forged".getBytes(StandardCharsets.UTF_8);

  private static byte[] ok(int i) {
    return ("ok from " + i).getBytes(StandardCharsets.UTF_8);
  }

  // Reference: SINTRA §2.3 (external validity: "an honest party may only decide for a value for which it
  // has corresponding validation data"; "returns this proof together with the decision value")
  @Test
  public void decidesOneOnlyWithValidValidationAndReturnsIt() {
    int ones = 0;
    int zeros = 0;
    for (long seed = 0; seed < SEEDS; seed++) {
      for (int[] nf : GROUPS) {
        int n = nf[0];
        Set<Integer> byz = AgreementGroup.lastF(n, nf[1]);
        AgreementGroup g = new AgreementGroup(n, nf[1], seed, byz, false, VALID);
        Random adv = new Random(seed + 1000);
        for (int x : byz) { // votes for 1 with validation data that validOne rejects
          g.toAll(x, g.bareVote(x, BinaryAgreement.Type.PRE_VOTE.code(), 1, 1, BAD));
          g.toAll(x, g.bareVote(x, BinaryAgreement.Type.MAIN_VOTE.code(), 1, 1, BAD));
        }
        for (int i = 0; i < n - nf[1]; i++) {
          boolean one = adv.nextInt(3) == 0;
          g.propose(i, one, one ? ok(i) : null);
        }
        g.net.run();
        ValidatedBinaryAgreement.Decision d = g.agreed();
        if (d.value()) {
          ones++;
          assertTrue("returned validation is valid, seed " + seed, VALID.test(d.validation()));
        } else {
          zeros++;
        }
        for (int x : byz) {
          List<String> ev = g.evidenceAgainst(x);
          assertTrue(ev + ", seed " + seed, ev.stream().allMatch(w -> w.contains("without valid validation")));
        }
      }
    }
    assertTrue("both decisions must occur for the test to mean anything: " + ones + "/" + zeros,
        ones > 0 && zeros > 0);
  }

  // Reference: SINTRA §2.3 (validated agreement); CKPS 2001 §3 (a vote for 1 needs validation data)
  @Test
  public void unanimousZeroIsDecidedWhenNobodyHasValidationForOne() {
    for (long seed = 0; seed < SEEDS; seed++) {
      for (int[] nf : GROUPS) {
        int n = nf[0];
        Set<Integer> byz = AgreementGroup.lastF(n, nf[1]);
        AgreementGroup g = new AgreementGroup(n, nf[1], seed, byz, seed % 2 == 0, VALID);
        for (int x : byz) {
          g.toAll(x, g.bareVote(x, BinaryAgreement.Type.PRE_VOTE.code(), 1, 1, BAD));
        }
        for (int i = 0; i < n - nf[1]; i++) {
          g.propose(i, false, null);
        }
        g.net.run();
        ValidatedBinaryAgreement.Decision d = g.agreed();
        assertEquals("seed " + seed, false, d.value());
        assertEquals(null, d.validation());
      }
    }
  }

  // Reference: SINTRA §2.3 (biased agreement: the coin of round 1 replaced by the bias); CKPS 2001 §3
  // (biased validity: if f+1 honest parties propose 1, the decision is 1)
  @Test
  public void biasedDecidesOneWhenFPlusOneCorrectPartiesProposeIt() {
    for (long seed = 0; seed < SEEDS; seed++) {
      for (int[] nf : GROUPS) {
        int n = nf[0];
        int f = nf[1];
        Set<Integer> byz = AgreementGroup.lastF(n, f);
        AgreementGroup g = new AgreementGroup(n, f, seed, byz, true, VALID);
        for (int x : byz) { // Byzantine parties pre-vote 0 (needs no justification in round 1)
          g.toAll(x, g.bareVote(x, BinaryAgreement.Type.PRE_VOTE.code(), 1, 0, new byte[0]));
        }
        for (int i = 0; i < n - f; i++) {
          boolean one = i <= f;
          g.propose(i, one, one ? ok(i) : null);
        }
        g.net.run();
        ValidatedBinaryAgreement.Decision d = g.agreed();
        assertTrue("biased validity, seed " + seed, d.value());
        assertTrue("seed " + seed, VALID.test(d.validation()));
        for (int i = 0; i < n - f; i++) {
          assertTrue("decided by round 2, seed " + seed, g.decidedRound(i) <= 2);
        }
      }
    }
  }

  // Reference: SINTRA §2.3 (validated agreement: initial values are accompanied by a validating proof)
  @Test
  public void proposingOneWithoutValidValidationIsRefused() {
    AgreementGroup g = new AgreementGroup(4, 1, 1, Set.of(3), false, VALID);
    for (byte[] v : new byte[][] {null, BAD}) {
      try {
        g.propose(0, true, v);
        fail("accepted validation " + (v == null ? null : new String(v, StandardCharsets.UTF_8)));
      } catch (IllegalArgumentException expected) {
        // the replica keeps its proposal open
      }
    }
    for (int i = 0; i < 3; i++) {
      g.propose(i, true, ok(i));
    }
    g.net.run();
    assertTrue(g.agreed().value());
  }

  // Reference: CKPS 2001 §3 (the validated protocol has no pre-processing step)
  @Test
  public void preProcessingVoteIsEvidenceInValidatedAgreement() {
    AgreementGroup g = new AgreementGroup(4, 1, 2, Set.of(3), false, VALID);
    g.toAll(3, g.preProcess(3, 1));
    g.net.run();
    assertTrue(g.evidenceAgainst(3).toString(),
        g.evidenceAgainst(3).stream().allMatch(w -> w.endsWith("PRE_PROCESS in a validated agreement")));
    assertEquals(3, g.evidenceAgainst(3).size());
  }
}
