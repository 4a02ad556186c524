package org.bftws.core.crypto.threshold;

/** The threshold schemes this package offers; {@link #code()} is the byte used in every canonical encoding. */
public enum SchemeId {
  /** Cachin-Kursawe-Shoup Diffie-Hellman coin on P-256 (SINTRA's coin). */
  CKS("cks", 1),
  /** Boldyreva threshold BLS on BLS12-381, signature in G1, key in G2. */
  BLS("bls", 2),
  /** Shoup, "Practical threshold signatures" (RSA, safe primes, full-domain hash). */
  RSA("rsa", 3),
  /**
   * Shoup-Gennaro TDH2 threshold cryptosystem on P-256 ({@link Tdh2}): not a signature or coin scheme, so
   * {@link Thresholds#scheme} refuses it; its keys use this package's {@link GroupKey} and {@link KeyShare}.
   */
  TDH2("tdh2", 4);

  private final String label;
  private final int code;

  SchemeId(String label, int code) {
    this.label = label;
    this.code = code;
  }

  /** The short name used on the command line and in key files. */
  public String label() {
    return label;
  }

  /** The byte that tags this scheme in canonical encodings. */
  public int code() {
    return code;
  }

  /** Whether this is a unique signature or coin scheme of {@link Thresholds#scheme} (all but TDH2). */
  public boolean signs() {
    return this != TDH2;
  }

  /** Parses a label ("cks", "bls", "rsa", "tdh2"). */
  public static SchemeId fromLabel(String label) {
    for (SchemeId id : values()) {
      if (id.label.equals(label)) {
        return id;
      }
    }
    throw new IllegalArgumentException("unknown threshold scheme '" + label + "' (expected cks, bls, rsa or tdh2)");
  }

  /** Parses the code byte of a canonical encoding. */
  public static SchemeId fromCode(int code) {
    for (SchemeId id : values()) {
      if (id.code == code) {
        return id;
      }
    }
    throw new IllegalArgumentException("unknown threshold scheme code " + code);
  }
}
