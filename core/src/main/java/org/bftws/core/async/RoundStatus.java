package org.bftws.core.async;

import java.util.HashSet;
import java.util.Set;
import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;

/**
 * Where a replica is, for catching up in an idle group (the role PBFT's STATUS messages play, Castro-Liskov
 * TOCS 2002 §5.2): a replica stalled outside any open round tells its peers the last round it delivered
 * ({@link #ask}); a peer that delivered more answers ({@code Behind}) with what it sent in the next round
 * (a round its stable checkpoint settled is reached by state transfer instead). Without this, a replica that returns to
 * a group that has gone quiet stays behind until the next request: the channel starts no round of its own
 * (SINTRA §2.5: progress is driven by messages alone), and nobody resends rounds they closed unless a laggard
 * resends into them, which a replica that missed them entirely never does.
 *
 * <p>An ASK carries the delivered round and nothing else, so a replica's asks from one round are the same
 * signed bytes. Neither asks nor what they trigger is kept for resending, nor remembered to drop copies
 * ({@link Context#unremembered}): a repeated ask is handed on, and the budget below bounds what it costs; each peer
 * is answered at most once per retransmission interval ({@link #newInterval}), whatever it asks, and a round
 * it was sent in that interval as a laggard ({@code Context#resendTo}) is not sent again.
 */
final class RoundStatus extends Protocol {
  static final Pid PID = Pid.root("abc-status");

  enum Type implements AsyncKind {
    ASK
  }

  /** What the engine does for a peer that delivered only up to {@code round}. */
  interface Behind {
    void behind(int peer, long round);
  }

  private final Behind behind;
  private final Set<Integer> answeredNow = new HashSet<>();

  RoundStatus(Context ctx, Behind behind) {
    super(ctx, PID);
    ctx.unremembered(PID);
    this.behind = behind;
  }

  /** Tells every peer that this replica delivered up to {@code round}. */
  void ask(long round) {
    byte[] ask = new ByteWriter(8).i64(round).toBytes();
    for (int peer = 0; peer < ctx.n(); peer++) {
      if (peer != ctx.id()) {
        reply(peer, Type.ASK, ask);
      }
    }
  }

  /** A new retransmission interval: each peer may be answered once more. */
  void newInterval() {
    answeredNow.clear();
  }

  @Override
  protected void onMessage(int sender, int type, byte[] payload) {
    AsyncKind.of(Type.class, type, "round status");
    ByteReader r = new ByteReader(payload);
    long round = r.i64();
    r.end();
    if (sender != ctx.id() && round >= 0 && answeredNow.add(sender)) {
      behind.behind(sender, round);
    }
  }
}
