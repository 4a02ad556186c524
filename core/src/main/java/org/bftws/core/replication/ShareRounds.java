package org.bftws.core.replication;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import org.bftws.core.config.GroupConfig;
import org.bftws.core.crypto.threshold.SignatureShare;
import org.bftws.core.engine.Event;
import org.bftws.core.engine.Ready;
import org.bftws.core.message.Signed;

/**
 * The bookkeeping of a round of threshold shares released once a batch is final, per sequence number: the
 * CT algorithm's coin shares ({@link Coins}, integrity paper §5) and the decryption shares of confidential
 * requests ({@link Decryptions}, SINTRA §2.6). Each replica multicasts its shares of a batch in one signed
 * message; a peer's message that arrives before the batch is final here is kept (the first per sender); each
 * sender's shares are taken once, and a sender found bad is dropped from the whole seq. A replica that made no
 * progress resends its own ({@link #retransmit}); a peer whose shares were taken already is answered with ours,
 * at most once per retransmission interval — it resends only when stalled, so it may be waiting for them.
 * Memory: the log window above the stable checkpoint, at most one buffered message per sender and seq.
 */
public final class ShareRounds<R extends ShareRounds.Round> {
  /** What the engine provides. */
  public interface Host {
    /** The step's output. */
    Ready out();

    /** The stable checkpoint: shares at or below it are not needed. */
    long stableSeq();

    /** The highest seq whose shares are kept; a peer's shares above it are dropped (it resends them). */
    long windowTop();

    /** The last sequence number handed to execution. */
    long lastExecuted();

    /** Logical time (ticks), to answer a peer's resent shares at most once per retransmission interval. */
    long now();
  }

  /** The shares of one sequence number. */
  static class Round {
    /** The final batch's digest; null until the batch is final here. */
    byte[] digest;
    /** The batch positions the shares are for, ascending. */
    int[] requests;
    /** Per position: candidate shares by sender, ours first; null once done. */
    List<Map<Integer, SignatureShare>> candidates;
    /** Positions not done yet. */
    int missing;
    Signed own;
    /** Messages that arrived before the batch was final here: the first per sender. */
    final Map<Integer, Signed> early = new HashMap<>();
    /** Senders whose shares for this seq were taken, or found bad. */
    final Set<Integer> heard = new HashSet<>();
    final Set<Integer> bad = new HashSet<>();
    /** When we last answered a sender's retransmission with our shares. */
    final Map<Integer, Long> answered = new HashMap<>();
  }

  private final GroupConfig cfg;
  private final Host host;
  private final Supplier<R> fresh;
  private final TreeMap<Long, R> rounds = new TreeMap<>();

  ShareRounds(GroupConfig cfg, Host host, Supplier<R> fresh) {
    this.cfg = cfg;
    this.host = host;
    this.fresh = fresh;
  }

  R get(long seq) {
    return rounds.get(seq);
  }

  /** The round of seq, made if there is none. */
  R open(long seq) {
    return rounds.computeIfAbsent(seq, k -> fresh.get());
  }

  /** Whether {@code r} is final here already; if so our shares go out again (a peer may have lost them). */
  boolean finalAgain(R r) {
    if (r == null || r.digest == null) {
      return false;
    }
    if (r.own != null) {
      multicast(r.own);
    }
    return true;
  }

  /** The final batch at seq needs no shares: early messages for it were sent for nothing ({@code why}). */
  void unneeded(long seq, String why) {
    R r = rounds.remove(seq);
    if (r != null) {
      for (int sender : r.early.keySet()) {
        evidence(sender, why);
      }
    }
  }

  /** Our shares of the now final round: sent, and kept for resending. */
  void release(R r, int self, Signed own) {
    r.heard.add(self);
    r.own = own;
    multicast(own);
  }

  /** Hands each message kept before the round became final to {@code take}, by sender. */
  void takeEarly(R r, BiConsumer<Integer, Signed> take) {
    for (Map.Entry<Integer, Signed> e : r.early.entrySet()) {
      take.accept(e.getKey(), e.getValue());
    }
    r.early.clear();
  }

  /**
   * An authentic share message from a peer for seq with {@code count} shares: the round to take it into, or
   * null when it is outside the window, too long ({@code what} names it in evidence), kept until the batch is
   * final here, or from a sender already heard (then answered).
   */
  R admit(Signed s, long seq, int count, String what) {
    if (seq <= host.stableSeq() || seq > host.windowTop()) {
      return null; // below: no longer needed; above: outside the window, sent again when we get there
    }
    if (count > cfg.get(GroupConfig.MAX_BATCH_SIZE)) {
      evidence(s.sender(), "more " + what + " than requests in a batch");
      return null;
    }
    R r = open(seq);
    if (r.digest == null) {
      r.early.putIfAbsent(s.sender(), s);
      return null;
    }
    if (r.heard.contains(s.sender()) || r.bad.contains(s.sender())) {
      answer(r, s.sender());
      return null;
    }
    return r;
  }

  private void answer(R r, int peer) {
    if (r.own == null || r.bad.contains(peer)) {
      return;
    }
    Long last = r.answered.get(peer);
    if (last == null || host.now() - last >= cfg.get(GroupConfig.RETRANSMIT_INTERVAL)) {
      r.answered.put(peer, host.now());
      host.out().messages.add(new Ready.Outbound(peer, r.own.encode()));
    }
  }

  /** Whether {@code sender}'s shares may still be taken into {@code r}. */
  static boolean untaken(Round r, int sender) {
    return !r.heard.contains(sender) && !r.bad.contains(sender);
  }

  /** {@code sender} sent something bad ({@code what}): evidence, and none of its shares of the seq count. */
  void drop(R r, int sender, String what) {
    evidence(sender, what);
    r.bad.add(sender);
    for (Map<Integer, SignatureShare> cand : r.candidates) {
      if (cand != null) {
        cand.remove(sender);
      }
    }
  }

  /** Stalled: resend our shares for final batches not executed; peers that hold theirs answer. */
  void retransmit() {
    for (R r : rounds.tailMap(host.lastExecuted(), false).values()) {
      if (r.own != null) {
        multicast(r.own);
      }
    }
  }

  /** The checkpoint at seq became stable: nothing at or below it needs shares. */
  void discardUpTo(long seq) {
    rounds.headMap(seq, true).clear();
  }

  /** For tests and traces: sequence numbers with state (bounded by the log window). */
  int size() {
    return rounds.size();
  }

  /** For tests and traces: positions still missing at seq (-1 if the batch is not final here or needs none). */
  int missing(long seq) {
    R r = rounds.get(seq);
    return r == null || r.digest == null ? -1 : r.missing;
  }

  void multicast(Signed msg) {
    host.out().messages.add(new Ready.Outbound(Ready.ALL_REPLICAS, msg.encode()));
  }

  void evidence(int node, String what) {
    host.out().events.add(new Event.Evidence(node, what));
  }
}
