package org.bftws.sim;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.IntPredicate;
import org.bftws.core.crypto.threshold.GroupKey;
import org.bftws.core.crypto.threshold.KeyShare;
import org.bftws.core.crypto.threshold.SignatureShare;
import org.bftws.core.crypto.threshold.Tdh2;
import org.bftws.core.crypto.threshold.Tdh2Ciphertext;
import org.bftws.core.crypto.threshold.ThresholdScheme;
import org.bftws.core.crypto.threshold.Thresholds;
import org.bftws.core.dkg.GroupDkg;
import org.bftws.core.keys.GroupKeys;
import org.bftws.core.message.Request;
import org.bftws.core.testkit.TestRandom;

/**
 * The key generation's invariants ({@code --keys dkg}), checked on what every replica's GroupDkg output; the
 * checker may know every share, no replica does (GJKR's correctness C1–C3 and secrecy):
 * <ul>
 * <li>D1 agreement: every correct replica generated the same group.pub (the coin's and the TDH2 group keys with
 *     every verification key), at the same seq, with the same QUAL;
 * <li>D2 shares: every correct replica's shares match their verification keys, at least k correct replicas
 *     hold them, and each k of them (consecutive by index) interpolate to the group keys — a coin combined from
 *     them verifies under the group key, a TDH2 ciphertext opens;
 * <li>D3 liveness: every correct replica generated the keys and certified group.pub by the end of the run;
 * <li>D4 secrecy: each QUAL holds a correct dealer (else the Byzantine dealers chose the secret);
 * <li>D5 secrecy: the Byzantine replicas hold fewer than k shares.
 * </ul>
 * The coin oracle of S8 (the random numbers of requests the keys serve) is made from k shares that match their
 * verification keys, of any replica: a replica's share is known here before it sends a coin share with it.
 */
final class KeyGenChecks {
  private static final byte[] PROBE = "urn:bftws:sim-dkg-probe".getBytes(StandardCharsets.US_ASCII);

  /** What one replica's GroupDkg output, at which seq. */
  record Outcome(long seq, GroupDkg.Output output) {}

  private final byte[] groupId;
  private final boolean perBatch;
  /** The first outcome of each correct replica (a later incarnation's must be the same: D1). */
  private final Map<Integer, Outcome> correct = new TreeMap<>();
  private final Map<Integer, Outcome> byzantine = new TreeMap<>();
  private final Set<Integer> certified = new TreeSet<>();
  private final Map<Integer, KeyShare> oracleShares = new TreeMap<>();
  private final Consumer<String> violations;
  private final IntPredicate reserved;
  private final boolean confidential;
  private Outcome agreed;
  private Checker.CoinOracle oracle;

  /**
   * {@code reserved}: the replicas' reserved node ids, whose requests are the key generation's; {@code
   * confidential}: whether sealed requests need the keys too.
   */
  KeyGenChecks(byte[] groupId, boolean perBatch, IntPredicate reserved, boolean confidential,
      Consumer<String> violations) {
    this.groupId = groupId.clone();
    this.perBatch = perBatch;
    this.reserved = reserved;
    this.confidential = confidential;
    this.violations = violations;
  }

  boolean reserved(int node) {
    return reserved.test(node);
  }

  /** Replica {@code replica}'s GroupDkg output at seq (correct or Byzantine, whose outputs count for D5). */
  void generated(int replica, boolean isCorrect, long seq, GroupDkg.Output out) {
    Outcome o = new Outcome(seq, out);
    if (!isCorrect) {
      byzantine.putIfAbsent(replica, o);
    } else {
      if (agreed == null) {
        agreed = o;
      }
      Outcome first = correct.putIfAbsent(replica, o);
      if (first != null) {
        same(replica, first, o, "its earlier incarnation");
      }
      same(replica, agreed, o, "another correct replica");
    }
  }

  private void same(int replica, Outcome a, Outcome b, String whom) {
    if (!a.output().groupText().equals(b.output().groupText())) {
      violations.accept("D1 key agreement: replica " + replica + " generated another group.pub than " + whom);
    } else if (a.seq() != b.seq()) {
      violations.accept("D1 key agreement: replica " + replica + " completed the key generation at seq " + b.seq()
          + ", " + whom + " at " + a.seq());
    } else if (!a.output().coinQualified().equals(b.output().coinQualified())
        || !a.output().tdh2Qualified().equals(b.output().tdh2Qualified())) {
      violations.accept("D1 key agreement: replica " + replica + " computed another QUAL than " + whom);
    }
  }

  void certified(int replica) {
    certified.add(replica);
  }

  /** The seq the generated keys serve from (exclusive): the agreed completion, -1 before. */
  long keysAt() {
    return agreed == null ? -1 : agreed.seq();
  }

  /** Whether {@code q}, ordered at seq, is refused as the replicas must: no keys serve seq, and it needs them. */
  boolean refused(long seq, Request q) {
    return !(agreed != null && seq > agreed.seq()) && SimDkg.needsKeys(q, confidential);
  }

