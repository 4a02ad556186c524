package org.bftws.core.crypto.threshold;

/** Fewer than k shares were given: k−1 shares must never yield the group value (docs/design/cryptography.md pitfall 1). */
public class InsufficientSharesException extends ThresholdException {
  public InsufficientSharesException(int given, int k) {
    super("need " + k + " shares with distinct indices, got " + given);
  }
}
