package org.bftws.core.async;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;
import org.bftws.core.crypto.threshold.GroupValue;
import org.bftws.core.crypto.threshold.InsufficientSharesException;
import org.bftws.core.crypto.threshold.SignatureShare;
import org.junit.Test;

public class BinaryAgreementTest {
  private static final int SEEDS = 30;
  private static final int[][] GROUPS = {{4, 1}, {7, 2}};

  // Reference: SINTRA §2.3 (agreement and termination); CKS 2005 §4 (ABBA), f Byzantine parties silent
  @Test
  public void mixedInputsAgreeAndTerminateWithSilentByzantineParties() {
    for (long seed = 0; seed < SEEDS; seed++) {
      for (int[] nf : GROUPS) {
        AgreementGroup g = new AgreementGroup(nf[0], nf[1], seed, AgreementGroup.lastF(nf[0], nf[1]));
        Random in = new Random(~seed);
        for (int i = 0; i < nf[0] - nf[1]; i++) {
          g.propose(i, in.nextBoolean());
        }
        g.net.run();
        g.agreed();
      }
    }
  }

  // Reference: SINTRA §2.3 (validity: the decision was proposed by an honest party); CKS 2005 §4
  @Test
  public void unanimousCorrectInputIsDecidedDespiteByzantineVotesForTheOther() {
    for (long seed = 0; seed < SEEDS; seed++) {
      for (int[] nf : GROUPS) {
        int n = nf[0];
        Set<Integer> byz = AgreementGroup.lastF(n, nf[1]);
        boolean b = seed % 2 == 0;
        AgreementGroup g = new AgreementGroup(n, nf[1], seed, byz);
        for (int x : byz) {
          g.toAll(x, g.preProcess(x, b ? 0 : 1));
        }
        for (int i = 0; i < n - nf[1]; i++) {
          g.propose(i, b);
        }
        g.net.run();
        assertEquals("validity, seed " + seed, b, g.agreed().value());
      }
    }
  }

  // Reference: CKS 2005 §4 (only justified votes are accepted); SINTRA §2.3 ("properly justified votes")
  @Test
  public void conflictingAndUnjustifiedVotesAreEvidenceAndAgreementHolds() {
    boolean[] seen = new boolean[KINDS.length];
    for (long seed = 0; seed < SEEDS; seed++) {
      for (int[] nf : GROUPS) {
        int n = nf[0];
        Set<Integer> byz = AgreementGroup.lastF(n, nf[1]);
        AgreementGroup g = new AgreementGroup(n, nf[1], seed, byz);
        Random adv = new Random(seed * 31 + 7);
        for (int x : byz) {
          for (int to = 0; to < n; to++) { // both pre-process votes, in an order per recipient
            if (g.net.correct(to)) {
              int first = adv.nextInt(2);
              g.net.post(x, to, g.preProcess(x, first));
              g.net.post(x, to, g.preProcess(x, 1 - first));
            }
          }
          g.toAll(x, g.bareVote(x, BinaryAgreement.Type.PRE_VOTE.code(), 1, adv.nextInt(2), new byte[0]));
          g.toAll(x, g.bareVote(x, BinaryAgreement.Type.MAIN_VOTE.code(), 1, adv.nextInt(2), new byte[0]));
          g.toAll(x, g.bareVote(x, BinaryAgreement.Type.PRE_VOTE.code(), 2, adv.nextInt(2), new byte[0]));
          g.toAll(x, g.bareAbstention(x, 1));
        }
        for (int i = 0; i < n - nf[1]; i++) {
          g.propose(i, adv.nextBoolean());
        }
        g.net.run();
        g.agreed();
        for (int x : byz) { // a message that reaches a replica after it decided is ignored, not judged
          List<String> ev = g.evidenceAgainst(x);
          assertTrue(ev + ", seed " + seed, !ev.isEmpty());
          for (int k = 0; k < KINDS.length; k++) {
            String kind = KINDS[k];
            seen[k] |= ev.stream().anyMatch(w -> w.contains(kind));
          }
        }
      }
    }
    for (int k = 0; k < KINDS.length; k++) {
      assertTrue("never recorded: " + KINDS[k], seen[k]);
    }
  }

