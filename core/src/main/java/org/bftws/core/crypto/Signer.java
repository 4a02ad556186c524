package org.bftws.core.crypto;

/** Signs with one node's private key. Pluggable; Ed25519 by default. */
public interface Signer {
  byte[] sign(byte[] data);
}
