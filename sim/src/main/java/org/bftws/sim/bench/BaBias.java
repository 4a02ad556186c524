package org.bftws.sim.bench;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.bftws.core.crypto.Digests;
import org.bftws.core.message.PpUpdate;
import org.bftws.core.pbft.BaRandomness;

/**
 * How much one Byzantine replica can bias a BA random number (docs/design/cryptography.md, "BA algorithm: known weaknesses"),
 * plain (integrity paper §4) against hardened (commit-before-reveal, {@code pbft.Contributions}). A
 * benchmark, not a test: it writes {@code perf/results/ba-bias.csv}.
 *
 * <p>Each trial (one seed) plays one randomized request's round at the protocol level with the engine's own
 * functions — {@link BaRandomness#combine} for R, {@link BaRandomness#commitment} and the reveal check for the
 * hardened variant — and records the target bit (the lowest bit of R). The adversary is given the network
 * schedule it wants (asynchrony allows it): the last revealer sees every other member's contribution before
 * it sends its own and is included in S_R; the Byzantine primary receives all 3f backups' contributions
 * before it forms S_R.
 *
 * <ul>
 *   <li>{@code last-revealer}: a Byzantine backup draws values until R has the target bit 1 (plain), or —
 *       hardened — can only reveal the value it committed to (any other reveal fails the commitment check;
 *       the benchmark tries one) or withhold it.
 *   <li>{@code primary-subset}: a Byzantine primary picks, among the C(3f+1, 2f+1) subsets, one giving bit
 *       1 (plain); hardened, it fixes the subset of commitments before any value is revealed, so its choice
 *       (here: the subset whose XOR of commitment hashes has bit 1) carries no information about R.
 *   <li>{@code +abort}: hardened only, the residual weakness: after seeing the other reveals, the Byzantine
 *       member withholds its own when the bit is 0; the slot never prepares, a view change follows and the
 *       request is drawn afresh (the adversary again included: worst case). At most {@code aborts} per
 *       request; each costs one view change.
 * </ul>
 *
 * <p>Usage: {@code scripts/bench-ba-bias [trials] [aborts]} (default 10000 trials, 1 abort).
 */
public final class BaBias {
  private BaBias() {}

  private record Row(String variant, String attack, int f, int trials, int ones, double viewChanges, double tries) {
    double fraction() {
      return (double) ones / trials;
    }

    double ci95() {
      double p = fraction();
      return 1.96 * Math.sqrt(p * (1 - p) / trials);
    }
  }

  private static byte[] draw(Random r) {
    byte[] v = new byte[PpUpdate.VALUE_LENGTH];
    r.nextBytes(v);
    return v;
  }

  private static int bit(byte[] r) {
    return r[0] & 1;
  }

  private static byte[] combine(Map<Integer, byte[]> values) {
    Map<Integer, List<byte[]>> m = new LinkedHashMap<>();
    values.forEach((i, v) -> m.put(i, List.of(v)));
    return BaRandomness.combine(m, 1).get(0);
  }

  /** One honest round (or the adversary's fixed value): values of the members of the set. */
  private static Map<Integer, byte[]> honest(Random r, List<Integer> members) {
    Map<Integer, byte[]> values = new LinkedHashMap<>();
    for (int i : members) {
      values.put(i, draw(r));
    }
    return values;
  }

  /** The set of a correct primary (0) with the adversary b included: 0, the first 2f-1 honest backups, b. */
  private static List<Integer> setWith(int f, int b) {
    List<Integer> s = new ArrayList<>();
    s.add(0);
    for (int i = 1; s.size() < 2 * f; i++) {
      if (i != b) {
        s.add(i);
      }
    }
    s.add(b);
    return s;
  }

  static Row baseline(int f, int trials) {
    int ones = 0;
    for (int t = 1; t <= trials; t++) {
      Random r = new Random(t);
      ones += bit(combine(honest(r, setWith(f, 3 * f))));
    }
    return new Row("plain", "none", f, trials, ones, 0, 0);
  }

  static Row lastRevealerPlain(int f, int trials) {
    int b = 3 * f;
    int ones = 0;
    long tries = 0;
    for (int t = 1; t <= trials; t++) {
      Random r = new Random(t);
      Random adversary = new Random(-t);
      Map<Integer, byte[]> values = honest(r, setWith(f, b));
      byte[] out;
      int k = 0;
      do { // it has seen every other member's R_i: it keeps drawing its own until the bit is 1
        values.put(b, draw(adversary));
        out = combine(values);
        k++;
      } while (bit(out) == 0 && k < 64);
      tries += k;
      ones += bit(out);
    }
    return new Row("plain", "last-revealer", f, trials, ones, 0, (double) tries / trials);
  }

  /** Hardened: b commits before any reveal; at reveal time it may try another value, or (aborts) withhold. */
  static Row lastRevealerHardened(int f, int trials, int aborts) {
    int b = 3 * f;
    int ones = 0;
    long viewChanges = 0;
    long rejected = 0;
    byte[] d = Digests.sha256(new byte[] {1});
    for (int t = 1; t <= trials; t++) {
      Random r = new Random(t);
      Random adversary = new Random(-t);
      byte[] out = null;
      for (int attempt = 0; attempt <= aborts; attempt++) {
        long seq = 1;
        Map<Integer, byte[]> values = honest(r, setWith(f, b));
        byte[] mine = draw(adversary);
        byte[] nonce = draw(adversary);
        byte[] commitment = BaRandomness.commitment(b, seq, d, 0, mine, nonce);
        values.put(b, mine);
        out = combine(values);
        if (bit(out) == 1) {
          break;
        }
        // It would like another value: a reveal of one fails the commitment check.
        byte[] wanted = draw(adversary);
        if (!java.util.Arrays.equals(BaRandomness.commitment(b, seq, d, 0, wanted, nonce), commitment)) {
          rejected++;
        }
        if (attempt < aborts) {
          viewChanges++; // withhold: the slot stalls, a view change, the request is drawn afresh
        }
      }
      ones += bit(out);
    }
    if (rejected == 0 && trials > 0) {
      throw new IllegalStateException("no altered reveal was rejected: the commitment check is broken");
    }
    return new Row(aborts == 0 ? "hardened" : "hardened+abort", "last-revealer", f, trials, ones,
        (double) viewChanges / trials, 0);
  }

