package org.bftws.core.keys;

import java.util.List;
import org.bftws.core.crypto.threshold.GroupKey;
import org.bftws.core.crypto.threshold.SchemeId;
import org.bftws.core.crypto.threshold.ThresholdScheme;
import org.bftws.core.crypto.threshold.Thresholds;
import org.bouncycastle.crypto.params.Ed25519PublicKeyParameters;

/**
 * All public material of a replica group (the content of {@code group.pub}): n = replicas, f, the threshold
 * k, the threshold group key with its per-replica verification keys, the TDH2 encryption key of confidential
 * requests (SINTRA §2.6: the channel's public key, with its verification keys; the same (n, k, t)), and the
 * Ed25519 public keys of replicas 1..n ({@code replicaKeys.get(i-1)}) and clients 1..C.
 */
public record GroupKeys(int n, int f, int k, GroupKey threshold, GroupKey encryption,
    List<Ed25519PublicKeyParameters> replicaKeys, List<Ed25519PublicKeyParameters> clientKeys) {
  public GroupKeys {
    if (encryption.scheme() != SchemeId.TDH2 || !encryption.params().equals(threshold.params())) {
      throw new IllegalArgumentException("the encryption key must be a TDH2 key of the group's (n, k, t)");
    }
    replicaKeys = List.copyOf(replicaKeys);
    clientKeys = List.copyOf(clientKeys);
  }

  public SchemeId scheme() {
    return threshold.scheme();
  }

  /** The scheme object to share / verify / combine with {@link #threshold()}. */
  public ThresholdScheme thresholdScheme() {
    return Thresholds.scheme(threshold.scheme());
  }

  /** Ed25519 public key of replica {@code index} (1..n). */
  public Ed25519PublicKeyParameters replicaKey(int index) {
    return replicaKeys.get(index - 1);
  }

  /** Ed25519 public key of client {@code index} (1..clients). */
  public Ed25519PublicKeyParameters clientKey(int index) {
    return clientKeys.get(index - 1);
  }
}
