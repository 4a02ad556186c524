package org.bftws.core.crypto.threshold;

import java.util.List;

/** What the trusted dealer hands out: the public group key and one key share per replica (index i at i−1). */
public record Dealt(GroupKey group, List<KeyShare> shares) {
  public Dealt {
    shares = List.copyOf(shares);
  }

  /** The share of replica {@code index} (1..n). */
  public KeyShare share(int index) {
    return shares.get(index - 1);
  }
}
