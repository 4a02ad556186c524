package org.bftws.core.pbft;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import org.bftws.core.message.Checkpoint;
import org.bftws.core.message.Kind;
import org.bftws.core.message.OrderedBatch;
import org.bftws.core.message.Signed;

/**
 * An agreement replica of configuration III (BFT-WS §3.3.3; Yin et al. SOSP'03 §3.1–3.3) hands each batch
 * that commits here in its view to the execution nodes, as an {@link OrderedBatch} with its agreement
 * certificate ({@link AgreementCertificate}), and keeps it until the execution nodes no longer need it: until
 * f+1 execution nodes sent matching {@link Kind#EXECUTION_CHECKPOINT} votes at or above its seq. Of those f+1
 * one is correct and holds the checkpoint's state, from which a lagging execution node fetches it; so the
 * batches below are garbage (Yin et al.'s reply certificate, here a checkpoint certificate). The replica's
 * own ordering checkpoints go on as in configuration II, but it executes (hands out) at most one log
 * window beyond what the execution nodes released: a stalled execution cluster stalls ordering, and what
 * this replica holds stays bounded.
 */
final class Handouts {
  private final Replica r;
  private final TreeMap<Long, Signed> held = new TreeMap<>();
  /** The highest seq f+1 execution nodes' matching checkpoints cover. */
  private long released;
  private long releasedAtLastRound = -1;
  private long heldAtLastRound;
  /** Each execution node's latest checkpoint votes (seq to digest), bounded. */
  private final Map<Integer, TreeMap<Long, byte[]>> votes = new HashMap<>();

  Handouts(Replica r) {
    this.r = r;
  }

  /** True at an agreement replica of configuration III. */
  boolean active() {
    return !r.cfg.executionNodes().isEmpty();
  }

  /** The batch at {@code slot} committed here in its view: certified and sent to every execution node. */
  void committed(Slot slot) {
    if (!active() || slot.seq <= released || held.containsKey(slot.seq)) {
      return;
    }
    OrderedBatch b = AgreementCertificate.of(r.cfg, slot);
    Signed msg = r.sign(Kind.ORDERED, b.encode());
    held.put(slot.seq, msg);
    toExecutionNodes(msg);
  }

  /** Execution waits: the execution nodes released less than a log window below it. */
  boolean paused() {
    return active() && r.lastExecuted - released >= r.cfg.logWindow();
  }

  /** An authentic EXECUTION_CHECKPOINT from an execution node. */
  void onExecutionCheckpoint(Signed s) {
    Checkpoint cp = Checkpoint.decode(s.body());
    if (cp.seq() <= released || cp.seq() % r.cfg.checkpointInterval() != 0) {
      return;
    }
    TreeMap<Long, byte[]> mine = votes.computeIfAbsent(s.sender(), k -> new TreeMap<>());
    mine.put(cp.seq(), cp.stateDigest());
    while (mine.size() > r.cfg.logWindow() / r.cfg.checkpointInterval() + 2) {
      mine.pollFirstEntry();
    }
    int matching = 0;
    for (TreeMap<Long, byte[]> v : votes.values()) {
      matching += Arrays.equals(v.get(cp.seq()), cp.stateDigest()) ? 1 : 0;
    }
    if (matching >= r.f + 1) {
      release(cp.seq());
    }
  }

  private void release(long seq) {
    boolean wasPaused = paused();
    released = seq;
    held.headMap(seq, true).clear();
    for (TreeMap<Long, byte[]> v : votes.values()) {
      v.headMap(seq, true).clear();
    }
    if (wasPaused) {
      r.execution.executeCommitted();
    }
  }

  /**
   * A retransmission round: when nothing was released since the last one, the batches held then are sent
   * again (an execution node may have lost them; the agreement replicas are its only source above the
   * execution nodes' stable checkpoint if no execution node got them).
   */
  void retransmit() {
    if (released == releasedAtLastRound) {
      for (Signed msg : held.headMap(heldAtLastRound, true).values()) {
        toExecutionNodes(msg);
      }
    }
    releasedAtLastRound = released;
    heldAtLastRound = held.isEmpty() ? 0 : held.lastKey();
  }

  long released() {
    return released;
  }

  int held() {
    return held.size();
  }

  private void toExecutionNodes(Signed msg) {
    r.send(r.cfg.executionNodes(), msg);
  }
}
