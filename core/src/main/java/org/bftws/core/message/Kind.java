package org.bftws.core.message;

import org.bftws.core.codec.DecodeException;

/**
 * The protocol's message types (Castro-Liskov §4; BFT-WS §3.3.1.8 for fetch-state; integrity paper §5 for
 * the coin shares). The wire code is the position: new kinds go at the end, so existing codes never change.
 */
public enum Kind {
  REQUEST, PRE_PREPARE, PREPARE, COMMIT, REPLY, CHECKPOINT, VIEW_CHANGE, NEW_VIEW, FETCH_STATE, STATE,
  /** A replica's threshold-coin shares for a committed batch (CT algorithm, integrity paper §5). */
  COIN_SHARE,
  /**
   * A pp-update of the BA algorithm (integrity paper §4): a replica's contribution (or, hardened, its
   * commitment or reveal) for the randomized requests of a pre-prepared batch, or the primary's set S_R.
   */
  PP_UPDATE,
  /**
   * A message of an asynchronous protocol instance (SINTRA §2): its body is an {@code
   * org.bftws.core.async.AsyncMessage}, (protocol id, type, payload), so the envelope's signature binds the
   * message to its instance.
   */
  ASYNC;

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

  /**
   * The normal case's votes, which carry authenticators with {@code bftws.authentication=macs} (see {@code
   * pbft.Replica}); every other kind is authenticated by its signature alone.
   */
  public boolean macAuthenticated() {
    return this == PREPARE || this == COMMIT;
  }
}
