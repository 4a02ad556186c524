package org.bftws.core.hybrid;

import java.util.ArrayDeque;

/**
 * The slow-leader rule (Aardvark's regular view changes: the throughput recently achieved, here measured
 * against the fallback): a fast lane may take no longer per delivery than this replica's recent fallbacks
 * took, and never longer than the view-change timeout. Before any fallback ran the budget is the smallest,
 * {@link #MIN_BUDGET}: with the timeout instead, a first leader slow just under it would never be replaced,
 * and no fallback would ever be measured. So a group learns what the fallback costs by running one early, at
 * most once needlessly.
 */
final class SlowLeaderRule {
  /** Fallback costs averaged. */
  private static final int COSTS_KEPT = 4;
  /** The smallest switch budget in ticks: one tick could end an epoch between two messages of a good leader. */
  static final int MIN_BUDGET = 2;

  private final long timeout;
  private final ArrayDeque<Long> costs = new ArrayDeque<>();

  /** @param timeout the view-change timeout in ticks, the budget's cap */
  SlowLeaderRule(long timeout) {
    this.timeout = timeout;
  }

  /** A fallback took {@code ticks} from this replica's switch to the next epoch. */
  void fallbackTook(long ticks) {
    costs.add(ticks);
    if (costs.size() > COSTS_KEPT) {
      costs.poll();
    }
  }

  /** The ticks a lane may go without delivering while a request waits. */
  long budget() {
    if (costs.isEmpty()) {
      return MIN_BUDGET;
    }
    long mean = costs.stream().mapToLong(Long::longValue).sum() / costs.size();
    return Math.max(MIN_BUDGET, Math.min(timeout, mean));
  }
}
