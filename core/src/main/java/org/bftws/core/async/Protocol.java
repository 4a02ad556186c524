package org.bftws.core.async;

/**
 * One instance of an asynchronous protocol (SINTRA §3: every protocol extends {@code Protocol} and is
 * identified by its {@code pid}). A pure state machine: it reacts to authenticated messages of its own
 * instance ({@link #onMessage}) and to calls from its parent, and acts only through its {@link Context}
 * (send, multicast, evidence, signatures). It never sees another instance's messages: the {@link Router}
 * dispatches by id. Outputs go to the parent through a callback the parent passes to the constructor,
 * invoked synchronously; anything the parent then sends is queued, so no handler is ever re-entered.
 */
public abstract class Protocol {
  protected final Context ctx;
  protected final Pid pid;

  protected Protocol(Context ctx, Pid pid) {
    this.ctx = ctx;
    this.pid = pid;
  }

  public final Pid pid() {
    return pid;
  }

  /**
   * A message of this instance from {@code sender} (authenticated by its envelope signature; from this
   * replica itself for its own multicasts). Throw {@link org.bftws.core.codec.DecodeException} for a
   * malformed payload or unknown type ({@link AsyncKind#of}): the router records it as evidence against the
   * sender.
   */
  protected abstract void onMessage(int sender, int type, byte[] payload);

  /**
   * The slot a message of this instance commits its sender to, or null for one that commits it to nothing
   * (a fetch, an answer): a correct party sends at most one message per slot (one ECHO and one READY per
   * reliable broadcast, one pre-vote per binary agreement round, …), so two different messages in one slot
   * signed by the same party show it Byzantine. A journaled replica records each committing message with
   * its slot and, restarted, sends in a slot only what it sent there before ({@link Context#recover}).
   * The key is what distinguishes slots of one type within the instance (a round number), empty if none.
   */
  protected byte[] slot(AsyncKind type, byte[] payload) {
    return null;
  }

  /** Sends to every replica, this one included (SINTRA's "send to all parties"). */
  protected final void multicast(AsyncKind type, byte[] payload) {
    ctx.multicast(pid, type.code(), payload, slot(type, payload));
  }

  protected final void send(int to, AsyncKind type, byte[] payload) {
    ctx.send(to, pid, type.code(), payload, slot(type, payload));
  }

  /**
   * What this replica sent in the slot before a restart from its journal, or null: a broadcast's sender
   * starts from it, so that its own state agrees with what it said ({@link Context#recover}).
   */
  protected final byte[] promisedPayload(AsyncKind type, byte[] slot) {
    return ctx.promisedPayload(pid, type.code(), slot);
  }

  /** The leading {@code bytes} of {@code payload} as a slot key (a round number that the encoding puts first). */
  protected static byte[] leading(byte[] payload, int bytes) {
    return java.util.Arrays.copyOf(payload, Math.min(bytes, payload.length));
  }

  /** An answer to {@code to}'s request, not resent ({@link Context#reply}). */
  protected final void reply(int to, AsyncKind type, byte[] payload) {
    ctx.reply(to, pid, type.code(), payload);
  }

  protected final void evidence(int node, String what) {
    ctx.evidence(node, pid + ": " + what);
  }
}
