package org.bftws.core.replication;

import java.util.function.Function;

/**
 * When the coin shares ({@link Coins}) and decryption shares ({@link Decryptions}) of a final batch may go out in
 * a group whose keys change while it runs: each keeps its own {@link KeyEpochs}, and an engine tells both of
 * the same three things through this one object, so the two never disagree on which keys serve a seq.
 */
public final class ShareRelease {
  private final Coins coins;
  private final Decryptions decryptions;

  public ShareRelease(Coins coins, Decryptions decryptions) {
    this.coins = coins;
    this.decryptions = decryptions;
  }

  /** The results of every batch up to seq are back: the keys of seq + 1 are known. */
  public void settled(long seq) {
    each(k -> k.settle(seq));
  }

  /**
   * A checkpoint at seq was installed by state transfer: settled up to it, but with keys that change nothing
   * above it goes out before the embedding has installed its state and the keys it delivered. {@code withState}:
   * the engine handed that state to the embedding ({@code Effect.InstallState}); a replica that only orders
   * (BFT-WS §3.3.2) gets none, and no confirmation comes to wait for.
   */
  public void checkpointInstalled(long seq, boolean withState) {
    each(k -> withState ? k.checkpointInstalled(seq) : k.settle(seq));
  }

  /** The embedding installed the checkpoint's state at seq and the keys it delivered ({@code Engine#stateInstalled}). */
  public void stateInstalled(long seq) {
    each(k -> k.stateInstalled(seq));
  }

  private void each(Function<KeyEpochs<?>, KeyEpochs.Deferred> step) {
    coins.release(step.apply(coins.epochs()));
    decryptions.release(step.apply(decryptions.epochs()));
  }
}
