package org.bftws.core.crypto.threshold;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Deterministic proof nonces, in the spirit of RFC 6979: the nonce of a share proof is a PRF (HMAC-SHA256 in
 * counter mode) of the replica's secret share and of the message. The core has no randomness of its own
 * (docs/design/style.md: no {@code new Random()} in core), the simulator stays reproducible, and a weak RNG can never
 * leak a share through a repeated nonce. Different messages give independent nonces; the same message gives
 * the same proof, which reveals nothing new.
 */
final class Nonces {
  private Nonces() {}

  /** A uniform-looking natural number of {@code bits} bits derived from (domain, secret, message). */
  static BigInteger derive(String domain, byte[] secret, byte[] message, int bits) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret.length == 0 ? new byte[1] : secret, "HmacSHA256"));
      int len = (bits + 7) / 8;
      byte[] out = new byte[len];
      byte[] dom = domain.getBytes(StandardCharsets.US_ASCII);
      for (int off = 0, ctr = 0; off < len; ctr++) {
        mac.update(new byte[] {(byte) (ctr >>> 24), (byte) (ctr >>> 16), (byte) (ctr >>> 8), (byte) ctr});
        mac.update(dom);
        mac.update(message);
        byte[] block = mac.doFinal();
        int n = Math.min(block.length, len - off);
        System.arraycopy(block, 0, out, off, n);
        off += n;
      }
      return new BigInteger(1, out).shiftRight(len * 8 - bits);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 unavailable", e);
    }
  }
}
