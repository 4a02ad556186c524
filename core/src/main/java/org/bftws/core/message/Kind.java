package org.bftws.core.message;

import org.bftws.core.codec.DecodeException;

/** The protocol's message types (Castro-Liskov §4; BFT-WS §3.3.1.8 for fetch-state). */
public enum Kind {
  REQUEST, PRE_PREPARE, PREPARE, COMMIT, REPLY, CHECKPOINT, VIEW_CHANGE, NEW_VIEW, FETCH_STATE, STATE;

  private static final Kind[] ALL = values();

  public int code() {
    return ordinal() + 1;
  }

  public static Kind of(int code) {
    if (code < 1 || code > ALL.length) {
      throw new DecodeException("unknown message kind " + code);
    }
    return ALL[code - 1];
  }

  /** Only clients sign requests; every other kind is signed by a replica. */
  public boolean fromClient() {
    return this == REQUEST;
  }
}
