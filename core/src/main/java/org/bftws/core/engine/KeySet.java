package org.bftws.core.engine;

import org.bftws.core.replication.CoinConfig;
import org.bftws.core.replication.Coins;
import org.bftws.core.replication.ConfidentialConfig;
import org.bftws.core.replication.Decryptions;

/**
 * A replica's threshold keys as {@link Engine#installKeys} takes them: the coin's group key, verification keys
 * and this replica's share ({@code coins}, null to keep the coin keys as they are) and the TDH2 ones
 * ({@code confidential}, null likewise).
 */
public record KeySet(CoinConfig coins, ConfidentialConfig confidential) {
  public KeySet {
    if (coins == null && confidential == null) {
      throw new IllegalArgumentException("a key set with no keys");
    }
  }

  /** An engine's {@link Engine#installKeys}: these keys serve the seqs above {@code orderedAt} in both. */
  public void installInto(long orderedAt, Coins coinTosses, Decryptions openings) {
    if (!coinTosses.changing()) {
      throw new IllegalStateException("an engine built with fixed threshold keys takes no others");
    }
    if (coins != null) {
      coinTosses.install(orderedAt, coins);
    }
    if (confidential != null) {
      openings.install(orderedAt, confidential);
    }
  }
}
