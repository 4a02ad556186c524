package org.bftws.core.async;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.bftws.core.crypto.threshold.GroupKey;
import org.bftws.core.crypto.threshold.GroupValue;
import org.bftws.core.crypto.threshold.KeyShare;
import org.bftws.core.crypto.threshold.SignatureShare;
import org.bftws.core.crypto.threshold.ThresholdException;
import org.bftws.core.crypto.threshold.ThresholdScheme;

/**
 * SINTRA §2.1's threshold signature as the certificate: an (n, k, f) dual-threshold signature with k =
 * ⌈(n+f+1)/2⌉ (Shoup's RSA, {@code ShoupRsa}, as in SINTRA; any publicly verifiable scheme of {@code
 * crypto.threshold} fits). The certificate is one standard signature of constant size whatever n, checked
 * with one verification; making it costs the sender k share verifications and a combination.
 *
 * <p>Party i (0-based replica id) holds key share i+1. Shares travel as {@link SignatureShare#encode()}; the
 * certificate is {@link GroupValue#encode()} of the combined signature.
 */
public final class ThresholdSignatures implements QuorumSignatures {
  private final ThresholdScheme scheme;
  private final GroupKey group;
  private final KeyShare key;

  /**
   * @param key this replica's key share, or null for a party that only verifies certificates
   * @throws IllegalArgumentException the key's k is not ⌈(n+f+1)/2⌉, or the key share is another group's
   */
  public ThresholdSignatures(ThresholdScheme scheme, GroupKey group, KeyShare key) {
    int n = group.params().n();
    int f = group.params().t();
    if (group.params().k() != QuorumSignatures.echoQuorum(n, f)) {
      throw new IllegalArgumentException("consistent broadcast needs k = ⌈(n+f+1)/2⌉, key has " + group.params());
    }
    if (key != null && !scheme.keyShareMatches(group, key)) {
      throw new IllegalArgumentException("key share " + key.index() + " is not of this group key");
    }
    this.scheme = scheme;
    this.group = group;
    this.key = key;
  }

  @Override
  public int quorum() {
    return group.params().k();
  }

  @Override
  public byte[] share(byte[] message) {
    if (key == null) {
      throw new IllegalStateException("no key share: this party only verifies certificates");
    }
    return scheme.share(group, key, message).encode();
  }

  @Override
  public boolean verifyShare(int party, byte[] message, byte[] share) {
    try {
      SignatureShare s = SignatureShare.decode(share);
      return s.index() == party + 1 && scheme.verifyShare(group, message, s);
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  @Override
  public byte[] combine(byte[] message, Map<Integer, byte[]> shares) {
    if (shares.size() < quorum()) {
      throw new IllegalArgumentException(shares.size() + " shares, need " + quorum());
    }
    List<SignatureShare> list = new ArrayList<>();
    new TreeMap<>(shares).values().stream().limit(quorum()).forEach(b -> list.add(SignatureShare.decode(b)));
    try {
      return scheme.combine(group, message, list).encode();
    } catch (ThresholdException e) {
      // every share passed verifyShare: a failure here is our own bug, not a peer's
      throw new IllegalStateException("verified shares did not combine", e);
    }
  }

  @Override
  public boolean verify(byte[] message, byte[] certificate) {
    try {
      GroupValue v = GroupValue.decode(certificate);
      return v.scheme() == scheme.id() && scheme.verifyCombined(group, message, v);
    } catch (IllegalArgumentException e) {
      return false;
    }
  }
}
