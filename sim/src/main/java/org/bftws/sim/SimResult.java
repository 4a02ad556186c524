package org.bftws.sim;

import java.util.List;

/** What one run found: its fault configuration, the invariant violations, and how much it did. */
public record SimResult(SimOptions options, String faults, List<String> violations, long requestsCommitted,
    long requestsDelivered, long viewChanges, long stateTransfers, long evidence, long refused, long randomsChecked, long endTime,
    Traffic traffic) {
  /**
   * What the run cost (for benchmarks, not in {@link #describe}): replica-to-replica messages sent (one per
   * destination, retransmissions included), the BA pp-updates among them, and the mean ticks from a
   * request's issue to its delivery at the client — over all requests, and over those issued after the
   * heal (reliable network, no crash: the protocol's own delay); with asynchronous ordering, the messages
   * the scheduler held back until nothing else was in flight ({@link AsyncAdversary}).
   *
   * <p>{@code refused}: evidence of correct replicas against requests flagged randomized for an operation
   * that is not, or batches holding one (integrity paper §4).
   */
  public record Traffic(long messages, long ppUpdates, double meanLatency, double meanLatencyHealed, long held) {}

  public boolean ok() {
    return violations.isEmpty();
  }

  /** Violations a failing run prints by default; {@code --verbose} prints all of them. */
  static final int VIOLATIONS_SHOWN = 5;

  /** The run in one line, with every violation: for tests, which compare replays of one seed. */
  public String describe() {
    return summary() + (ok() ? "" : " violations=" + violations);
  }

  /**
   * The run for a person: the summary line, then one line per violation, the first {@link #VIOLATIONS_SHOWN}
   * unless {@code all} (a failing seed can violate an invariant tens of thousands of times, one line each
   * would bury the summary), and a count of the rest.
   */
  public String report(boolean all) {
    StringBuilder sb = new StringBuilder(summary()).append(ok() ? "" : " violations=" + violations.size());
    int shown = all ? violations.size() : Math.min(VIOLATIONS_SHOWN, violations.size());
    for (int i = 0; i < shown; i++) {
      sb.append("\n  violation: ").append(violations.get(i));
    }
    if (shown < violations.size()) {
      sb.append("\n  ... and ").append(violations.size() - shown).append(" more (--verbose for all)");
    }
    return sb.toString();
  }

  private String summary() {
    return "seed=" + options.seed() + (options.channel() ? " ordering=" + options.ordering().label() : "") + " byzantine=" + options.byzantine().label()
        + (options.random() == SimOptions.Randomness.NONE ? ""
            : options.random() != SimOptions.Randomness.CT ? " random=" + options.random().label()
            : " random=ct/" + options.scheme().label() + (options.coinPerBatch() ? "/per-batch" : "")) + " faults={" + faults + "}"
        + " committed=" + requestsCommitted + " delivered=" + requestsDelivered + " viewChanges=" + viewChanges
        + " stateTransfers=" + stateTransfers + " evidence=" + evidence + (refused == 0 ? "" : " refused=" + refused)
        + " randoms=" + randomsChecked + " time=" + endTime;
  }
}