  private static final String[] KINDS = {"two different pre-process votes",
      "round 1: pre-vote without f+1 pre-process votes for it", "round 1: main-vote for",
      "round 2: hard pre-vote without n-f pre-votes for it in round 1",
      "round 1: abstention justified by an unjustified pre-vote"};

  // Reference: SINTRA §2.1 (threshold coin: shares are verifiable); CKS 2005 §4 (robust coin)
  @Test
  public void badCoinSharesAreEvidenceAndDoNotStopTheCoin() {
    int accused = 0;
    for (long seed = 0; seed < SEEDS; seed++) {
      for (int[] nf : GROUPS) {
        int n = nf[0];
        Set<Integer> byz = AgreementGroup.lastF(n, nf[1]);
        AgreementGroup g = new AgreementGroup(n, nf[1], seed, byz);
        Random adv = new Random(seed);
        for (int x : byz) {
          for (int to = 0; to < n; to++) { // one pre-process vote per recipient, splitting majorities
            if (g.net.correct(to)) {
              g.net.post(x, to, g.preProcess(x, adv.nextInt(2)));
            }
          }
          g.toAll(x, g.net.forge(x, g.pid, BinaryAgreement.Type.COIN.code(), new ByteWriter().i64(1)
              .bytes(g.net.coinShare(0, BinaryAgreement.coinName(g.pid, 1)).encode()).toBytes())); // 0's share
          for (long r = 1; r <= 6; r++) {
            g.toAll(x, g.coin(x, r, BinaryAgreement.coinName(g.pid, r + 100))); // a share of another coin
          }
        }
        for (int i = 0; i < n - nf[1]; i++) {
          g.propose(i, i % 2 == 0);
        }
        g.net.run();
        g.agreed();
        for (int x : byz) {
          List<String> ev = g.evidenceAgainst(x);
          assertTrue(ev + ", seed " + seed, ev.stream().allMatch(w -> w.contains("bad coin share in round")
              || w.endsWith("coin share with index 1")));
          accused += ev.stream().filter(w -> w.contains("bad coin share in round")).count();
        }
      }
    }
    assertTrue("some bad share must be combined first for the test to mean anything", accused > 0);
  }

  // Reference: CKS 2005 §4 (a party sends one pre-vote per round; two justified ones are a double vote)
  @Test
  public void justifiedDoublePreVotesAreEvidenceAndAgreementHolds() {
    int detected = 0;
    for (long seed = 0; seed < SEEDS; seed++) {
      for (int[] nf : GROUPS) {
        int n = nf[0];
        int f = nf[1];
        Set<Integer> byz = AgreementGroup.lastF(n, f);
        int liar = n - f; // the first Byzantine party
        AgreementGroup g = new AgreementGroup(n, f, seed, byz);
        List<Integer> zeros = new ArrayList<>();
        List<Integer> ones = new ArrayList<>(List.of(liar));
        for (int i = 0; i < n - f; i++) { // parties 0..f propose 0, the others 1
          (i <= f ? zeros : ones).add(i);
        }
        Random adv = new Random(seed + 77);
        for (int to = 0; to < n - f; to++) {
          g.net.post(liar, to, g.preProcess(liar, adv.nextInt(2)));
          int first = adv.nextInt(2);
          for (int b : new int[] {first, 1 - first}) {
            g.net.post(liar, to, g.justifiedPreVote(liar, b, b == 0 ? zeros : ones));
          }
        }
        for (int i = 0; i < n - f; i++) {
          g.propose(i, i > f);
        }
        g.net.run();
        g.agreed();
        List<String> ev = g.evidenceAgainst(liar);
        assertTrue(ev + ", seed " + seed, ev.stream().allMatch(w -> w.endsWith("two different pre-votes in round 1")));
        detected += ev.size();
      }
    }
    assertTrue("double pre-votes must be seen for the test to mean anything", detected > 0);
  }

