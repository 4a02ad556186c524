package org.bftws.core.crypto.threshold;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.Test;

/**
 * The properties every scheme must have, after the integrity paper §5/§6 (C1: all correct replicas get the
 * same random number from any k shares) and docs/design/cryptography.md's pitfalls. Subclasses deal keys once
 * per class (RSA safe primes are slow) for (n, k, t) = (4, 2, 1) and (4, 3, 1).
 */
public abstract class ThresholdSchemeContract {
  static final byte[] MSG = CoinMessage.encode("g1".getBytes(StandardCharsets.US_ASCII), 42, new byte[] {0, -1});
  static final byte[] OTHER = CoinMessage.encode("g1".getBytes(StandardCharsets.US_ASCII), 43, new byte[] {0, -1});

  abstract ThresholdScheme scheme();

  /** Keys for n = 4, t = 1 and the given k (2 or 3). */
  abstract Dealt dealt(int k);

  List<SignatureShare> shares(Dealt d, byte[] msg, int... indices) {
    List<SignatureShare> out = new ArrayList<>();
    for (int i : indices) {
      out.add(scheme().share(d.group(), d.share(i), msg));
    }
    return out;
  }

  // Integrity paper §6, C1 (2): "different replicas could obtain different set of k shares and yet they all
  // lead to the same group signature" — try every k-subset of the 4 replicas.
  @Test
  public void anyKValidSharesCombineToTheSameValue() throws Exception {
    for (int k = 2; k <= 3; k++) {
      Dealt d = dealt(k);
      List<SignatureShare> all = shares(d, MSG, 1, 2, 3, 4);
      byte[] first = null;
      for (int[] subset : subsets(4, k)) {
        List<SignatureShare> chosen = new ArrayList<>();
        for (int i : subset) {
          chosen.add(all.get(i - 1));
        }
        GroupValue v = scheme().combine(d.group(), MSG, chosen);
        if (first == null) {
          first = v.unique();
        }
        assertArrayEquals("subset " + Arrays.toString(subset), first, v.unique());
      }
    }
  }

  // docs/design/cryptography.md pitfall 1 (ThreshSig's degree k−2 polynomial): k−1 shares must not give the group value,
  // neither through combine nor by interpolating them directly.
  @Test
  public void kMinusOneSharesNeverCombine() throws Exception {
    for (int k = 2; k <= 3; k++) {
      Dealt d = dealt(k);
      List<SignatureShare> few = shares(d, MSG, 4, 1, 3).subList(0, k - 1);
      try {
        scheme().combine(d.group(), MSG, few);
        fail("combined from k-1 shares");
      } catch (InsufficientSharesException expected) {
        // fine
      }
      GroupValue truth = scheme().combine(d.group(), MSG, shares(d, MSG, 1, 2, 3).subList(0, k));
      GroupValue partial = ((AbstractThresholdScheme) scheme()).interpolate(d.group(), MSG, few);
      if (partial != null) {
        assertFalse(Arrays.equals(truth.unique(), partial.unique()));
        assertFalse(scheme().verifyCombined(d.group(), MSG, partial));
      }
    }
  }

  // docs/design/cryptography.md pitfall 9: optimistic combination falls back to per-share checks and names the bad share.
  @Test
  public void forgedShareIsDetectedAndItsIndexNamed() throws Exception {
    Dealt d = dealt(3);
    List<SignatureShare> good = shares(d, MSG, 1, 2, 3, 4);
    SignatureShare replayed = scheme().share(d.group(), d.share(2), OTHER);
    SignatureShare forged = new SignatureShare(scheme().id(), 2, replayed.value(), replayed.proof());
    assertBadIndices(d, List.of(good.get(0), forged, good.get(2)), List.of(2));
    SignatureShare mutated = new SignatureShare(scheme().id(), 3, good.get(2).value(), flipLastBit(good.get(2).proof()));
    if (good.get(2).proof().length > 0) {
      // A bad proof on a correct value: rejected alone; harmless to a publicly verifiable combination,
      // whose single check passes (the value is the unique one), but caught by CKS's per-share checks.
      assertFalse(scheme().verifyShare(d.group(), MSG, mutated));
      List<SignatureShare> withMutated = List.of(good.get(0), good.get(1), mutated);
      if (((AbstractThresholdScheme) scheme()).publiclyVerifiable()) {
        assertTrue(scheme().verifyCombined(d.group(), MSG, scheme().combine(d.group(), MSG, withMutated)));
      } else {
        assertBadIndices(d, withMutated, List.of(3));
      }
    }
    SignatureShare garbage = new SignatureShare(scheme().id(), 1, flipLastBit(good.get(0).value()), good.get(0).proof());
    assertBadIndices(d, List.of(garbage, forged, good.get(2), good.get(3)), List.of(1, 2));
  }

  private void assertBadIndices(Dealt d, List<SignatureShare> given, List<Integer> bad) throws Exception {
    try {
      scheme().combine(d.group(), MSG, given);
      fail("combined with a bad share");
    } catch (InvalidSharesException e) {
      assertEquals(bad, e.badIndices());
    }
  }

