package org.bftws.core.crypto;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.util.Arrays;
import org.bftws.core.testkit.TestKeys;
import org.junit.Test;

/** Authenticators (Castro-Liskov TOCS 2002 §3.2) with pairwise keys from the replicas' Ed25519 keys. */
public class AuthenticatorsTest {
  private static final int N = 4;
  private final TestKeys keys = TestKeys.seeded(N, 7);
  private final byte[] digest = Digests.sha256(new byte[] {1, 2, 3});

  // RFC 7748 §4.1: the X25519 image of an Ed25519 public key is the public key of the X25519 image of its
  // private key — what makes both ends of a pair derive the same shared secret.
  @Test
  public void x25519ImageOfThePublicKeyMatchesTheImageOfThePrivateKey() {
    for (int i = 0; i < N; i++) {
      assertArrayEquals("key " + i, Authenticators.x25519Private(keys.privateKey(i)).generatePublicKey().getEncoded(),
          Authenticators.x25519Public(keys.publicKey(i)).getEncoded());
    }
  }

  @Test
  public void everyReceiverAcceptsItsEntryOfTheSendersAuthenticator() {
    for (int i = 0; i < N; i++) {
      byte[] a = keys.authenticators(i, N).authenticator(digest);
      assertEquals(N * Authenticators.TAG, a.length);
      for (int j = 0; j < N; j++) {
        assertEquals(i + "->" + j, i != j, keys.authenticators(j, N).check(i, digest, a));
      }
    }
  }

  // Directional keys: an entry made for one receiver is worthless at another, and the sender's own key
  // to a replica does not authenticate that replica's messages back to it.
  @Test
  public void anEntryIsBoundToItsSenderItsReceiverAndTheDigest() {
    Authenticators r1 = keys.authenticators(1, N);
    byte[] a = keys.authenticators(0, N).authenticator(digest);
    assertFalse("another claimed sender", r1.check(2, digest, a));
    byte[] other = Digests.sha256(new byte[] {9});
    assertFalse("another digest", r1.check(0, other, a));
    byte[] swapped = a.clone();
    System.arraycopy(a, 2 * Authenticators.TAG, swapped, Authenticators.TAG, Authenticators.TAG);
    assertFalse("replica 2's entry in replica 1's place", r1.check(0, digest, swapped));
    byte[] fromOneToZero = r1.authenticator(digest);
    assertFalse("1's own authenticator presented as 0's", r1.check(0, digest, fromOneToZero));
    assertFalse("absent", r1.check(0, digest, null));
    assertFalse("truncated", r1.check(0, digest, Arrays.copyOf(a, a.length - 1)));
  }

  @Test
  public void anotherGroupsKeysDoNotAuthenticate() {
    TestKeys otherKeys = TestKeys.seeded(N, 8);
    byte[] a = otherKeys.authenticators(0, N).authenticator(digest);
    assertFalse(keys.authenticators(1, N).check(0, digest, a));
    assertTrue(otherKeys.authenticators(1, N).check(0, digest, a));
  }
}
