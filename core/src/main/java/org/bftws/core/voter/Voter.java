package org.bftws.core.voter;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The BFT-WS Voter (§3.3.1.5) for one request: it keeps the first authentic reply of each replica and
 * decides once f+1 replicas sent the same (result, random number) — at least one of them is correct. For a
 * read-only request ({@link #readOnly}) it needs 2f+1 (Castro-Liskov §5.1.3: a quorum, so the result was
 * current at f+1 correct replicas and a later read or write cannot miss it).
 */
public final class Voter {
  private final int quorum;
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
    this(f, f + 1);
  }

  private Voter(int f, int quorum) {
    if (quorum <= f) {
      throw new IllegalArgumentException("a quorum of " + quorum + " may hold no correct replica (f = " + f + ")");
    }
    this.quorum = quorum;
  }

  /** The voter of a read-only request: 2f+1 matching replies. */
  public static Voter readOnly(int f) {
    return new Voter(f, 2 * f + 1);
  }

  /** Adds replica's (already authenticated) reply; true when this vote decides. */
  public boolean add(int replica, byte[] result, byte[] random) {
    if (decided != null || votes.containsKey(replica)) {
      return false; // a replica cannot change or repeat its vote
    }
    Key k = new Key(result.clone(), random.clone());
    votes.put(replica, k);
    int c = counts.merge(k, 1, Integer::sum);
    if (c >= quorum) {
      decided = k;
      return true;
    }
    return false;
  }

  /**
   * Not decided, and cannot be any more: even if all {@code n} replicas that answer (those that execute)
   * did, no result would reach the quorum.
   */
  public boolean undecidable(int n) {
    int best = 0;
    for (int c : counts.values()) {
      best = Math.max(best, c);
    }
    return decided == null && best + (n - votes.size()) < quorum;
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
