package org.bftws.core.crypto.threshold;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/** The share bookkeeping common to all schemes: checks on indices, optimistic combination, fallback. */
abstract class AbstractThresholdScheme implements ThresholdScheme {

  /**
   * Interpolates {@code used} (exactly k shares, distinct indices in 1..n) into the group value, without
   * verifying any of them. Returns null if some share does not even decode.
   */
  abstract GroupValue interpolate(GroupKey group, byte[] message, List<SignatureShare> used);

  /** Whether a combined value can be checked against the group key alone (BLS, RSA: yes; CKS: no). */
  abstract boolean publiclyVerifiable();

  @Override
  public final GroupValue combine(GroupKey group, byte[] message, Collection<SignatureShare> shares)
      throws ThresholdException {
    requireScheme(group.scheme());
    List<SignatureShare> given = checkIndices(id(), group.params(), shares);
    List<SignatureShare> used = given.subList(0, group.params().k());
    if (publiclyVerifiable()) {
      GroupValue v = interpolate(group, message, used);
      if (v != null && verifyCombined(group, message, v)) {
        return v;
      }
    } else if (badIndices(group, message, used).isEmpty()) {
      GroupValue v = interpolate(group, message, used);
      if (v != null) {
        return v;
      }
    }
    List<Integer> bad = badIndices(group, message, given);
    if (bad.isEmpty()) {
      // k valid shares always combine into a verifying value: our own state is broken.
      throw new IllegalStateException("valid shares did not combine (" + id().label() + ")");
    }
    throw new InvalidSharesException(bad);
  }

  /**
   * The shares in order, if their indices are distinct, of {@code scheme} and in 1..n, and at least k of them.
   *
   * @throws DuplicateIndexException two shares carry one index
   * @throws InvalidSharesException shares of another scheme or with an index outside 1..n (all named)
   * @throws InsufficientSharesException fewer than k shares
   */
  static List<SignatureShare> checkIndices(SchemeId scheme, ThresholdParams p, Collection<SignatureShare> shares)
      throws ThresholdException {
    Set<Integer> seen = new HashSet<>();
    Set<Integer> bad = new TreeSet<>();
    List<SignatureShare> out = new ArrayList<>(shares.size());
    for (SignatureShare s : shares) {
      if (!seen.add(s.index())) {
        throw new DuplicateIndexException(s.index());
      }
      if (s.scheme() != scheme || !p.isValidIndex(s.index())) {
        bad.add(s.index());
      }
      out.add(s);
    }
    if (!bad.isEmpty()) {
      throw new InvalidSharesException(new ArrayList<>(bad));
    }
    if (out.size() < p.k()) {
      throw new InsufficientSharesException(out.size(), p.k());
    }
    return out;
  }

  private List<Integer> badIndices(GroupKey group, byte[] message, List<SignatureShare> shares) {
    Set<Integer> bad = new TreeSet<>();
    for (SignatureShare s : shares) {
      if (!verifyShare(group, message, s)) {
        bad.add(s.index());
      }
    }
    return new ArrayList<>(bad);
  }

  /** The distinct indices of {@code used}, in order, for Lagrange coefficients. */
  static int[] indices(List<SignatureShare> used) {
    int[] set = new int[used.size()];
    for (int i = 0; i < set.length; i++) {
      set[i] = used.get(i).index();
    }
    return set;
  }

  static void requireCount(ThresholdParams params, List<byte[]> verificationKeys) {
    if (verificationKeys.size() != params.n()) {
      throw new IllegalArgumentException("need " + params.n() + " verification keys");
    }
  }

  /** Whether {@code key} was dealt for a group of this scheme with the same (n, k, t) as {@code group}. */
  boolean sameKey(GroupKey group, KeyShare key) {
    return group.scheme() == id() && key.scheme() == id() && group.params().equals(key.params());
  }

  /** A key share is only used with the group key it was dealt with (same scheme and (n, k, t)). */
  void requireSameKey(GroupKey group, KeyShare key) {
    requireScheme(group.scheme());
    requireScheme(key.scheme());
    if (!group.params().equals(key.params())) {
      throw new IllegalArgumentException("key share for " + key.params() + " used with a group of " + group.params());
    }
  }

  void requireScheme(SchemeId other) {
    if (other != id()) {
      throw new IllegalArgumentException("expected " + id().label() + " material, got " + other.label());
    }
  }

  /** Common argument checks for a share to be verified; false means "reject the share". */
  boolean acceptable(GroupKey group, SignatureShare share) {
    requireScheme(group.scheme());
    return share.scheme() == id() && group.params().isValidIndex(share.index());
  }
}
