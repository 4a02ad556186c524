package org.bftws.core.crypto.threshold;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertFalse;

import java.util.Arrays;
import org.junit.Test;

/** Integrity paper §5 (sign d||n) and docs/design/cryptography.md pitfall 6 (no view number; canonical encoding). */
public class CoinMessageTest {
  @Test
  public void encodingIsCanonicalAndSeparatesItsFields() {
    byte[] g = {1, 2};
    byte[] d = {3, 4, 5};
    assertArrayEquals(CoinMessage.encode(g, 7, d), CoinMessage.encode(g.clone(), 7, d.clone()));
    assertFalse(Arrays.equals(CoinMessage.encode(g, 7, d), CoinMessage.encode(g, 8, d)));
    assertFalse(Arrays.equals(CoinMessage.encode(g, 7, d), CoinMessage.encode(new byte[] {1}, 7, new byte[] {2, 3, 4, 5})));
    assertFalse(Arrays.equals(CoinMessage.encode(g, 1L << 32, d), CoinMessage.encode(g, 1, d)));
  }
}
