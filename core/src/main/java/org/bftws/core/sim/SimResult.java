package org.bftws.core.sim;

import java.util.List;

/** What one run found: its fault configuration, the invariant violations, and how much it did. */
public record SimResult(SimOptions options, String faults, List<String> violations, long requestsCommitted,
    long requestsDelivered, long viewChanges, long stateTransfers, long evidence, long randomsChecked, long endTime) {
  public boolean ok() {
    return violations.isEmpty();
  }

  public String describe() {
    return "seed=" + options.seed() + " byzantine=" + options.byzantine().label()
        + (options.random() == SimOptions.Randomness.NONE ? ""
            : options.random() != SimOptions.Randomness.CT ? " random=" + options.random().label()
            : " random=ct/" + options.scheme().label() + (options.coinPerBatch() ? "/per-batch" : "")) + " faults={" + faults + "}"
        + " committed=" + requestsCommitted + " delivered=" + requestsDelivered + " viewChanges=" + viewChanges
        + " stateTransfers=" + stateTransfers + " evidence=" + evidence + " randoms=" + randomsChecked + " time=" + endTime
        + (ok() ? "" : " violations=" + violations);
  }
}
