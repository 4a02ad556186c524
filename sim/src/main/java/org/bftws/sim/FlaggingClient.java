package org.bftws.sim;

import java.util.Random;
import org.bftws.core.crypto.Signer;
import org.bftws.core.message.Kind;
import org.bftws.core.message.Request;
import org.bftws.core.message.Signed;

/**
 * A Byzantine client that flags operations randomized which are not (integrity paper §4: making the group
 * toss coins or draw contributions for nothing is a DoS vector), with its own key and sequence — the
 * identity a colluding Byzantine primary batches such requests with. Every correct replica must refuse
 * them: none is ever executed.
 */
final class FlaggingClient {
  final int id;
  private final Signer signer;
  private final String sequenceId;
  private final Random rng;
  private long number;

  FlaggingClient(int id, Signer signer, long seed) {
    this.id = id;
    this.signer = signer;
    this.sequenceId = "urn:uuid:sim-" + seed + "-flagging";
    this.rng = new Random(seed * 0x2545F4914F6CDD1DL + 17);
  }

  /** The next request: flagged randomized, its operation unmarked (so not randomized). */
  Request next() {
    byte[] op = new byte[8 + rng.nextInt(24)];
    rng.nextBytes(op);
    return new Request(id, sequenceId, ++number, true, MarkedOperations.mark(op, false));
  }

  Signed sign(Request q) {
    return Signed.sign(Kind.REQUEST, id, q.encode(), signer);
  }
}
