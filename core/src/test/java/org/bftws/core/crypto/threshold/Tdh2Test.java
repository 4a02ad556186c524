package org.bftws.core.crypto.threshold;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.bftws.core.testkit.TestRandom;
import org.junit.BeforeClass;
import org.junit.Test;

/** Shoup-Gennaro TDH2 on P-256: encryption with labels, validity proofs, decryption shares, combination. */
public class Tdh2Test {
  private static final Tdh2 TDH2 = new Tdh2();
  private static final byte[] LABEL = "urn:bftws:group|urn:uuid:seq-1|7".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] BID = "bid: 1000 EUR for lot 17".getBytes(StandardCharsets.US_ASCII);
  private static Dealt f1;

  @BeforeClass
  public static void deal() {
    f1 = TDH2.deal(ThresholdParams.forF(1), TestRandom.seeded(1));
  }

  private static Tdh2Ciphertext encrypt(Dealt d, byte[] label, byte[] message, long seed) {
    return TDH2.encrypt(d.group(), label, message, TestRandom.seeded(seed));
  }

  private static List<SignatureShare> shares(Dealt d, Tdh2Ciphertext c, int... indices) throws Exception {
    List<SignatureShare> out = new ArrayList<>();
    for (int i : indices) {
      out.add(TDH2.share(d.group(), d.share(i), c));
    }
    return out;
  }

  /** The share of {@code index} with another party's value: a well-formed share whose proof fails. */
  private static SignatureShare forged(Dealt d, Tdh2Ciphertext c, int index, int valueOf) throws Exception {
    SignatureShare real = TDH2.share(d.group(), d.share(index), c);
    SignatureShare other = TDH2.share(d.group(), d.share(valueOf), c);
    return new SignatureShare(SchemeId.TDH2, index, other.value(), real.proof());
  }

  @Test
  public void roundTripThroughAnyKOfN() throws Exception {
    Tdh2Ciphertext c = encrypt(f1, LABEL, BID, 2);
    assertTrue(TDH2.isValid(c));
    assertFalse("the payload hides the message", new String(c.payload(), StandardCharsets.ISO_8859_1)
        .contains("1000"));
    for (int a = 1; a <= 4; a++) {
      for (int b = 1; b <= 4; b++) {
        if (a != b) {
          assertArrayEquals(BID, TDH2.combine(f1.group(), c, shares(f1, c, a, b)));
        }
      }
    }
  }

  // Shoup-Gennaro: (n, k) for every k from t+1 to n−t, here n = 7, t = 2.
  @Test
  public void dualThresholdForSevenParties() throws Exception {
    for (int k = 3; k <= 5; k++) {
      Dealt d = TDH2.deal(new ThresholdParams(7, k, 2), TestRandom.seeded(20 + k));
      Tdh2Ciphertext c = encrypt(d, LABEL, BID, 30 + k);
      assertArrayEquals(BID, TDH2.combine(d.group(), c, shares(d, c, 7, 6, 5, 4, 3).subList(0, k)));
      assertArrayEquals(BID, TDH2.combine(d.group(), c, shares(d, c, 1, 3, 5, 7, 2).subList(0, k)));
      try {
        TDH2.combine(d.group(), c, shares(d, c, 1, 2, 3, 4, 5).subList(0, k - 1));
        fail("k−1 shares decrypted (pitfall 1)");
      } catch (InsufficientSharesException expected) {
        // degree k−1: one share less is not enough
      }
    }
  }

  @Test
  public void emptyAndLongMessagesRoundTrip() throws Exception {
    byte[] big = new byte[200_000];
    new SecureRandom(new byte[] {1}).nextBytes(big);
    for (byte[] m : new byte[][] {new byte[0], big}) {
      Tdh2Ciphertext c = Tdh2Ciphertext.decode(encrypt(f1, new byte[0], m, 3).encode());
      assertArrayEquals(m, TDH2.combine(f1.group(), c, shares(f1, c, 3, 1)));
    }
  }

  @Test
  public void encodingIsCanonicalAndStrict() {
    Tdh2Ciphertext c = encrypt(f1, LABEL, BID, 4);
    byte[] e = c.encode();
    assertEquals(c, Tdh2Ciphertext.decode(e));
    assertArrayEquals(e, Tdh2Ciphertext.decode(e).encode());
    byte[] wrongScheme = e.clone();
    wrongScheme[0] = (byte) SchemeId.CKS.code();
    expectMalformed(wrongScheme);
    expectMalformed(Arrays.copyOf(e, 20));
    byte[] offCurve = e.clone();
    int u = 1 + 4 + LABEL.length + 4 + 1; // the x coordinate of u
    offCurve[u] ^= 1;
    offCurve[u + 1] ^= 1;
    try {
      Tdh2Ciphertext d = Tdh2Ciphertext.decode(offCurve);
      assertFalse("a changed u must not verify", TDH2.isValid(d));
    } catch (IllegalArgumentException expected) {
      // not a point on the curve
    }
  }

  private static void expectMalformed(byte[] b) {
    try {
      Tdh2Ciphertext.decode(b);
      fail("decoded a malformed ciphertext");
    } catch (IllegalArgumentException expected) {
      // refused
    }
  }

  // The label is bound by the validity proof: the ciphertext moved to another request is refused by everyone.
  @Test
  public void relabelledCiphertextIsRefused() throws Exception {
    Tdh2Ciphertext c = encrypt(f1, LABEL, BID, 5);
    Tdh2Ciphertext moved = Tdh2Tampering.relabelled(c,
        "urn:bftws:group|urn:uuid:attacker|1".getBytes(StandardCharsets.US_ASCII));
    assertFalse(TDH2.isValid(moved));
    expectInvalid(() -> TDH2.share(f1.group(), f1.share(1), moved));
    List<SignatureShare> honest = shares(f1, c, 1, 2);
    expectInvalid(() -> TDH2.combine(f1.group(), moved, honest));
  }

  @Test
  public void tamperedCiphertextIsRefused() throws Exception {
    Tdh2Ciphertext c = encrypt(f1, LABEL, BID, 6);
    byte[] payload = c.payload();
    payload[0] ^= 1;
    Tdh2Ciphertext flipped = Tdh2Tampering.withPayload(c, payload);
    assertFalse(TDH2.isValid(flipped));
    expectInvalid(() -> TDH2.share(f1.group(), f1.share(2), flipped));
    // a changed proof, or u and ū of another ciphertext
    byte[] e = c.encode();
    byte[] proofFlipped = e.clone();
    int fAt = 1 + 4 + LABEL.length + 2 * (4 + 33) + (4 + 32) + 4 + 31;
    proofFlipped[fAt] ^= 1;
    assertFalse(TDH2.isValid(Tdh2Ciphertext.decode(proofFlipped)));
    Tdh2Ciphertext other = encrypt(f1, LABEL, BID, 7);
    byte[] mixed = e.clone();
    System.arraycopy(other.encode(), 1 + 4 + LABEL.length, mixed, 1 + 4 + LABEL.length, 2 * (4 + 33));
    assertFalse(TDH2.isValid(Tdh2Ciphertext.decode(mixed)));
  }

  // A Byzantine encryptor: a valid proof over a payload that was not made with h^r. Every party fails alike.
  @Test
  public void validProofOverWrongPayloadFailsAlikeForAnyShares() throws Exception {
    Tdh2Ciphertext c = encrypt(f1, LABEL, BID, 8);
    Tdh2Ciphertext junk = TDH2.encrypt(TDH2.deal(ThresholdParams.forF(1), TestRandom.seeded(99)).group(), LABEL,
        BID, TestRandom.seeded(8)); // same r and s, another public key: another K
    Tdh2Ciphertext crafted = Tdh2Ciphertext.decode(junk.encode());
    assertTrue("valid: the proof does not involve h", TDH2.isValid(crafted));
    assertEquals(c.encode().length, crafted.encode().length);
    expectInvalid(() -> TDH2.combine(f1.group(), crafted, shares(f1, crafted, 1, 2)));
    expectInvalid(() -> TDH2.combine(f1.group(), crafted, shares(f1, crafted, 4, 3)));
  }

  @Test
  public void badShareIsNamedAndTheRestCombine() throws Exception {
    Tdh2Ciphertext c = encrypt(f1, LABEL, BID, 9);
    SignatureShare bad = forged(f1, c, 2, 3);
    assertFalse(TDH2.verifyShare(f1.group(), c, bad));
    List<SignatureShare> given = new ArrayList<>(List.of(TDH2.share(f1.group(), f1.share(1), c), bad,
        TDH2.share(f1.group(), f1.share(4), c)));
    try {
      TDH2.combine(f1.group(), c, given);
      fail("combined with a bad share among the first k");
    } catch (InvalidSharesException e) {
      assertEquals(List.of(2), e.badIndices());
    }
    given.remove(1);
    assertArrayEquals(BID, TDH2.combine(f1.group(), c, given));
  }

  @Test
  public void sharesAreCheckedAgainstTheGroupsVerificationKeys() throws Exception {
    Tdh2Ciphertext c = encrypt(f1, LABEL, BID, 10);
    SignatureShare s3 = TDH2.share(f1.group(), f1.share(3), c);
    assertTrue(TDH2.verifyShare(f1.group(), c, s3));
    // replica 3's correct share claimed by index 1; a share for another ciphertext; out-of-range index
    assertFalse(TDH2.verifyShare(f1.group(), c, new SignatureShare(SchemeId.TDH2, 1, s3.value(), s3.proof())));
    assertFalse(TDH2.verifyShare(f1.group(), encrypt(f1, LABEL, BID, 11), s3));
    assertFalse(TDH2.verifyShare(f1.group(), c, new SignatureShare(SchemeId.TDH2, 5, s3.value(), s3.proof())));
    assertFalse(TDH2.verifyShare(f1.group(), c, new SignatureShare(SchemeId.CKS, 3, s3.value(), s3.proof())));
    assertFalse(TDH2.verifyShare(f1.group(), c, new SignatureShare(SchemeId.TDH2, 3, new byte[33], s3.proof())));
    // and a share of another dealing of the same (n, k, t)
    Dealt other = TDH2.deal(ThresholdParams.forF(1), TestRandom.seeded(12));
    assertFalse(TDH2.verifyShare(f1.group(), c, TDH2.share(other.group(), other.share(3), c)));
  }

  @Test
  public void duplicateAndTooFewSharesAreRefused() throws Exception {
    Tdh2Ciphertext c = encrypt(f1, LABEL, BID, 13);
    SignatureShare s1 = TDH2.share(f1.group(), f1.share(1), c);
    try {
      TDH2.combine(f1.group(), c, List.of(s1, s1));
      fail("combined one share twice");
    } catch (DuplicateIndexException e) {
      assertEquals(1, e.index());
    }
    try {
      TDH2.combine(f1.group(), c, List.of(s1));
      fail("combined k−1 shares");
    } catch (InsufficientSharesException expected) {
      // k = f+1 = 2
    }
  }

  @Test
  public void encryptionIsRandomizedAndSharesDeterministic() throws Exception {
    Tdh2Ciphertext a = encrypt(f1, LABEL, BID, 14);
    Tdh2Ciphertext b = encrypt(f1, LABEL, BID, 15);
    assertNotEquals(a, b);
    assertEquals(a, encrypt(f1, LABEL, BID, 14)); // seeded: reproducible
    assertEquals(TDH2.share(f1.group(), f1.share(2), a), TDH2.share(f1.group(), f1.share(2), a));
  }

  @Test
  public void keysRoundTripThroughTheirEncodings() {
    GroupKey g = GroupKey.decode(f1.group().encode());
    assertEquals(SchemeId.TDH2, g.scheme());
    assertArrayEquals(f1.group().encode(), g.encode());
    KeyShare s = KeyShare.decode(f1.share(2).encode());
    assertTrue(TDH2.keyShareMatches(g, s));
    assertFalse(TDH2.keyShareMatches(g, KeyShare.decode(TDH2.deal(ThresholdParams.forF(1), TestRandom.seeded(16))
        .share(2).encode())));
    try {
      Thresholds.scheme(SchemeId.TDH2);
      fail("TDH2 offered as a coin scheme");
    } catch (IllegalArgumentException expected) {
      // a cryptosystem, not a signature scheme
    }
  }

  private interface Call {
    void run() throws Exception;
  }

  private static void expectInvalid(Call c) throws Exception {
    try {
      c.run();
      fail("an invalid ciphertext was accepted");
    } catch (InvalidCiphertextException expected) {
      // refused
    }
  }
}
