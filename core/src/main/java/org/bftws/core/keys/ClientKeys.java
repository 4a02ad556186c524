package org.bftws.core.keys;

import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;

/** A client's private signing key (the content of {@code client-J.key}). Never log it. */
public record ClientKeys(int index, Ed25519PrivateKeyParameters signingKey) {
  @Override
  public String toString() {
    return "private key of client " + index + " (not shown)";
  }
}
