package org.bftws.core.hybrid;

import java.util.ArrayDeque;

/**
 * The slow-leader rule, Aardvark's expected-throughput rule (Clement et al., NSDI 2009 §4.3: a primary is
 * replaced when its throughput over a period falls below what is expected, not on one slow request) with the
 * expectation set by the fallback: the fast lane is left when its last {@link #WINDOW} deliveries, the one a
 * request is waiting for now included, took longer than {@link #WINDOW} fallbacks would, by this replica's
 * measure of its recent ones, and in any case after the view-change timeout.
 *
 * <p>Why a window and not each delivery against one fallback: on a loaded machine a good lane's single
 * delivery can take a few fallbacks' worth of ticks (a collection, a starved thread), and each needless
 * fallback costs more than that stall; a lane that keeps the group below the fallback's rate is still left
 * within {@link #WINDOW} of its deliveries. A dead or silent leader is left once the wait alone exceeds what the
 * window allows, {@link #WINDOW} fallbacks minus the lane's recent waits. Before any fallback was measured the
 * budget is the smallest, {@link #MIN_BUDGET}: with the timeout instead, a first leader slow just under it would
 * never be replaced, and no fallback would ever be measured. So a group learns what the fallback costs by
 * running one early, at most once needlessly.
 */
final class SlowLeaderRule {
  /** Fallback costs averaged. */
  private static final int COSTS_KEPT = 4;
  /** Lane deliveries over which the lane must keep up with the fallback. */
  static final int WINDOW = 4;
  /** The smallest switch budget in ticks: one tick could end an epoch between two messages of a good leader. */
  static final int MIN_BUDGET = 2;

  private final long timeout;
  private final ArrayDeque<Long> costs = new ArrayDeque<>();
  /** The lane's last {@link #WINDOW} − 1 deliveries: the ticks a request waited for each. */
  private final ArrayDeque<Long> waits = new ArrayDeque<>();
  private long waited;

  /** @param timeout the view-change timeout in ticks, the budget's cap */
  SlowLeaderRule(long timeout) {
    this.timeout = timeout;
  }

  /**
   * A fallback took {@code ticks} from this replica's switch to the next epoch; {@code byThisRule}: it switched
   * by this rule, not drawn in by f+1 others. One it was drawn into late looks cheaper than it was (the others
   * had done part of it), so once it has a first measure a replica measures only the fallbacks it started.
   */
  void fallbackTook(long ticks, boolean byThisRule) {
    if (!byThisRule && !costs.isEmpty()) {
      return;
    }
    costs.add(ticks);
    if (costs.size() > COSTS_KEPT) {
      costs.poll();
    }
  }

  /** The fast lane delivered a batch for which the oldest request waiting here had waited {@code ticks}. */
  void laneDelivered(long ticks) {
    waits.add(ticks);
    waited += ticks;
    if (waits.size() > WINDOW - 1) {
      waited -= waits.poll();
    }
  }

  /** The mean of the fallbacks measured, at least {@link #MIN_BUDGET}; 0 before any. */
  long fallbackCost() {
    if (costs.isEmpty()) {
      return 0;
    }
    long mean = costs.stream().mapToLong(Long::longValue).sum() / costs.size();
    return Math.max(MIN_BUDGET, mean);
  }

  /**
   * The ticks a request may now wait for the lane's next delivery: what {@link #WINDOW} fallbacks take less
   * what the lane's last deliveries took, at least {@link #MIN_BUDGET}, at most the timeout.
   */
  long budget() {
    if (costs.isEmpty()) {
      return MIN_BUDGET;
    }
    return Math.max(MIN_BUDGET, Math.min(timeout, WINDOW * fallbackCost() - waited));
  }
}