  // Reference: CKS 2005 §4 (coin shares of round r are released after n−f main-votes of round r, so the
  // coin is unknown while the round's main-votes are cast); SINTRA §2.3 step 3
  @Test
  public void coinShareIsReleasedOnlyAfterNMinusFMainVotes() {
    int coins = 0;
    for (long seed = 0; seed < SEEDS; seed++) {
      for (int[] nf : GROUPS) {
        int n = nf[0];
        AgreementGroup g = new AgreementGroup(n, nf[1], seed, Set.of());
        for (int i = 0; i < n; i++) {
          g.propose(i, i % 2 == 0);
        }
        g.net.run();
        g.agreed();
        for (int i = 0; i < n; i++) {
          Map<Long, Set<Integer>> mainVoters = new HashMap<>();
          for (AsyncNet.Seen s : g.net.transcript(i)) {
            long r = new ByteReader(s.message().payload()).i64();
            if (!s.sent() && s.message().type() == BinaryAgreement.Type.MAIN_VOTE.code()) {
              mainVoters.computeIfAbsent(r, k -> new HashSet<>()).add(s.peer());
            } else if (s.sent() && s.message().type() == BinaryAgreement.Type.COIN.code()) {
              coins++;
              int others = mainVoters.getOrDefault(r, Set.of()).size();
              assertTrue("replica " + i + " released the coin of round " + r + " after " + others
                  + " main-votes of others, seed " + seed, others >= n - nf[1] - 1);
            }
          }
        }
      }
    }
    assertTrue("some coin must be released for the test to mean anything", coins > 0);
  }

  // Reference: CKS 2005 §4 (termination: a party that decides sends its proof, and the others decide)
  @Test
  public void partyThatNeverProposesStillDecides() {
    for (long seed = 0; seed < SEEDS; seed++) {
      for (int[] nf : GROUPS) {
        int n = nf[0];
        AgreementGroup g = new AgreementGroup(n, nf[1], seed, Set.of());
        for (int i = 0; i < n - nf[1]; i++) { // the last f parties never propose: n−f drive the protocol
          g.propose(i, i % 2 == 1);
        }
        g.net.run();
        g.agreed();
      }
    }
  }

  // Reference: SINTRA §2.1 ((n, k, t) threshold coin: fewer than k = f+1 shares reveal nothing)
  @Test
  public void coinNeedsFPlusOneShares() throws Exception {
    for (int[] nf : GROUPS) {
      int n = nf[0];
      int f = nf[1];
      AsyncNet net = new AsyncNet(n, f, 5, Set.of(), true);
      byte[] name = BinaryAgreement.coinName(Pid.root("t").child("aba"), 3);
      List<SignatureShare> shares = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        shares.add(net.coinShare(i, name));
      }
      try {
        AsyncNet.CKS.combine(net.coins.group(), name, shares.subList(0, f));
        fail("f shares combined");
      } catch (InsufficientSharesException expected) {
        // the coin stays unpredictable until a correct party releases its share
      }
      GroupValue a = AsyncNet.CKS.combine(net.coins.group(), name, shares.subList(0, f + 1));
      GroupValue b = AsyncNet.CKS.combine(net.coins.group(), name, shares.subList(n - f - 1, n));
      assertTrue(Arrays.equals(AsyncNet.CKS.coinValue(a), AsyncNet.CKS.coinValue(b)));
    }
  }

  // Reference: CKS 2005 §4 (a DECIDE proof is n−f signed main-votes; a party that receives one decides)
  @Test
  public void forgedDecideIsEvidence() {
    AgreementGroup g = new AgreementGroup(4, 1, 9, Set.of(3));
    g.toAll(3, g.bareVote(3, BinaryAgreement.Type.MAIN_VOTE.code(), 1, 1, new byte[0]));
    byte[] decide = g.net.forge(3, g.pid, BinaryAgreement.Type.DECIDE.code(),
        new ByteWriter().i64(1).u8(1).bytes(new byte[0]).i32(0).toBytes());
    g.toAll(3, decide);
    for (int i = 0; i < 3; i++) {
      g.propose(i, false);
    }
    g.net.run();
    assertEquals(false, g.agreed().value());
    assertTrue(g.evidenceAgainst(3).toString(),
        g.evidenceAgainst(3).stream().anyMatch(w -> w.endsWith("DECIDE without n-f main-votes of round 1")));
  }
}
