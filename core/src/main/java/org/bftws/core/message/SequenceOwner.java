package org.bftws.core.message;

/**
 * Sequence ids that name the client they belong to: {@code urn:bftws:client:<id>:<unique>}. A request on such
 * a sequence signed by any other client is never new (BFT-WS §3.3.1.1 fixes the sequence id from the client's
 * UUID so that all replicas name the sequence alike; naming the client too means that learning the UUID, which
 * every replica and the network see, does not let a faulty client take the sequence over before its owner's
 * first request is ordered). Ids of any other form belong to the client whose request on them was ordered
 * first.
 */
public final class SequenceOwner {
  public static final String PREFIX = "urn:bftws:client:";
  /** What {@link #of} answers for an id that names no client. */
  public static final int UNBOUND = -1;

  private SequenceOwner() {
  }

  /** The id of a sequence of {@code client}, made unique by {@code unique} (no further meaning). */
  public static String bind(int client, String unique) {
    if (client < 0 || unique.isEmpty()) {
      throw new IllegalArgumentException("a bound sequence needs a client id >= 0 and a unique part");
    }
    return PREFIX + client + ":" + unique;
  }

  /** The client {@code sequenceId} names, or {@link #UNBOUND}. */
  public static int of(String sequenceId) {
    if (!sequenceId.startsWith(PREFIX)) {
      return UNBOUND;
    }
    int colon = sequenceId.indexOf(':', PREFIX.length());
    int digits = colon - PREFIX.length();
    if (digits < 1 || digits > 9 || colon == sequenceId.length() - 1) {
      return UNBOUND; // 9 digits: no overflow; such an id is of the first-come kind
    }
    int client = 0;
    for (int i = PREFIX.length(); i < colon; i++) {
      char c = sequenceId.charAt(i);
      if (c < '0' || c > '9') {
        return UNBOUND;
      }
      client = client * 10 + (c - '0');
    }
    return client;
  }

  /**
   * The birth time of {@code sequenceId} in Unix milliseconds, or -1: a bound id whose unique part is an RFC 9562
   * version 7 UUID (lower-case canonical text) carries it in its first 48 bits. The module derives such ids
   * from a client UUID of version 7, which the client makes from its clock when it creates the sequence; the
   * client table uses the birth time as Castro-Liskov §4.1's timestamp once the sequence is pruned.
   */
  public static long birth(String sequenceId) {
    if (of(sequenceId) == UNBOUND) {
      return -1;
    }
    String unique = sequenceId.substring(sequenceId.indexOf(':', PREFIX.length()) + 1);
    if (unique.length() != 36 || unique.charAt(14) != '7'
        || !unique.matches("[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}")) {
      return -1;
    }
    return Long.parseLong(unique.substring(0, 8) + unique.substring(9, 13), 16);
  }
}
