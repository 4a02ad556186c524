package org.bftws.core.hybrid;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;
import org.bftws.core.async.AsyncKind;
import org.bftws.core.async.Context;
import org.bftws.core.async.Pid;
import org.bftws.core.async.Protocol;
import org.bftws.core.codec.DecodeException;
import org.bftws.core.message.hybrid.LaneBatch;
import org.bftws.core.message.hybrid.LaneFetch;

/**
 * The fast lane's batches by digest, across epochs (the long-lived instance {@code hyb-blocks}): every batch a
 * replica accepted from a leader, fetched or delivered, kept until a stable checkpoint covers its seq, and
 * served to peers that ask for it by (seq, digest). A replica fetches a batch that q commits, q prepares or
 * a certified chain name and that it lacks: every correct replica that prepared it holds it, and at least one
 * did. An answer is taken only for a digest asked for: at another seq than the one asked it is evidence
 * against its sender; one not asked for, or asked and answered already, is ignored, since a correct peer's
 * answer to an earlier attempt arrives that way too.
 * Neither FETCH nor BLOCK is kept for resending: a stalled tick asks again with a new attempt number. Nor
 * does the context remember them to drop copies ({@link Context#unremembered}): each FETCH is new bytes and
 * this instance never closes, so that would grow with every envelope a peer sends; a copy handled twice is
 * answered twice or ignored as answered.
 */
final class Blocks extends Protocol {
  static final Pid PID = Pid.root("hyb-blocks");

  enum Type implements AsyncKind {
    FETCH, BLOCK
  }

  private final int maxBatch;
  private final Consumer<LaneBatch> fetched;
  private final Map<ByteBuffer, LaneBatch> held = new HashMap<>();
  /** Digests asked for and not yet received, with their seq. */
  private final Map<ByteBuffer, Long> asked = new HashMap<>();
  private int attempt;

  Blocks(Context ctx, int maxBatch, Consumer<LaneBatch> fetched) {
    super(ctx, PID);
    ctx.unremembered(PID);
    this.maxBatch = maxBatch;
    this.fetched = fetched;
  }

  void store(LaneBatch b) {
    held.putIfAbsent(ByteBuffer.wrap(b.digest()), b);
  }

  LaneBatch get(byte[] digest) {
    return held.get(ByteBuffer.wrap(digest));
  }

  /** Asks every peer (again on {@link #refetch}); FETCHes are not kept in the context's resend log. */
  void fetch(long seq, byte[] digest) {
    if (get(digest) == null && asked.putIfAbsent(ByteBuffer.wrap(digest.clone()), seq) == null) {
      ask(seq, digest);
    }
  }

  /** A stalled tick: every batch still missing is asked for again, with a new attempt number. */
  void refetch() {
    if (!asked.isEmpty()) {
      attempt++;
      asked.forEach((d, seq) -> ask(seq, d.array()));
    }
  }

  private void ask(long seq, byte[] digest) {
    byte[] fetch = new LaneFetch(seq, digest, attempt).encode();
    for (int peer = 0; peer < ctx.n(); peer++) {
      reply(peer, Type.FETCH, fetch); // to each peer, not resent: refetch makes a new one
    }
  }

  /** Batches at or below seq are covered by a stable checkpoint: forgotten. */
  void discardUpTo(long seq) {
    held.values().removeIf(b -> b.seq() <= seq);
    asked.values().removeIf(s -> s <= seq);
  }

  int size() {
    return held.size();
  }

  @Override
  protected void onMessage(int sender, int type, byte[] payload) {
    switch (AsyncKind.of(Type.class, type, "hybrid blocks")) {
      case FETCH -> {
        LaneFetch q = LaneFetch.decode(payload);
        LaneBatch b = get(q.digest());
        if (b != null && b.seq() == q.seq()) {
          reply(sender, Type.BLOCK, b.encode());
        }
      }
      case BLOCK -> onBlock(sender, LaneBatch.decode(payload, maxBatch));
      default -> throw new DecodeException("hybrid blocks message type " + type);
    }
  }

  private void onBlock(int sender, LaneBatch b) {
    ByteBuffer d = ByteBuffer.wrap(b.digest());
    Long seq = asked.get(d);
    if (seq == null) {
      return; // not asked for, or answered already
    }
    if (seq != b.seq()) {
      evidence(sender, "BLOCK at seq " + b.seq() + " for a fetch of seq " + seq);
      return;
    }
    asked.remove(d);
    held.put(d, b);
    fetched.accept(b);
  }

}
