package org.bftws.sim.bench;

import java.security.SecureRandom;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.bftws.core.crypto.threshold.Dealt;
import org.bftws.core.crypto.threshold.GroupKey;
import org.bftws.core.crypto.threshold.GroupValue;
import org.bftws.core.crypto.threshold.KeyShare;
import org.bftws.core.crypto.threshold.SchemeId;
import org.bftws.core.crypto.threshold.SignatureShare;
import org.bftws.core.crypto.threshold.ThresholdException;
import org.bftws.core.crypto.threshold.ThresholdParams;
import org.bftws.core.crypto.threshold.ThresholdScheme;

/**
 * A threshold scheme that counts what the replicas ask of it: shares made, shares verified, combinations
 * and combined values verified (SINTRA §2.1's release / verify / assemble). It counts calls, not the
 * scheme's inner checks: CKS's {@code combine} verifies the k shares it interpolates inside that one call.
 * One instance per group, so the counts are the group's; the engine sees the scheme through its
 * {@code CoinConfig} and cannot tell it from the one it wraps.
 */
final class CountingScheme implements ThresholdScheme {
  private final ThresholdScheme inner;
  final AtomicLong shares = new AtomicLong();
  final AtomicLong verifiedShares = new AtomicLong();
  final AtomicLong combines = new AtomicLong();
  final AtomicLong verifiedCombined = new AtomicLong();

  CountingScheme(ThresholdScheme inner) {
    this.inner = inner;
  }

  @Override
  public SchemeId id() {
    return inner.id();
  }

  @Override
  public Dealt deal(ThresholdParams params, SecureRandom random) {
    return inner.deal(params, random);
  }

  @Override
  public GroupKey groupKey(ThresholdParams params, byte[] common, List<byte[]> verificationKeys) {
    return inner.groupKey(params, common, verificationKeys);
  }

  @Override
  public KeyShare keyShare(ThresholdParams params, int index, byte[] secret) {
    return inner.keyShare(params, index, secret);
  }

  @Override
  public boolean keyShareMatches(GroupKey group, KeyShare share) {
    return inner.keyShareMatches(group, share);
  }

  @Override
  public SignatureShare share(GroupKey group, KeyShare key, byte[] message) {
    shares.incrementAndGet();
    return inner.share(group, key, message);
  }

  @Override
  public boolean verifyShare(GroupKey group, byte[] message, SignatureShare share) {
    verifiedShares.incrementAndGet();
    return inner.verifyShare(group, message, share);
  }

  @Override
  public GroupValue combine(GroupKey group, byte[] message, Collection<SignatureShare> shares)
      throws ThresholdException {
    combines.incrementAndGet();
    return inner.combine(group, message, shares);
  }

  @Override
  public boolean verifyCombined(GroupKey group, byte[] message, GroupValue value) {
    verifiedCombined.incrementAndGet();
    return inner.verifyCombined(group, message, value);
  }

  @Override
  public byte[] coinValue(GroupValue combined) {
    return inner.coinValue(combined);
  }
}
