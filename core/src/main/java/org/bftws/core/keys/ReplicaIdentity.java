package org.bftws.core.keys;

import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;

/**
 * A replica's individual private keys, generated on its own host (the content of {@code replica-I.id}): its
 * Ed25519 signing key and the P-256 secret that opens the shares dealt to it by the distributed key
 * generation. Never log it.
 */
public record ReplicaIdentity(int index, Ed25519PrivateKeyParameters signingKey, byte[] encryptionSecret) {
  public ReplicaIdentity {
    encryptionSecret = encryptionSecret.clone();
  }

  @Override
  public byte[] encryptionSecret() {
    return encryptionSecret.clone();
  }

  @Override
  public String toString() {
    return "individual keys of replica " + index + " (not shown)";
  }
}
