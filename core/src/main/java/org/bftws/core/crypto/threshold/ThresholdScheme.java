package org.bftws.core.crypto.threshold;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collection;

/**
 * A non-interactive (n, k, t) dual-threshold unique signature or coin scheme, after SINTRA §3.1's
 * {@code ThresholdCoin} (release / verify / assemble), without its mutable init-update modes.
 *
 * <p>Use in the CT algorithm (integrity paper §5): each replica calls {@link #share} on the canonical
 * encoding of (group id, sequence number n, request digest d) — never the view number (docs/design/cryptography.md pitfall
 * 6) — and piggybacks the share on its commit; with 2f+1 commits a replica calls {@link #combine} on k of the
 * shares and delivers {@link #coinValue} of the result with the request.
 *
 * <p>All methods are thread-safe and deterministic (proof nonces are derived from the key and message).
 */
public interface ThresholdScheme extends ThresholdKeys {
  /** This replica's share of the group value on {@code message}, with its proof. */
  SignatureShare share(GroupKey group, KeyShare key, byte[] message);

  /**
   * Verifies a share against the group's verification key of {@code share.index()}. False for a share of
   * another scheme, an index outside 1..n, a malformed encoding or a wrong value or proof.
   */
  boolean verifyShare(GroupKey group, byte[] message, SignatureShare share);

  /**
   * Optimistic combination (docs/design/cryptography.md pitfall 9): interpolates the first k shares (in the given order),
   * verifies the result once against the group key and returns it; only if that fails does it verify every
   * given share. CKS cannot check a combined value without the proofs, so it verifies the k shares used.
   *
   * @throws DuplicateIndexException two shares carry one index
   * @throws InsufficientSharesException fewer than k shares
   * @throws InvalidSharesException some shares are bad; {@code badIndices()} names every bad share given
   *     (shares of another scheme or with an index outside 1..n are reported at once, before any check)
   */
  GroupValue combine(GroupKey group, byte[] message, Collection<SignatureShare> shares)
      throws ThresholdException;

  /** Verifies a combined value against the group key (CKS: also its evidence) for {@code message}. */
  boolean verifyCombined(GroupKey group, byte[] message, GroupValue value);

  /**
   * The coin: SHA-256 of the unique group value's canonical bytes (integrity paper §5: "hashing the group
   * signature with a secure hash function"; SINTRA's coin hashes g̃^x). Take leading bits as needed.
   */
  default byte[] coinValue(GroupValue combined) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(combined.unique());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 unavailable", e);
    }
  }
}
