package org.bftws.core.crypto.threshold;

/**
 * Ciphertexts an attacker derives from a valid TDH2 ciphertext by changing one part and keeping the rest: the
 * validity proof (Shoup-Gennaro 1998, TDH2), which binds u and ū to the label and the payload, no longer holds.
 */
public final class Tdh2Tampering {
  private Tdh2Tampering() {
  }

  /** The same ciphertext with another label: moved to another request. */
  public static Tdh2Ciphertext relabelled(Tdh2Ciphertext c, byte[] label) {
    return new Tdh2Ciphertext(label, c.payload(), c.u, c.uBar, c.proof);
  }

  /** The same ciphertext with another payload. */
  public static Tdh2Ciphertext withPayload(Tdh2Ciphertext c, byte[] payload) {
    return new Tdh2Ciphertext(c.label(), payload, c.u, c.uBar, c.proof);
  }
}
