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

  /** Sends to every replica, this one included (SINTRA's "send to all parties"). */
  protected final void multicast(AsyncKind type, byte[] payload) {
    ctx.multicast(pid, type.code(), payload);
  }

  protected final void send(int to, AsyncKind type, byte[] payload) {
    ctx.send(to, pid, type.code(), payload);
  }

  /** An answer to {@code to}'s request, not resent ({@link Context#reply}). */
  protected final void reply(int to, AsyncKind type, byte[] payload) {
    ctx.reply(to, pid, type.code(), payload);
  }

  protected final void evidence(int node, String what) {
    ctx.evidence(node, pid + ": " + what);
  }
}
