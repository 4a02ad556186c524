package org.bftws.sim.bench;

import java.util.ArrayList;
import java.util.List;
import org.bftws.core.engine.Effect;
import org.bftws.core.message.Request;
import org.bftws.core.testkit.EffectPerformer;

/**
 * The benches' application, as {@link EffectPerformer} runs it: each operation is its own result, a state
 * capture returns a fixed 32-byte digest, and an installed state changes nothing; {@code onBatch} is told
 * of the size of each executed batch (what a bench counts).
 */
final class EchoService implements EffectPerformer.Service {
  /** Told of each executed batch's size. */
  @FunctionalInterface
  interface BatchCounter {
    void executed(int requests);
  }

  private final BatchCounter onBatch;

  EchoService(BatchCounter onBatch) {
    this.onBatch = onBatch;
  }

  @Override
  public List<byte[]> execute(Effect.Execute ex) {
    List<byte[]> results = new ArrayList<>(ex.requests().size());
    for (Request q : ex.requests()) {
      results.add(q.operation());
    }
    onBatch.executed(results.size());
    return results;
  }

  @Override
  public byte[] state() {
    return new byte[32];
  }

  @Override
  public void install(byte[] state) {
    // the digest is fixed
  }
}
