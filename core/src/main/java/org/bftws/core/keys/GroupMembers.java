package org.bftws.core.keys;

import java.util.List;
import org.bftws.core.crypto.threshold.SchemeId;
import org.bftws.core.crypto.threshold.ThresholdParams;
import org.bouncycastle.crypto.params.Ed25519PublicKeyParameters;

/**
 * The configuration of a group whose threshold keys are not dealt (the content of {@code members.pub}): which
 * coin scheme its distributed key generation makes (cks or bls; TDH2 is always made beside it), n, f, k, each
 * replica's Ed25519 public key and P-256 encryption key for the DKG's encrypted shares
 * ({@code org.bftws.core.dkg.ShareCipher}), and the clients' Ed25519 public keys. Every key in it was generated
 * on its owner's host ({@code scripts/keygen --replica I}); no file holds anyone else's secret.
 */
public record GroupMembers(SchemeId scheme, int n, int f, int k, List<Ed25519PublicKeyParameters> replicaKeys,
    List<byte[]> encryptionKeys, List<Ed25519PublicKeyParameters> clientKeys) {
  public GroupMembers {
    if (!scheme.signs() || scheme == SchemeId.RSA) {
      throw new IllegalArgumentException("the coin of a group without a dealer is cks or bls, not " + scheme.label());
    }
    new ThresholdParams(n, k, f);
    if (replicaKeys.size() != n || encryptionKeys.size() != n) {
      throw new IllegalArgumentException("need the signing and encryption keys of all " + n + " replicas");
    }
    replicaKeys = List.copyOf(replicaKeys);
    encryptionKeys = encryptionKeys.stream().map(byte[]::clone).toList();
    clientKeys = List.copyOf(clientKeys);
  }

  public ThresholdParams params() {
    return new ThresholdParams(n, k, f);
  }

  /** Ed25519 public key of replica {@code index} (1..n). */
  public Ed25519PublicKeyParameters replicaKey(int index) {
    return replicaKeys.get(index - 1);
  }

  @Override
  public List<byte[]> encryptionKeys() {
    return encryptionKeys.stream().map(byte[]::clone).toList();
  }
}
