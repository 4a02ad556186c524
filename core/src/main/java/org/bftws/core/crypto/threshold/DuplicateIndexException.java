package org.bftws.core.crypto.threshold;

/** Two shares carry the same index: Lagrange interpolation needs distinct points (docs/design/cryptography.md pitfall 8). */
public class DuplicateIndexException extends ThresholdException {
  private final int index;

  public DuplicateIndexException(int index) {
    super("duplicate share index " + index);
    this.index = index;
  }

  public int index() {
    return index;
  }
}
