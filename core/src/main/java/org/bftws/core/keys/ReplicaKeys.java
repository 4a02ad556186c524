package org.bftws.core.keys;

import org.bftws.core.crypto.threshold.KeyShare;
import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;

/**
 * A replica's private material (the content of {@code replica-I.key}): its threshold key share, its TDH2
 * decryption key share and its Ed25519 signing key. Never log it.
 */
public record ReplicaKeys(int index, KeyShare share, KeyShare decryption, Ed25519PrivateKeyParameters signingKey) {
  @Override
  public String toString() {
    return "private keys of replica " + index + " (not shown)";
  }
}
