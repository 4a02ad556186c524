package org.bftws.core.crypto;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/** SHA-256, the digest of requests, batches and checkpoints (Castro-Liskov §4: D(m)). */
public final class Digests {
  public static final int LENGTH = 32;

  private Digests() {}

  public static byte[] sha256(byte[]... parts) {
    MessageDigest md = newSha256();
    for (byte[] p : parts) {
      md.update(p);
    }
    return md.digest();
  }

  public static MessageDigest newSha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("JDK without SHA-256", e);
    }
  }

  public static String hex(byte[] b, int max) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < Math.min(b.length, max); i++) {
      sb.append(Character.forDigit((b[i] >> 4) & 0xf, 16)).append(Character.forDigit(b[i] & 0xf, 16));
    }
    return sb.toString();
  }
}
