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
  ASYNC,
  /**
   * A client request to execute at once against the current state, without ordering (Castro-Liskov
   * §5.1.3, the read-only optimisation): its body is a {@link Request} of a read-only operation, numbered by
   * the client's read counter, not by its WS-RM sequence.
   */
  READ_ONLY_REQUEST,
  /**
   * A replica's reply to read-only requests: a {@link ReplyCertificate} like {@link #REPLY}'s, but a
   * different kind, so that a client never counts an unordered answer as an ordered one or the reverse.
   */
  READ_ONLY_REPLY,
  /**
   * A replica's {@link Status} (Castro-Liskov TOCS 2002 §5.2): what view it is in and how far it got, so that
   * peers resend what it lacks (a new-view, view-changes, checkpoints, pre-prepares and commits).
   */
  STATUS,
  /**
   * A replica's TDH2 decryption shares for the confidential requests of a batch whose order is final (SINTRA
   * §2.6, secure causal atomic broadcast): its body is a {@link DecryptionShares}.
   */
  DECRYPTION_SHARE,
  /**
   * An {@link OrderedBatch}: a committed batch with its agreement certificate, the 2f+1 signed commits that
   * prove it (BFT-WS §3.3.3; Yin et al. SOSP'03 §3), from an agreement replica to the execution nodes, or
   * relayed between execution nodes to one that lacks it.
   */
  ORDERED,
  /**
   * An execution node's checkpoint vote, a {@link Checkpoint} whose digest is of its execution state (client
   * table, cached replies, application state), to the other execution nodes and to the agreement replicas,
   * which keep each batch until f+1 matching votes cover it.
   */
  EXECUTION_CHECKPOINT,
  /**
   * A lagging execution node asks another for what follows its last execution ({@link FetchState}: the
   * certified batches above it, and the stable execution checkpoint when it is below that).
   */
  EXECUTION_FETCH,
  /** An execution node's stable checkpoint, its state and proof ({@link ExecutionState}). */
  EXECUTION_STATE,
  /**
   * Links of a replica's chain of membership certificates, and where its epoch began, from one replica of a
   * reconfigurable group to another (docs/design/reconfiguration.md, "A member many epochs behind"). Its body
   * is a {@code pbft.ChainMessage}; the sender signs it under its epoch's key and the stable id it carries.
   */
  MEMBERSHIP_CHAIN;

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

  /** Only clients sign requests (ordered or read-only); every other kind is signed by a replica. */
  public boolean fromClient() {
    return this == REQUEST || this == READ_ONLY_REQUEST;
  }

  /**
   * The normal case's votes, which carry authenticators with {@code bftws.authentication=macs} (see {@code
   * pbft.Replica}); every other kind is authenticated by its signature alone.
   */
  public boolean macAuthenticated() {
    return this == PREPARE || this == COMMIT;
  }
}