  // SINTRA §3.1 (verifyShare with the index's verification key) and docs/design/cryptography.md pitfall 3.
  @Test
  public void shareVerifiedAgainstTheWrongIndexFails() {
    Dealt d = dealt(2);
    SignatureShare s = scheme().share(d.group(), d.share(1), MSG);
    assertTrue(scheme().verifyShare(d.group(), MSG, s));
    assertFalse(scheme().verifyShare(d.group(), OTHER, s));
    for (int other : new int[] {2, 3, 4, 0, 5}) {
      assertFalse(scheme().verifyShare(d.group(), MSG, new SignatureShare(scheme().id(), other, s.value(), s.proof())));
    }
  }

  // docs/design/cryptography.md pitfall 8: duplicate indices are rejected, not interpolated.
  @Test(expected = DuplicateIndexException.class)
  public void duplicateIndicesAreRejected() throws Exception {
    Dealt d = dealt(2);
    SignatureShare s = scheme().share(d.group(), d.share(1), MSG);
    scheme().combine(d.group(), MSG, List.of(s, s, scheme().share(d.group(), d.share(2), MSG)));
  }

  // Integrity paper §6, C2 and docs/design/cryptography.md: the group value verifies against the group key for (n, d) only.
  @Test
  public void combinedValueVerifiesForItsMessageOnly() throws Exception {
    Dealt d = dealt(2);
    GroupValue v = scheme().combine(d.group(), MSG, shares(d, MSG, 2, 4));
    assertTrue(scheme().verifyCombined(d.group(), MSG, v));
    assertFalse(scheme().verifyCombined(d.group(), OTHER, v));
    GroupValue w = scheme().combine(d.group(), OTHER, shares(d, OTHER, 1, 3));
    assertNotEquals(Arrays.toString(v.unique()), Arrays.toString(w.unique()));
    assertFalse(scheme().verifyCombined(dealt(3).group(), MSG, v));
  }

  // Integrity paper §5: the random number is a secure hash of the group signature (here SHA-256).
  @Test
  public void coinIsSha256OfTheUniqueValue() throws Exception {
    Dealt d = dealt(2);
    GroupValue v = scheme().combine(d.group(), MSG, shares(d, MSG, 1, 2));
    byte[] coin = scheme().coinValue(v);
    assertArrayEquals(MessageDigest.getInstance("SHA-256").digest(v.unique()), coin);
    assertArrayEquals(coin, scheme().coinValue(scheme().combine(d.group(), MSG, shares(d, MSG, 3, 4))));
  }

  // docs/design/style.md ("canonical binary encoding ... never Java serialization"): encodings round trip, strictly.
  @Test
  public void encodingsRoundTrip() throws Exception {
    Dealt d = dealt(3);
    GroupKey g = GroupKey.decode(d.group().encode());
    assertArrayEquals(d.group().encode(), g.encode());
    KeyShare k2 = KeyShare.decode(d.share(2).encode());
    assertEquals(2, k2.index());
    assertArrayEquals(d.share(2).encode(), k2.encode());
    assertTrue(scheme().keyShareMatches(g, k2));
    assertFalse(scheme().keyShareMatches(g, KeyShare.decode(dealt(2).share(2).encode())));
    assertFalse(scheme().keyShareMatches(g, scheme().keyShare(g.params(), 2, d.share(3).secretEncoding())));
    SignatureShare s = scheme().share(g, k2, MSG);
    assertEquals(s, SignatureShare.decode(s.encode()));
    assertTrue(scheme().verifyShare(d.group(), MSG, SignatureShare.decode(s.encode())));
    GroupValue v = scheme().combine(g, MSG, shares(d, MSG, 1, 2, 3));
    assertEquals(v, GroupValue.decode(v.encode()));
    assertTrue(scheme().verifyCombined(g, MSG, GroupValue.decode(v.encode())));
    byte[] trailing = Arrays.copyOf(s.encode(), s.encode().length + 1);
    try {
      SignatureShare.decode(trailing);
      fail("accepted trailing bytes");
    } catch (IllegalArgumentException expected) {
      // fine
    }
  }

  // Integrity paper §5: a replica with 2f+1 commits combines k of the shares they carry.
  @Test
  public void moreThanKSharesUseTheFirstK() throws Exception {
    Dealt d = dealt(2);
    GroupValue v = scheme().combine(d.group(), MSG, shares(d, MSG, 3, 1, 4, 2));
    assertArrayEquals(scheme().combine(d.group(), MSG, shares(d, MSG, 1, 2)).unique(), v.unique());
  }

  // docs/design/testing.md (one seed reproduces a run): shares, proofs included, are a function of key and message.
  @Test
  public void sharesAreDeterministic() {
    Dealt d = dealt(2);
    assertEquals(scheme().share(d.group(), d.share(3), MSG), scheme().share(d.group(), d.share(3), MSG));
    assertNotEquals(scheme().share(d.group(), d.share(3), MSG), scheme().share(d.group(), d.share(3), OTHER));
  }

  static byte[] flipLastBit(byte[] b) {
    byte[] c = b.clone();
    if (c.length > 0) {
      c[c.length - 1] ^= 1;
    }
    return c;
  }

  /** All k-subsets of 1..n in lexicographic order. */
  static List<int[]> subsets(int n, int k) {
    List<int[]> out = new ArrayList<>();
    for (int mask = 0; mask < (1 << n); mask++) {
      if (Integer.bitCount(mask) == k) {
        int[] s = new int[k];
        for (int i = 0, j = 0; i < n; i++) {
          if ((mask & (1 << i)) != 0) {
            s[j++] = i + 1;
          }
        }
        out.add(s);
      }
    }
    return out;
  }
}
