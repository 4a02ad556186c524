package org.bftws.core.testkit;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.bftws.core.codec.ByteWriter;
import org.bftws.core.crypto.Digests;
import org.bftws.core.message.Request;
import org.bftws.core.engine.Effect;

/**
 * The replicated service of the in-memory cluster and the simulator: its state is a hash chain over every
 * executed request and its random number, so any difference in order, content or random number between
 * replicas shows in every later reply and checkpoint. The simulator's checker replays the agreed history on a
 * fresh instance (S7).
 */
public final class HashChainApp {
  private byte[] state = new byte[Digests.LENGTH];

  /** Executes {@code q} with its random number (empty when not randomized); the reply is 8 bytes of the state. */
  public byte[] execute(Request q, byte[] random) {
    byte[] input = new ByteWriter(64 + q.operation().length).raw(state).str(q.sequenceId()).i64(q.messageNumber())
        .bytes(q.operation()).bytes(random).toBytes();
    state = Digests.sha256(input);
    return Arrays.copyOf(state, 8);
  }

  /** Executes the requests of {@code ex} in order, each with its random number; their replies. */
  public List<byte[]> execute(Effect.Execute ex) {
    List<byte[]> results = new ArrayList<>();
    for (int j = 0; j < ex.requests().size(); j++) {
      results.add(execute(ex.requests().get(j), ex.randoms().get(j)));
    }
    return results;
  }

  /** The state for a checkpoint ({@code get_state}). */
  public byte[] getState() {
    return state.clone();
  }

  /** Installs a checkpoint's state ({@code set_state}). */
  public void setState(byte[] s) {
    state = s.clone();
  }
}
