package org.bftws.core.crypto;

/**
 * Checks a signature against the public key the group configuration holds for a node (replica or
 * client). Never against a key carried in the message itself (docs/design/cryptography.md, pitfall 3).
 */
public interface Verifier {
  /** False for a wrong signature and for a node the group does not know. */
  boolean verify(int node, byte[] data, byte[] signature);
}
