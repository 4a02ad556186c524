package org.bftws.core.crypto.threshold;

import java.util.List;

/**
 * Some shares failed verification against the group's verification keys (found by the fallback of the
 * optimistic combination). {@link #badIndices()} names the replicas whose shares were bad, so the caller can
 * record evidence and combine again without them.
 */
public class InvalidSharesException extends ThresholdException {
  private final List<Integer> badIndices;

  public InvalidSharesException(List<Integer> badIndices) {
    super("invalid threshold shares from indices " + badIndices);
    this.badIndices = List.copyOf(badIndices);
  }

  /** The indices of the shares that did not verify, ascending. */
  public List<Integer> badIndices() {
    return badIndices;
  }
}
