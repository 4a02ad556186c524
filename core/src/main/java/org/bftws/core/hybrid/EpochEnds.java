package org.bftws.core.hybrid;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.bftws.core.async.AsyncKind;
import org.bftws.core.async.Context;
import org.bftws.core.async.Pid;
import org.bftws.core.async.Protocol;
import org.bftws.core.codec.DecodeException;
import org.bftws.core.crypto.Digests;
import org.bftws.core.message.hybrid.EpochEnd;

/**
 * How the epochs this replica left ended (the long-lived instance {@code hyb-ends}), for a replica still in one
 * of them. A replica that missed an epoch's fallback agreement (it was cut off or crashed while the others
 * decided) never sees it decide: its peers closed that epoch and resend only the current one and the one
 * before. Stalled in a switched epoch, it asks; a peer that left that epoch answers with the vector its
 * agreement decided. f+1 matching answers from distinct replicas include a correct one's, and every correct
 * replica decided the same vector (SINTRA §2.4, agreement of the multi-valued agreement), so the asker takes
 * it as its own decision and resolves the fallback as the others did: the chain up to h*, the batch at h*+1,
 * the next epoch (docs/design/hybrid.md, "Catching up across epochs").
 *
 * <p>Bounds: the last {@link #KEPT} epochs' vectors are kept to answer, each peer at most once per
 * retransmission interval (an END carries up to n batches, and ASKs cost a faulty peer nothing); answers are
 * counted for the one epoch asked, one per sender. A replica more than {@link #KEPT} epochs behind is not
 * brought back: a checkpoint does not carry the epoch (docs/design/hybrid.md). As {@link Blocks}, neither ASK nor END is kept for resending or remembered by
 * the context to drop copies ({@link Context#unremembered}): a stalled tick asks again with a new attempt.
 */
final class EpochEnds extends Protocol {
  static final Pid PID = Pid.root("hyb-ends");
  /** Epochs whose end is kept to answer peers; a replica further behind needs a state transfer. */
  static final int KEPT = 16;

  enum Type implements AsyncKind {
    ASK, END
  }

  /** What a replica does with an epoch's end that f+1 replicas sent. */
  interface Decided {
    void decided(long epoch, byte[] value);
  }

  private final Decided decided;
  private final TreeMap<Long, byte[]> ended = new TreeMap<>();
  private long asking = -1;
  private int attempt;
  /** For the epoch asked: each sender's answer (its first), and the senders per value digest. */
  private final Map<Integer, byte[]> answers = new HashMap<>();
  private final Map<ByteBuffer, Set<Integer>> bySenders = new HashMap<>();
  /** Peers answered in this retransmission interval: at most one END each, whatever a faulty one asks. */
  private final Set<Integer> answeredNow = new HashSet<>();

  EpochEnds(Context ctx, Decided decided) {
    super(ctx, PID);
    ctx.unremembered(PID);
    this.decided = decided;
  }

  /** This replica's agreement for {@code epoch} decided {@code value}: kept to answer peers still in it. */
  void ended(long epoch, byte[] value) {
    ended.put(epoch, value);
    while (ended.size() > KEPT) {
      ended.pollFirstEntry();
    }
    if (asking >= 0 && epoch >= asking) {
      stopAsking();
    }
  }

  /** Stalled in {@code epoch}'s fallback: asks every peer how it ended (again, with a new attempt, each time). */
  void ask(long epoch) {
    if (epoch != asking) {
      stopAsking();
      asking = epoch;
    }
    attempt++;
    byte[] ask = EpochEnd.ask(epoch, attempt).encode();
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

  private void stopAsking() {
    asking = -1;
    answers.clear();
    bySenders.clear();
  }

  int kept() {
    return ended.size();
  }

  int answers() {
    return answers.size();
  }

  @Override
  protected void onMessage(int sender, int type, byte[] payload) {
    EpochEnd m = EpochEnd.decode(payload);
    switch (AsyncKind.of(Type.class, type, "hybrid epoch ends")) {
      case ASK -> {
        byte[] value = ended.get(m.epoch());
        if (value != null && answeredNow.add(sender)) { // an END carries up to n batches: once per interval
          reply(sender, Type.END, new EpochEnd(m.epoch(), m.attempt(), value).encode());
        }
      }
      case END -> onEnd(sender, m);
      default -> throw new DecodeException("hybrid epoch ends message type " + type);
    }
  }

  private void onEnd(int sender, EpochEnd m) {
    if (m.epoch() != asking || m.value().length == 0 || answers.putIfAbsent(sender, m.value()) != null) {
      return; // not asked, or this sender answered already: its first answer counts
    }
    Set<Integer> senders = bySenders.computeIfAbsent(ByteBuffer.wrap(Digests.sha256(m.value())), k -> new HashSet<>());
    senders.add(sender);
    if (senders.size() >= ctx.f() + 1) {
      long epoch = asking;
      stopAsking();
      decided.decided(epoch, m.value());
    }
  }
}
