package org.bftws.core.voter;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The BFT-WS Voter (§3.3.1.5) for one request: it keeps the first authentic reply of each replica and
 * decides once f+1 replicas sent the same (result, random number) — at least one of them is correct.
 */
public final class Voter {
  private final int f;
  private final Map<Integer, Key> votes = new HashMap<>();
  private final Map<Key, Integer> counts = new HashMap<>();
  private Key decided;

  private record Key(byte[] result, byte[] random) {
    @Override
    public boolean equals(Object o) {
      return o instanceof Key k && Arrays.equals(result, k.result) && Arrays.equals(random, k.random);
    }

    @Override
    public int hashCode() {
      return 31 * Arrays.hashCode(result) + Arrays.hashCode(random);
    }
  }

  public Voter(int f) {
    this.f = f;
  }

  /** Adds replica's (already authenticated) reply; true when this vote decides. */
  public boolean add(int replica, byte[] result, byte[] random) {
    if (decided != null || votes.containsKey(replica)) {
      return false; // a replica cannot change or repeat its vote
    }
    Key k = new Key(result.clone(), random.clone());
    votes.put(replica, k);
    int c = counts.merge(k, 1, Integer::sum);
    if (c >= f + 1) {
      decided = k;
      return true;
    }
    return false;
  }

  public boolean decided() {
    return decided != null;
  }

  public byte[] result() {
    return decided == null ? null : decided.result.clone();
  }

  public byte[] random() {
    return decided == null ? null : decided.random.clone();
  }
}
