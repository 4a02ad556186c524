package org.bftws.core.dkg;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.bftws.core.crypto.threshold.DlGroup;
import org.bftws.core.crypto.threshold.GroupKey;
import org.bftws.core.crypto.threshold.SchemeId;
import org.bftws.core.dkg.DkgNet.Behaviour;
import org.junit.Test;

/**
 * Seeded sweep over the DKG and a refresh with up to f Byzantine replicas (bad shares to some receivers, with
 * and without justification, garbled justifications, commitments that do not match, equivocation, dealing
 * after the dealing phase closed, silence, false complaints, bad openings), on a seeded total order.
 * Properties, after GJKR's correctness conditions (C1)–(C3) and HJKY's share renewal:
 * <ul>
 * <li>termination: every correct replica gets an output (no timeout exists to help it);
 * <li>agreement: the same group key, verification keys and QUAL at every correct replica;
 * <li>correct shares match their verification keys and any k of them interpolate to the group key's secret;
 * <li>the keys work: a CKS coin or BLS signature combines and verifies, a TDH2 ciphertext decrypts;
 * <li>after a refresh the group key is the same, every verification key and share changed, and k−1 old
 *     shares with a new one do not interpolate to the secret.
 * </ul>
 * Seeds: {@code -Ddkg.seeds=A..B} (default 1..30). A failure names its seed and its Byzantine replicas.
 * Negative controls: f+1 colluders break what f cannot.
 */
public class DkgRandomizedTest {
  private static final Behaviour[] BYZANTINE = {Behaviour.SILENT, Behaviour.BAD_SHARES,
      Behaviour.BAD_SHARES_UNJUSTIFIED, Behaviour.BAD_COMMITMENT, Behaviour.EQUIVOCATE, Behaviour.LATE,
      Behaviour.FALSE_COMPLAINTS, Behaviour.BAD_OPENING, Behaviour.BAD_JUSTIFICATION};

  @Test
  public void sweepWithUpToFByzantineDealers() {
    String[] range = System.getProperty("dkg.seeds", "1..30").split("\\.\\.");
    List<String> failures = new ArrayList<>();
    int runs = 0;
    for (long seed = Long.parseLong(range[0]); seed <= Long.parseLong(range[1]); seed++) {
      runs++;
      String failure;
      try {
        failure = runSeed(seed);
      } catch (Exception | AssertionError e) {
        failure = "seed " + seed + ": " + e;
      }
      if (failure != null) {
        failures.add(failure);
        System.err.println("DKG sweep failure: " + failure);
      }
    }
    assertTrue(failures.size() + " of " + runs + " seeds failed: " + failures, failures.isEmpty());
  }

  /** One seed: DKG, then a refresh; the first violation found, with the seed, or null. */
  static String runSeed(long seed) throws Exception {
    Random r = new Random(seed);
    SchemeId scheme = seed % 6 == 0 ? SchemeId.BLS : seed % 6 == 3 ? SchemeId.TDH2 : SchemeId.CKS;
    int f = scheme != SchemeId.BLS && seed % 3 == 2 ? 2 : 1;
    Map<Integer, Behaviour> byz = byzantine(r, f, 3 * f + 1);
    String what = "seed " + seed + " (" + scheme.label() + ", f=" + f + ", byzantine " + DkgNet.describe(byz) + ")";
    DkgNet dkg = DkgNet.generate(scheme, f, byz, seed);
    if (!dkg.run()) {
      return what + ": the DKG did not terminate";
    }
    List<String> v = new ArrayList<>(DkgChecks.agreement(dkg));
    if (!v.isEmpty()) {
      return what + ": " + v;
    }
    GroupKey group = dkg.correct().get(0).result.group();
    v.addAll(DkgChecks.usable(group, dkg.correctShares()));
    Map<Integer, Behaviour> byz2 = new LinkedHashMap<>();
    for (int i : byz.keySet()) {
      byz2.put(i, BYZANTINE[r.nextInt(BYZANTINE.length)]);
    }
    DkgNet refresh = DkgNet.refresh(group, dkg.allShares(), byz2, seed);
    if (!refresh.run()) {
      return what + ": the refresh (byzantine " + DkgNet.describe(byz2) + ") did not terminate";
    }
    v.addAll(DkgChecks.agreement(refresh));
    if (v.isEmpty()) {
      GroupKey after = refresh.correct().get(0).result.group();
      v.addAll(DkgChecks.refreshed(group, after, dkg.correctShares(), refresh.correctShares()));
      v.addAll(DkgChecks.usable(after, refresh.correctShares()));
      if (DkgChecks.mixedCombine(group, dkg.correctShares(), refresh.correctShares())) {
        v.add("old and new shares combine");
      }
    }
    return v.isEmpty() ? null : what + " refresh " + DkgNet.describe(byz2) + ": " + v;
  }