  /** S8's reference for seqs above {@link #keysAt}: k matching shares of the generated coin key; null before. */
  Checker.CoinOracle oracle() {
    if (oracle != null || agreed == null) {
      return oracle;
    }
    GroupKey key = agreed.output().group().threshold();
    List<Outcome> all = new ArrayList<>(correct.values());
    all.addAll(byzantine.values());
    for (Outcome o : all) {
      if (o.output().keys() != null && Thresholds.keys(key.scheme()).keyShareMatches(key, o.output().keys().share())) {
        oracleShares.putIfAbsent(o.output().keys().index(), o.output().keys().share());
      }
    }
    if (oracleShares.size() >= agreed.output().group().k()) {
      GroupKeys g = agreed.output().group();
      oracle = new Checker.CoinOracle(g.thresholdScheme(), g.threshold(), List.copyOf(oracleShares.values()),
          groupId, perBatch);
    }
    return oracle;
  }

  /** D2–D5 at the end of the run; {@code correctIds}: replicas correct throughout, with or without a share. */
  void finish(List<Integer> correctIds, List<Integer> byzantineIds, int k) {
    for (int id : correctIds) {
      if (!correct.containsKey(id)) {
        violations.accept("D3 liveness: correct replica " + id + " never finished the key generation");
      } else if (!certified.contains(id)) {
        violations.accept("D3 liveness: correct replica " + id + " never had group.pub certified by 2f+1 replicas");
      }
    }
    if (agreed == null) {
      return;
    }
    GroupKeys g = agreed.output().group();
    Map<Integer, KeyShare> coin = new TreeMap<>();
    Map<Integer, KeyShare> tdh2 = new TreeMap<>();
    for (Outcome o : correct.values()) {
      if (o.output().keys() != null) {
        coin.put(o.output().keys().index(), o.output().keys().share());
        tdh2.put(o.output().keys().index(), o.output().keys().decryption());
      }
    }
    shares(g.threshold(), coin, g.thresholdScheme(), k);
    shares(g.encryption(), tdh2, null, k);
    qualified("coin", agreed.output().coinQualified(), byzantineIds);
    qualified("TDH2", agreed.output().tdh2Qualified(), byzantineIds);
    long held = byzantine.values().stream().filter(o -> o.output().keys() != null).count();
    if (held >= k) {
      violations.accept("D5 secrecy: the Byzantine replicas hold " + held + " shares, k = " + k + ": they toss every"
          + " coin and open every sealed request without a correct replica");
    }
  }

  private void qualified(String run, List<Integer> qual, List<Integer> byzantineIds) {
    if (qual.stream().allMatch(d -> byzantineIds.contains(d - 1))) {
      violations.accept("D4 secrecy: QUAL " + qual + " of the " + run + " key holds Byzantine dealers only: they"
          + " chose its secret");
    }
  }

  /** D2 for one key: shares match, at least k, every k consecutive interpolate to the group key. */
  private void shares(GroupKey group, Map<Integer, KeyShare> shares, ThresholdScheme scheme, int k) {
    String what = scheme == null ? "TDH2" : "coin";
    for (KeyShare s : shares.values()) {
      if (!Thresholds.keys(group.scheme()).keyShareMatches(group, s)) {
        violations.accept("D2 shares: replica " + (s.index() - 1) + "'s " + what + " share does not match its"
            + " verification key");
      }
    }
    if (shares.size() < k) {
      violations.accept("D2 shares: only " + shares.size() + " correct replicas hold a " + what + " share, k = " + k);
      return;
    }
    List<KeyShare> list = new ArrayList<>(shares.values());
    for (int start = 0; start + k <= list.size(); start++) {
      List<KeyShare> window = list.subList(start, start + k);
      if (!interpolates(group, window, scheme)) {
        violations.accept("D2 shares: the " + what + " shares of replicas " + window.stream().map(s -> s.index() - 1)
            .toList() + " do not interpolate to the group key");
      }
    }
  }

  private static boolean interpolates(GroupKey group, List<KeyShare> window, ThresholdScheme scheme) {
    try {
      if (scheme == null) {
        Tdh2 tdh2 = (Tdh2) Thresholds.keys(group.scheme());
        Tdh2Ciphertext c = tdh2.encrypt(group, PROBE, PROBE, TestRandom.seeded(7));
        List<SignatureShare> ds = new ArrayList<>();
        for (KeyShare s : window) {
          ds.add(tdh2.share(group, s, c));
        }
        return Arrays.equals(PROBE, tdh2.combine(group, c, ds));
      }
      List<SignatureShare> ss = new ArrayList<>();
      for (KeyShare s : window) {
        ss.add(scheme.share(group, s, PROBE));
      }
      return scheme.verifyCombined(group, PROBE, scheme.combine(group, PROBE, ss));
    } catch (Exception e) {
      return false;
    }
  }
}
