package org.bftws.core.async;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Predicate;
import org.bftws.core.codec.ByteWriter;
import org.bftws.core.crypto.Digests;
import org.bftws.core.crypto.Signer;
import org.bftws.core.crypto.Verifier;
import org.bftws.core.crypto.threshold.Dealt;
import org.bftws.core.crypto.threshold.ShoupRsa;
import org.bftws.core.crypto.threshold.ThresholdParams;
import org.bftws.core.engine.Event;
import org.bftws.core.testkit.TestKeys;
import org.bftws.core.testkit.TestRandom;
import org.junit.Test;

/**
 * Multi-valued agreement with external validity (SINTRA §2.4, CKPS 2001) over the adversarial network with
 * coins, f Byzantine parties silent, proposing invalid values, or equivocating, at n = 4 and 7.
 */
public class MultiValuedAgreementTest {
  private static final int SEEDS = 20;
  private static final int[][] GROUPS = {{4, 1}, {7, 2}};
  /** External validity of the tests: a value is valid iff it starts with "valid:". */
  private static final Predicate<byte[]> VALID = v -> text(v).startsWith("valid:");

  private static String text(byte[] v) {
    return new String(v, StandardCharsets.UTF_8);
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static Set<Integer> lastF(int n, int f) {
    return f == 1 ? Set.of(n - 1) : Set.of(n - 2, n - 1);
  }

  /** One agreement at every correct replica, each one's decisions, and the adversary's signing keys. */
  private static final class Group {
    final AsyncNet net;
    final Pid pid;
    final Set<Integer> byz;
    final MultiValuedAgreement[] mvba;
    final QuorumSignatures[] sigs;
    final List<List<byte[]>> decided = new ArrayList<>();

    Group(int n, int f, long seed, Set<Integer> byz) {
      this(n, f, seed, byz, MultiSignature::new);
    }

    /** With {@code scheme} as every party's proposal certificate. */
    Group(int n, int f, long seed, Set<Integer> byz, Function<Context, QuorumSignatures> scheme) {
      net = new AsyncNet(n, f, seed, byz, true);
      pid = Pid.root("t").child("mvba").child(seed);
      this.byz = new TreeSet<>(byz); // ascending: one seed gives one run in every JVM
      mvba = new MultiValuedAgreement[n];
      sigs = new QuorumSignatures[n];
      Map<Integer, Signer> signers = new HashMap<>();
      TestKeys keys = TestKeys.seeded(n, seed); // the same keys as the net's
      signers.putAll(keys.signers());
      Verifier verifier = keys.verifier();
      for (int i = 0; i < n; i++) {
        List<byte[]> mine = new ArrayList<>();
        decided.add(mine);
        int me = i;
        if (net.correct(i)) {
          sigs[i] = scheme.apply(net.ctx(i));
          net.input(i, () -> mvba[me] = net.ctx(me).router()
              .register(new MultiValuedAgreement(net.ctx(me), pid, sigs[me], VALID, mine::add)));
        } else {
          sigs[i] = scheme.apply(new Context(n, f, i, signers.get(i), verifier));
        }
      }
    }

    void proposeAllCorrect() {
      for (int i = 0; i < net.n; i++) {
        if (net.correct(i)) {
          int me = i;
          net.input(i, () -> mvba[me].propose(bytes("valid:" + me)));
        }
      }
    }

    /** Agreement, validity and termination: every correct replica decided once, the same valid value. */
    byte[] agreed() {
      byte[] first = null;
      for (int i = 0; i < net.n; i++) {
        if (!net.correct(i)) {
          continue;
        }
        List<byte[]> d = decided.get(i);
        assertEquals("replica " + i + " decisions, seed " + net.seed, 1, d.size());
        assertTrue("external validity, seed " + net.seed, VALID.test(d.get(0)));
        if (first != null) {
          assertArrayEquals("agreement, seed " + net.seed, first, d.get(0));
        }
        first = d.get(0);
        assertTrue("within n rounds, seed " + net.seed, mvba[i].round() < net.n);
      }
      return first;
    }

    Pid proposalPid(int party) {
      return pid.child("cb").child(party);
    }

    /** Byzantine {@code b} sends SEND of its proposal {@code value} to {@code to}. */
    void send(int b, int to, byte[] value) {
      net.post(b, to, net.forge(b, proposalPid(b), ConsistentBroadcast.Type.SEND.code(), value));
    }

    /**
     * The certificate Byzantine {@code b} builds for its proposal {@code value} from the shares of {@code
     * signers} (Byzantine parties, and correct ones it sent that value to), or null below the quorum.
     */
    byte[] certificate(int b, byte[] value, Set<Integer> signers) {
      byte[] m = proposalPid(b).bind(ConsistentBroadcast.PURPOSE, Digests.sha256(value));
      Map<Integer, byte[]> shares = new HashMap<>();
      for (int i : signers) {
        shares.put(i, sigs[i].share(m));
      }
      return shares.size() < sigs[b].quorum() ? null : sigs[b].combine(m, shares);
    }

    void fin(int b, int to, byte[] value, byte[] certificate) {
      byte[] body = new ByteWriter().bytes(Digests.sha256(value)).bytes(certificate).toBytes();
      net.post(b, to, net.forge(b, proposalPid(b), ConsistentBroadcast.Type.FINAL.code(), body));
    }

    /** A vote of Byzantine {@code b}: a yes-vote carries the digest of {@code value} and the certificate. */
    void vote(int b, int to, int round, byte[] value, byte[] certificate) {
      ByteWriter w = new ByteWriter().i32(round).bool(value != null);
      if (value != null) {
        w.bytes(Digests.sha256(value)).bytes(certificate);
      }
      net.post(b, to, net.forge(b, pid, MultiValuedAgreement.Type.VOTE.code(), w.toBytes()));
    }

    Set<Integer> all() {
      Set<Integer> s = new HashSet<>();
      for (int i = 0; i < net.n; i++) {
        s.add(i);
      }
      return s;
    }

    List<String> evidenceAgainst(int b) {
      List<String> out = new ArrayList<>();
      for (int i = 0; i < net.n; i++) {
        if (net.correct(i)) {
          net.evidence(i).stream().filter(e -> e.node() == b).map(Event.Evidence::what).forEach(out::add);
        }
      }
      return out;
    }
  }

  // Reference: SINTRA §2.4 (agreement, external validity, termination; f parties crashed)
  @Test
  public void correctPartiesDecideOneValidProposalWithFSilentParties() {
    for (long seed = 0; seed < SEEDS; seed++) {
      for (int[] nf : GROUPS) {
        Group g = new Group(nf[0], nf[1], seed, lastF(nf[0], nf[1]));
        g.proposeAllCorrect();
        g.net.run();
        byte[] d = g.agreed();
        assertTrue("a correct party's proposal, seed " + seed, text(d).matches("valid:\\d+"));
        for (int i = 0; i < nf[0]; i++) {
          if (g.net.correct(i)) {
            assertEquals("evidence at " + i + ", seed " + seed, List.of(), g.net.evidence(i));
          }
        }
      }
    }
  }

  /**
   * Correct parties refuse to echo an invalid proposal, so its certificate can hold only the f Byzantine
   * parties' shares: below the quorum. The Byzantine parties send it anyway, with a FINAL and yes-votes in
   * every round carrying the best forgery they have: the full certificate with one bit changed.
   */
  // Reference: SINTRA §2.4 ("the system may only decide for a value acceptable to honest parties"); CKPS 2001 §5
  @Test
  public void byzantineProposersOfInvalidValuesAreNeverDecided() {
    for (long seed = 0; seed < SEEDS; seed++) {
      for (int[] nf : GROUPS) {
        int n = nf[0];
        Group g = new Group(n, nf[1], seed, lastF(n, nf[1]));
        for (int b : g.byz) {
          byte[] bad = bytes("invalid from " + b);
          byte[] forged = g.certificate(b, bad, g.all()); // the quorum a Byzantine party cannot get
          forged[forged.length - 1] ^= 1;
          for (int to = 0; to < n; to++) {
            g.send(b, to, bad);
            g.fin(b, to, bad, forged);
            for (int r = 0; r < n; r++) {
              g.vote(b, to, r, bad, forged);
            }
          }
        }
        g.proposeAllCorrect();
        g.net.run();
        byte[] d = g.agreed();
        assertTrue("a correct party's proposal, seed " + seed, text(d).matches("valid:\\d+"));
        for (int b : g.byz) {
          List<String> ev = g.evidenceAgainst(b);
          assertTrue(ev + ", seed " + seed,
              ev.contains(g.proposalPid(b) + ": SEND fails the external validity predicate"));
          assertTrue(ev + ", seed " + seed, ev.stream().anyMatch(w -> w.contains("without a valid proposal")));
        }
      }
    }
  }

  /**
   * Each Byzantine party sends one valid value to some correct parties and another to the rest, certifies
   * whichever its observed shares allow, hands that certificate to a random few, and votes at random (no,
   * or yes with its own certified proposal, sometimes twice) in every round.
   */
  // Reference: SINTRA §2.2, §2.4 (consistent broadcast makes a proposal unique; agreement under equivocation)
  @Test
  public void equivocatingProposersCannotSplitTheDecision() {
    int byzantineDecided = 0;
    int doubleVotes = 0;
    for (long seed = 0; seed < SEEDS * 2; seed++) {
      for (int[] nf : GROUPS) {
        int n = nf[0];
        Group g = new Group(n, nf[1], seed, lastF(n, nf[1]));
        Random adv = new Random(~seed);
        Map<Integer, byte[]> certified = new HashMap<>();
        for (int b : g.byz) {
          byte[][] values = {bytes("valid:x" + b), bytes("valid:y" + b)};
          List<Set<Integer>> got = List.of(new HashSet<>(g.byz), new HashSet<>(g.byz));
          for (int to = 0; to < n; to++) {
            if (g.net.correct(to)) {
              int which = adv.nextInt(3) == 0 ? 1 : 0;
              got.get(which).add(to);
              g.send(b, to, values[which]);
            }
          }
          for (int which = 0; which < 2; which++) {
            byte[] cert = g.certificate(b, values[which], got.get(which));
            if (cert != null) {
              certified.put(b, values[which]);
              for (int to = 0; to < n; to++) {
                if (g.net.correct(to) && adv.nextBoolean()) {
                  g.fin(b, to, values[which], cert);
                }
              }
              for (int to = 0; to < n; to++) {
                for (int r = 0; r < n; r++) {
                  int votes = adv.nextInt(4) == 0 ? 2 : 1;
                  for (int k = 0; k < votes; k++) {
                    boolean yes = adv.nextBoolean();
                    g.vote(b, to, r, yes ? values[which] : null, yes ? cert : null);
                  }
                }
              }
            }
          }
        }
        g.proposeAllCorrect();
        g.net.run();
        byte[] d = g.agreed();
        if (!text(d).matches("valid:\\d+")) {
          int b = Integer.parseInt(text(d).substring("valid:x".length()));
          assertArrayEquals("the certified proposal of " + b + ", seed " + seed, certified.get(b), d);
          byzantineDecided++;
        }
        for (int b : g.byz) {
          List<String> ev = g.evidenceAgainst(b);
          assertTrue(ev + ", seed " + seed, ev.stream().allMatch(w -> w.contains("second vote in round")
              || w.contains("without a valid proposal"))); // yes-votes for other candidates
          doubleVotes += (int) ev.stream().filter(w -> w.contains("second vote in round")).count();
        }
      }
    }
    assertTrue("double votes were sent and recorded as evidence", doubleVotes > 0);
    assertTrue("some Byzantine proposal decided, for the test to mean anything: " + byzantineDecided,
        byzantineDecided > 0);
  }

  // Reference: SINTRA §2.4 (termination for every correct party: a slow one decides after the others did,
  // from their DECIDE proofs, even before it proposes; proposing then changes nothing)
  @Test
  public void lateReplicaDecidesWhatTheOthersDecided() {
    for (long seed = 0; seed < SEEDS / 2; seed++) {
      for (int[] nf : GROUPS) {
        int n = nf[0];
        Group g = new Group(n, nf[1], seed, Set.of());
        for (int i = 0; i < n - 1; i++) {
          int me = i;
          g.net.input(i, () -> g.mvba[me].propose(bytes("valid:" + me)));
        }
        g.net.run();
        for (int i = 0; i < n; i++) {
          assertEquals("replica " + i + ", seed " + seed, 1, g.decided.get(i).size());
        }
        byte[] agreed = g.agreed();
        g.net.input(n - 1, () -> g.mvba[n - 1].propose(bytes("valid:" + (n - 1))));
        g.net.run();
        assertEquals("seed " + seed, 1, g.decided.get(n - 1).size());
        assertArrayEquals("seed " + seed, agreed, g.agreed());
      }
    }
  }

  /**
   * The first candidate of Π is Byzantine and sends its (valid) proposal to two correct parties only, with
   * its certificate and yes-votes: the biased agreement decides 1 (f+1 correct parties hold it), and the
   * third correct party, which never saw the proposal, decides it by fetching it from the signers.
   */
  // Reference: SINTRA §2.4; CKPS 2001 §5 (validation by certificate; the decided value is fetched by digest)
  @Test
  public void partyThatDecidesAProposalItNeverReceivedFetchesIt() {
    for (long seed = 0; seed < SEEDS / 2; seed++) {
      int b = MultiValuedAgreement.order(Pid.root("t").child("mvba").child(seed), 4)[0];
      Group g = new Group(4, 1, seed, Set.of(b));
      List<Integer> correct = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        if (i != b) {
          correct.add(i);
        }
      }
      int missing = correct.get((int) (seed % 3));
      Set<Integer> holders = new HashSet<>(correct);
      holders.remove(missing);
      byte[] value = bytes("valid:b" + b);
      Set<Integer> signers = new HashSet<>(holders);
      signers.add(b);
      byte[] cert = g.certificate(b, value, signers);
      for (int to : holders) {
        g.send(b, to, value);
        g.fin(b, to, value, cert);
      }
      for (int to : correct) {
        g.vote(b, to, 0, value, cert);
      }
      g.proposeAllCorrect();
      g.net.run();
      assertArrayEquals("seed " + seed, value, g.agreed());
      assertTrue("seed " + seed, g.net.transcript(missing).stream()
          .anyMatch(x -> x.sent() && x.message().type() == ConsistentBroadcast.Type.FETCH.code()
              && x.message().pid().equals(g.proposalPid(b))));
      for (int i : correct) {
        assertEquals("evidence at " + i + ", seed " + seed, List.of(), g.net.evidence(i));
      }
    }
  }