  private static Map<Integer, Behaviour> byzantine(Random r, int f, int n) {
    Map<Integer, Behaviour> byz = new LinkedHashMap<>();
    int count = r.nextInt(f + 1);
    while (byz.size() < count) {
      byz.put(1 + r.nextInt(n), BYZANTINE[r.nextInt(BYZANTINE.length)]);
    }
    return byz;
  }

  /**
   * Negative control (GJKR assume at most t faulty): f+1 colluders that deal first and falsely accuse
   * every correct dealer push each past t complaints, so QUAL holds colluders only and the group secret is
   * Σ of their constants, known to them. The same attack by f colluders leaves a correct dealer in QUAL.
   */
  @Test
  public void fPlusOneCollidingDealersChooseTheKey() {
    DkgNet net = colluders(Set.of(1, 2));
    assertTrue(net.run());
    List<Integer> qual = net.correct().get(0).result.qualified();
    assertTrue("QUAL " + qual + " holds colluders only", Set.of(1, 2).containsAll(qual));
    BigInteger x = BigInteger.ZERO;
    for (DkgNet.Party p : net.parties) {
      if (qual.contains(p.dealer)) {
        x = x.add(p.dkg.constantTerm());
      }
    }
    GroupKey group = net.correct().get(0).result.group();
    assertTrue("the colluders' constants sum to the group secret",
        DkgChecks.secretMatches(DlGroup.forScheme(SchemeId.CKS), group, x.mod(DlGroup.p256().order())));

    DkgNet fewer = colluders(Set.of(1));
    assertTrue(fewer.run());
    List<Integer> qualFewer = fewer.correct().get(0).result.qualified();
    assertFalse("with f colluders QUAL " + qualFewer + " has a correct dealer", Set.of(1).containsAll(qualFewer));
  }

  private static DkgNet colluders(Set<Integer> colluding) {
    Map<Integer, Behaviour> byz = new LinkedHashMap<>();
    colluding.forEach(i -> byz.put(i, Behaviour.FALSE_COMPLAINTS));
    return DkgNet.generate(SchemeId.CKS, 1, byz, 77).favour(p -> colluding.contains(p.dealer));
  }

  /** Negative control: f+1 silent dealers leave fewer than n − t dealings; the DKG cannot end (nor any). */
  @Test
  public void fPlusOneSilentDealersStopTheDkg() {
    DkgNet net = DkgNet.generate(SchemeId.CKS, 1, Map.of(2, Behaviour.SILENT, 4, Behaviour.SILENT), 5);
    assertFalse(net.run());
    DkgNet one = DkgNet.generate(SchemeId.CKS, 1, Map.of(2, Behaviour.SILENT), 5);
    assertTrue(one.run());
  }

  /** One seed's run again gives the same key: the protocol and the harness are deterministic per seed. */
  @Test
  public void aSeedReplays() throws Exception {
    DkgNet a = DkgNet.generate(SchemeId.CKS, 1, Map.of(3, Behaviour.BAD_SHARES), 11);
    DkgNet b = DkgNet.generate(SchemeId.CKS, 1, Map.of(3, Behaviour.BAD_SHARES), 11);
    assertTrue(a.run() && b.run());
    assertArrayEquals(a.correct().get(0).result.group().encode(), b.correct().get(0).result.group().encode());
  }
}