  /** All subsets of {0..n-1} of this size, in lexicographic order. */
  private static List<List<Integer>> subsets(int n, int size) {
    List<List<Integer>> out = new ArrayList<>();
    for (int mask = 0; mask < 1 << n; mask++) {
      if (Integer.bitCount(mask) == size) {
        List<Integer> s = new ArrayList<>();
        for (int i = 0; i < n; i++) {
          if ((mask & 1 << i) != 0) {
            s.add(i);
          }
        }
        out.add(s);
      }
    }
    return out;
  }

  static Row primarySubsetPlain(int f, int trials) {
    int n = 3 * f + 1;
    List<List<Integer>> choices = subsets(n, 2 * f + 1);
    int ones = 0;
    long tries = 0;
    for (int t = 1; t <= trials; t++) {
      Random r = new Random(t);
      Map<Integer, byte[]> all = new LinkedHashMap<>();
      for (int i = 0; i < n; i++) {
        all.put(i, draw(r)); // its own R_p is fixed in its pre-prepare before it sees any other
      }
      int got = 0;
      int k = 0;
      for (List<Integer> s : choices) {
        k++;
        Map<Integer, byte[]> chosen = new LinkedHashMap<>();
        s.forEach(i -> chosen.put(i, all.get(i)));
        if (bit(combine(chosen)) == 1) {
          got = 1;
          break;
        }
      }
      tries += k;
      ones += got;
    }
    return new Row("plain", "primary-subset", f, trials, ones, 0, (double) tries / trials);
  }

  /**
   * Hardened: the primary sees only commitments when it fixes the subset; it picks the subset whose XOR of
   * commitment hashes has bit 1 (any policy would do as badly), then the values are revealed. With aborts, a
   * bit-0 outcome makes it withhold its own reveal (it is in its own set) and the request is drawn again.
   */
  static Row primarySubsetHardened(int f, int trials, int aborts) {
    int n = 3 * f + 1;
    List<List<Integer>> choices = subsets(n, 2 * f + 1);
    int ones = 0;
    long viewChanges = 0;
    byte[] d = Digests.sha256(new byte[] {2});
    for (int t = 1; t <= trials; t++) {
      Random r = new Random(t);
      byte[] out = null;
      for (int attempt = 0; attempt <= aborts; attempt++) {
        Map<Integer, byte[]> all = new LinkedHashMap<>();
        Map<Integer, byte[]> commitments = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
          byte[] v = draw(r);
          all.put(i, v);
          commitments.put(i, BaRandomness.commitment(i, 1, d, 0, v, draw(r)));
        }
        List<Integer> pick = choices.get(0);
        for (List<Integer> s : choices) {
          Map<Integer, byte[]> c = new LinkedHashMap<>();
          s.forEach(i -> c.put(i, commitments.get(i)));
          if (s.contains(0) && bit(combine(c)) == 1) {
            pick = s;
            break;
          }
        }
        Map<Integer, byte[]> chosen = new LinkedHashMap<>();
        pick.forEach(i -> chosen.put(i, all.get(i)));
        out = combine(chosen);
        if (bit(out) == 1) {
          break;
        }
        if (attempt < aborts && pick.contains(0)) {
          viewChanges++;
        } else {
          break;
        }
      }
      ones += bit(out);
    }
    return new Row(aborts == 0 ? "hardened" : "hardened+abort", "primary-subset", f, trials, ones,
        (double) viewChanges / trials, 0);
  }

  public static void main(String[] args) throws IOException {
    int trials = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
    int aborts = args.length > 1 ? Integer.parseInt(args[1]) : 1;
    List<Row> rows = new ArrayList<>();
    for (int f : new int[] {1, 2}) {
      rows.add(baseline(f, trials));
      rows.add(lastRevealerPlain(f, trials));
      rows.add(lastRevealerHardened(f, trials, 0));
      rows.add(lastRevealerHardened(f, trials, aborts));
      rows.add(primarySubsetPlain(f, trials));
      rows.add(primarySubsetHardened(f, trials, 0));
      rows.add(primarySubsetHardened(f, trials, aborts));
    }
    Path out = Path.of("perf/results/ba-bias.csv");
    Files.createDirectories(out.getParent());
    try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(out))) {
      w.println("variant,attack,f,n,trials,target_bit_ones,fraction_ones,ci95,view_changes_per_request,adversary_draws_per_request");
      for (Row r : rows) {
        String line = String.format(Locale.ROOT, "%s,%s,%d,%d,%d,%d,%.4f,%.4f,%.3f,%.2f", r.variant(), r.attack(), r.f(),
            3 * r.f() + 1, r.trials(), r.ones(), r.fraction(), r.ci95(), r.viewChanges(), r.tries());
        w.println(line);
        System.out.println(line);
      }
    }
    System.out.println("wrote " + out.toAbsolutePath());
  }
}
