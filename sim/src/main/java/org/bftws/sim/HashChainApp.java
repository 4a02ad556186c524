package org.bftws.sim;

import java.util.Arrays;
import org.bftws.core.codec.ByteWriter;
import org.bftws.core.crypto.Digests;
import org.bftws.core.message.Request;

/**
 * The simulated service: its state is a hash chain over every executed request, so any difference in
 * order or content between replicas shows in every later reply and checkpoint. The checker replays the
 * agreed history on a fresh instance (S7).
 */
final class HashChainApp {
  private byte[] state = new byte[Digests.LENGTH];

  byte[] execute(Request q, byte[] random) {
    byte[] input = new ByteWriter(64 + q.operation().length).raw(state).str(q.sequenceId()).i64(q.messageNumber())
        .bytes(q.operation()).bytes(random).toBytes();
    state = Digests.sha256(input);
    return Arrays.copyOf(state, 8);
  }

  byte[] getState() {
    return state.clone();
  }

  void setState(byte[] s) {
    state = s.clone();
  }
}
