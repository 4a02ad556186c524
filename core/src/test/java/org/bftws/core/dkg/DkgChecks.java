package org.bftws.core.dkg;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.bftws.core.crypto.threshold.DlGroup;
import org.bftws.core.crypto.threshold.GroupKey;
import org.bftws.core.crypto.threshold.GroupValue;
import org.bftws.core.crypto.threshold.KeyShare;
import org.bftws.core.crypto.threshold.SchemeId;
import org.bftws.core.crypto.threshold.SignatureShare;
import org.bftws.core.crypto.threshold.Tdh2;
import org.bftws.core.crypto.threshold.Tdh2Ciphertext;
import org.bftws.core.crypto.threshold.ThresholdScheme;
import org.bftws.core.crypto.threshold.Thresholds;
import org.bftws.core.testkit.TestRandom;

/**
 * The invariants a finished run must satisfy, as lists of violations (empty when all hold). The checker may
 * know every correct share; no replica does.
 */
final class DkgChecks {
  private static final byte[] COIN = "urn:bftws:group|seq-42|digest".getBytes(StandardCharsets.US_ASCII);

  private DkgChecks() {}

  /**
   * Agreement: every correct party output the same group key (common part and every verification key) and
   * the same QUAL; every correct share matches its verification key; any k of them interpolate to the secret
   * of the group key; at least k correct receivers hold a share.
   */
  static List<String> agreement(DkgNet net) {
    List<String> v = new ArrayList<>();
    byte[] first = null;
    List<Integer> qual = null;
    for (DkgNet.Party p : net.correct()) {
      if (p.result == null) {
        v.add(p.name + " has no output");
        continue;
      }
      if (first == null) {
        first = p.result.group().encode();
        qual = p.result.qualified();
      } else if (!Arrays.equals(first, p.result.group().encode()) || !qual.equals(p.result.qualified())) {
        v.add(p.name + " output another group key or QUAL");
      }
    }
    if (!v.isEmpty()) {
      return v;
    }
    GroupKey group = GroupKey.decode(first);
    Map<Integer, KeyShare> shares = net.correctShares();
    for (KeyShare s : shares.values()) {
      if (!Thresholds.keys(group.scheme()).keyShareMatches(group, s)) {
        v.add("share " + s.index() + " does not match its verification key");
      }
    }
    if (shares.size() < group.params().k()) {
      v.add("only " + shares.size() + " correct shares, fewer than k = " + group.params().k());
    } else if (!interpolatesTo(group, shares)) {
      v.add("correct shares do not interpolate to the group key");
    }
    return v;
  }

  /** g^{Σ λ_j x_j} = y over every k-subset of consecutive correct shares. */
  static boolean interpolatesTo(GroupKey group, Map<Integer, KeyShare> shares) {
    List<Integer> idx = new ArrayList<>(shares.keySet());
    int k = group.params().k();
    for (int start = 0; start + k <= idx.size(); start++) {
      Map<Integer, KeyShare> subset = new java.util.LinkedHashMap<>();
      for (int i : idx.subList(start, start + k)) {
        subset.put(i, shares.get(i));
      }
      if (!secretMatches(DlGroup.forScheme(group.scheme()), group, DkgNet.interpolate(
          DlGroup.forScheme(group.scheme()), subset))) {
        return false;
      }
    }
    return true;
  }

  static <E> boolean secretMatches(DlGroup<E> g, GroupKey group, BigInteger x) {
    return Arrays.equals(g.encode(g.expG(x)), group.commonEncoding());
  }

  /** The keys work with the scheme: k shares give a coin / signature / decryption that verifies. */
  static List<String> usable(GroupKey group, Map<Integer, KeyShare> shares) throws Exception {
    List<KeyShare> k = shares.values().stream().limit(group.params().k()).toList();
    if (group.scheme() == SchemeId.TDH2) {
      Tdh2 tdh2 = (Tdh2) Thresholds.keys(SchemeId.TDH2);
      byte[] secret = "sealed bid 1000".getBytes(StandardCharsets.US_ASCII);
      Tdh2Ciphertext c = tdh2.encrypt(group, COIN, secret, TestRandom.seeded(9));
      List<SignatureShare> ds = new ArrayList<>();
      for (KeyShare s : k) {
        ds.add(tdh2.share(group, s, c));
      }
      return Arrays.equals(secret, tdh2.combine(group, c, ds)) ? List.of() : List.of("TDH2 decrypts wrongly");
    }
    ThresholdScheme scheme = Thresholds.scheme(group.scheme());
    List<SignatureShare> ss = new ArrayList<>();
    for (KeyShare s : k) {
      ss.add(scheme.share(group, s, COIN));
    }
    GroupValue value = scheme.combine(group, COIN, ss);
    return scheme.verifyCombined(group, COIN, value) ? List.of()
        : List.of(group.scheme().label() + " combined value does not verify");
  }

  /** Refresh: same group key, every verification key and every share changed. */
  static List<String> refreshed(GroupKey before, GroupKey after, Map<Integer, KeyShare> oldShares,
      Map<Integer, KeyShare> newShares) {
    List<String> v = new ArrayList<>();
    if (!Arrays.equals(before.commonEncoding(), after.commonEncoding())) {
      v.add("refresh changed the group key");
    }
    for (int j = 1; j <= before.params().n(); j++) {
      if (Arrays.equals(before.verificationKeyEncoding(j), after.verificationKeyEncoding(j))) {
        v.add("verification key " + j + " unchanged");
      }
      KeyShare o = oldShares.get(j);
      KeyShare n = newShares.get(j);
      if (o != null && n != null && Arrays.equals(o.encode(), n.encode())) {
        v.add("share " + j + " unchanged");
      }
    }
    return v;
  }

  /** Old and new shares do not combine: k−1 old shares and one new one interpolate to something else. */
  static boolean mixedCombine(GroupKey group, Map<Integer, KeyShare> oldShares, Map<Integer, KeyShare> newShares) {
    int k = group.params().k();
    Map<Integer, KeyShare> mixed = new java.util.LinkedHashMap<>();
    for (Map.Entry<Integer, KeyShare> e : oldShares.entrySet()) {
      if (mixed.size() < k - 1) {
        mixed.put(e.getKey(), e.getValue());
      }
    }
    for (Map.Entry<Integer, KeyShare> e : newShares.entrySet()) {
      if (mixed.size() < k && !mixed.containsKey(e.getKey())) {
        mixed.put(e.getKey(), e.getValue());
      }
    }
    return secretMatches(DlGroup.forScheme(group.scheme()), group,
        DkgNet.interpolate(DlGroup.forScheme(group.scheme()), mixed));
  }
}
