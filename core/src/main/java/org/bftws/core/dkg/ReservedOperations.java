package org.bftws.core.dkg;

import java.util.Arrays;
import java.util.List;

/**
 * The replicas' own operations that the group orders like requests ({@link GroupDkg}, {@link GroupRefresh}):
 * magic ‖ tag ‖ body, recognised by their magic, a malformed one turned into a fault that changes nothing.
 */
final class ReservedOperations {
  private ReservedOperations() {
  }

  static boolean is(byte[] magic, byte[] operation) {
    return operation.length > magic.length && Arrays.equals(operation, 0, magic.length, magic, 0, magic.length);
  }

  static byte[] encode(byte[] magic, int tag, byte[] body) {
    byte[] op = new byte[magic.length + 1 + body.length];
    System.arraycopy(magic, 0, op, 0, magic.length);
    op[magic.length] = (byte) tag;
    System.arraycopy(body, 0, op, magic.length + 1, body.length);
    return op;
  }

  /** Each message of {@code step} as an operation with {@code tag}, after {@code prefix}, into {@code out}. */
  static void wrap(byte[] magic, int tag, byte[] prefix, Dkg.Step step, List<byte[]> out) {
    for (DkgMessage m : step.toOrder()) {
      byte[] body = m.encode();
      byte[] full = Arrays.copyOf(prefix, prefix.length + body.length);
      System.arraycopy(body, 0, full, prefix.length, body.length);
      out.add(encode(magic, tag, full));
    }
  }

  /** Runs {@code take}; a malformed operation (IllegalArgumentException) becomes a fault in {@code faults}. */
  static void guarded(int submitter, String what, Runnable take, List<String> faults) {
    try {
      take.run();
    } catch (IllegalArgumentException e) {
      faults.add("replica " + submitter + ": malformed " + what + " operation: " + e.getMessage());
    }
  }
}