  // Reference: SINTRA §2.1, §2.4 (the threshold signature replaces the multi-signature with no protocol change)
  @Test
  public void decidesWithRsaThresholdCertificates() {
    ShoupRsa rsa = new ShoupRsa(512); // no security: test moduli
    Dealt keys = rsa.deal(new ThresholdParams(4, 3, 1), TestRandom.seeded(43));
    for (long seed = 0; seed < 3; seed++) {
      Group g = new Group(4, 1, seed, Set.of(3),
          ctx -> new ThresholdSignatures(rsa, keys.group(), keys.share(ctx.id() + 1)));
      // Correct parties sign only valid proposals, so 3's invalid one gets no certificate (its own share
      // is below the quorum); with validation by certificate, none could be built for it.
      byte[] bad = bytes("invalid from 3");
      assertNull(g.certificate(3, bad, Set.of(3)));
      for (int to = 0; to < 3; to++) {
        g.send(3, to, bad);
      }
      g.proposeAllCorrect();
      g.net.run();
      assertTrue("seed " + seed, text(g.agreed()).matches("valid:\\d+"));
    }
  }

  // Reference: SINTRA §2.4 (Π "chosen at random from information that is locally available to every party")
  @Test
  public void candidateOrderIsAPermutationDerivedFromThePid() {
    Set<Integer> firsts = new HashSet<>();
    for (int k = 0; k < 40; k++) {
      Pid pid = Pid.root("abc").child(k).child("mvba");
      int[] pi = MultiValuedAgreement.order(pid, 7);
      int[] sorted = pi.clone();
      Arrays.sort(sorted);
      assertArrayEquals(new int[] {0, 1, 2, 3, 4, 5, 6}, sorted);
      assertArrayEquals("the same at every party", pi, MultiValuedAgreement.order(Pid.decode(pid.bytes()), 7));
      firsts.add(pi[0]);
    }
    assertTrue("the first candidate varies over instances: " + firsts, firsts.size() > 3);
  }

  // Reference: SINTRA §3.3 ("every party must propose some value once")
  @Test
  public void proposalMustBeValidAndMadeOnce() {
    Group g = new Group(4, 1, 0, Set.of());
    Context ctx = g.net.ctx(0);
    try {
      ctx.input(() -> g.mvba[0].propose(bytes("not valid")));
      fail("an invalid proposal must be refused");
    } catch (IllegalArgumentException expected) {
      // refused
    }
    ctx.input(() -> g.mvba[0].propose(bytes("valid:0")));
    try {
      ctx.input(() -> g.mvba[0].propose(bytes("valid:again")));
      fail("a second proposal must be refused");
    } catch (IllegalStateException expected) {
      // refused
    }
  }
}
