package org.bftws.sim;

/** The nemesis a run uses on top of the benign fault mix (docs/design/testing.md). */
public enum Byzantine {
  /** No Byzantine node; crashes may lose state (amnesia counts against f). */
  NONE,
  /** Twins: two copies of one replica with the same keys, each hearing part of the group. */
  TWINS,
  /** Small-scope mutations of one replica's messages (ByzzFuzz-style), re-signed with its key. */
  MUTATE,
  /** One replica sends nothing. */
  SILENT,
  /** One client sends different requests with the same identity to different replicas. */
  CLIENT,
  /**
   * Randomness DoS (integrity paper §4): a client flags operations randomized that are not, and replica 0 (the
   * first primary) batches its requests into every pre-prepare it sends; correct replicas refuse both.
   */
  FLAGGING,
  /**
   * Asynchronous ordering only: an equivocating sender per broadcast instance. Two copies of one replica,
   * each given the requests of a different half of the clients, so they propose different payloads; each
   * peer hears one copy per protocol instance, chosen per (instance, peer): different peers get different,
   * correctly signed payloads for the same broadcast.
   */
  EQUIVOCATE,
  /**
   * A slow replica, correct in what it sends: every message it sends is delayed by {@code
   * --slow-delay-ticks} — under PBFT whenever it is the primary of its current view (so each new primary
   * is slowed in turn), under asynchronous ordering replica 0 throughout. Not part of {@code all}: it is for
   * comparing how many requests each ordering delivers per virtual second.
   */
  SLOW,
  /**
   * Not Byzantine: one correct replica, a backup of the first view, is cut off from the other replicas in
   * both directions until the heal while clients still reach it. Its view-change timer fires on their
   * requests and it is alone in a view change that the others, ordering without it, never join; after the
   * heal it must catch up (L2). PBFT only; not part of {@code all}.
   */
  ISOLATE,
  /**
   * A replicated client (BFT-WS §3.4, a middle tier's four replicas calling this group): clients 0..3 are its
   * members, on one shared sequence, each issuing the same request under each number; member 3 is Byzantine
   * and sends an altered request under each number ahead of the correct members. The replicas order a member's
   * request only with 2 identical copies from distinct members. Needs at least 4 clients and PBFT; not part of
   * {@code all} (3 clients by default).
   */
  MEMBER,
  /** Negative control N1: f+1 Byzantine replicas split the group; the checker must see violations. */
  OVER_THRESHOLD,
  /**
   * With {@code --keys dkg}: one replica, correct in the ordering, is a Byzantine dealer of the key generation,
   * with a behaviour drawn from the seed ({@link ByzantineDealer}): bad shares to some replicas (justified or
   * not), a garbled justification, commitments that do not match its shares, two dealings (equivocation), a
   * dealing held back until the dealing phase closed, silence, false complaints, bad openings.
   */
  DEALER,
  /**
   * Negative control N2, with {@code --keys dkg}: f+1 replicas, correct in the ordering, collude as dealers:
   * each accuses every correct dealer, so where their complaints are ordered among the first n − t, QUAL holds
   * colluders only and they chose the group's secret; and they hold k shares. The checker must see it.
   */
  COLLUDERS;

  public static Byzantine parse(String s) {
    return valueOf(s.trim().toUpperCase().replace('-', '_'));
  }

  public String label() {
    return name().toLowerCase().replace('_', '-');
  }
}
