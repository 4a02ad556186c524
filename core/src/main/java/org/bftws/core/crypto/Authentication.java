package org.bftws.core.crypto;

/**
 * How replicas authenticate the normal-case messages they send each other (docs/design/cryptography.md,
 * "Authenticators"). Client requests, replies and every message that goes into a certificate stay signed
 * either way.
 */
public enum Authentication {
  /** Every protocol message is verified by its Ed25519 signature on arrival (Castro-Liskov OSDI'99, §4). */
  SIGNATURES,
  /**
   * Prepares and commits carry an authenticator (a vector of MACs with pairwise keys, Castro-Liskov TOCS
   * 2002 §3.2) besides their signature; a receiver checks its MAC on arrival and a prepare's signature only
   * when the prepare goes into this replica's prepared certificate; commits' signatures are never checked.
   */
  MACS;

  /**
   * The default of {@code bftws.authentication} and of the simulator: MACs, measured cheaper (the engine
   * alone, batch 1: 2.3× fewer signature checks per request; docs/performance.md, "Authentication") and kept
   * by every simulator invariant under the Twins and mutate nemeses.
   */
  public static final Authentication DEFAULT = MACS;

  public static Authentication parse(String s) {
    return valueOf(s.trim().toUpperCase());
  }

  public String label() {
    return name().toLowerCase();
  }
}
