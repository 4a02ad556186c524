package org.bftws.core.replication;

import java.util.function.Supplier;
import org.bftws.core.engine.CoinProof;

/**
 * Execution hooks whose random numbers and their proofs are the group's coins' ({@link Coins}), as in the
 * asynchronous and the hybrid engine; the engine says what ordering and opening a request mean to it.
 */
public abstract class CoinHooks implements ExecutionPipeline.Hooks {
  private final Supplier<Coins> coins;

  /** @param coins the engine's coins, asked at each execution (they may be built after the hooks) */
  protected CoinHooks(Supplier<Coins> coins) {
    this.coins = coins;
  }

  @Override
  public final byte[] random(long seq, int i) {
    return coins.get().random(seq, i);
  }

  @Override
  public final CoinProof proof(long seq, int i) {
    return coins.get().proof(seq, i);
  }
}
