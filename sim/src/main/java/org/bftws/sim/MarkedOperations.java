package org.bftws.sim;

import org.bftws.core.message.Request;
import org.bftws.core.replication.RandomizedOperations;

/**
 * The simulator's randomized operations (integrity paper §4: the replicas, not the client, decide which
 * operations are randomized): an operation is randomized iff its first byte is {@link #MARKER}, as a
 * service's WSDL would declare a "deal" operation randomized and an "echo" one not. Every replica and the
 * checker use this predicate when the run has randomness, so a request the client flags while its
 * operation is unmarked is refused.
 */
final class MarkedOperations {
  /** The first byte of a randomized operation ('R'). */
  static final byte MARKER = 0x52;

  static final RandomizedOperations PREDICATE = MarkedOperations::isMarked;

  private MarkedOperations() {}

  static boolean isMarked(Request q) {
    return q.operation().length > 0 && q.operation()[0] == MARKER;
  }

  /** The operation, its first byte made the marker (randomized) or anything else (not). */
  static byte[] mark(byte[] operation, boolean randomized) {
    if (randomized) {
      operation[0] = MARKER;
    } else if (operation[0] == MARKER) {
      operation[0] = MARKER + 1;
    }
    return operation;
  }
}
