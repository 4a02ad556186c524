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
}
