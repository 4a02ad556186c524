package org.bftws.core.engine;

import org.bftws.core.crypto.threshold.GroupValue;
import org.bftws.core.replication.CoinConfig;

/**
 * What a third party needs to check a CT random number (integrity paper §5): the message the group signed
 * ({@link CoinConfig#requestCoinMessage}) and the combined {@link GroupValue}, whose coin value is the number.
 * With threshold BLS the value is the group's unique signature on the message, checkable with the group key
 * alone. {@link #NONE} for a request without one (not randomized, BA, one coin per batch).
 */
public record CoinProof(byte[] message, GroupValue value) {
  public static final CoinProof NONE = new CoinProof(new byte[0], null);

  public CoinProof {
    message = message.clone();
  }

  @Override
  public byte[] message() {
    return message.clone();
  }

  public boolean present() {
    return value != null;
  }
}
