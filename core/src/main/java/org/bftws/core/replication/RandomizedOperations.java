package org.bftws.core.replication;

import java.util.Arrays;
import java.util.List;
import org.bftws.core.message.Request;
import org.bftws.core.message.Signed;

/**
 * Which requests need a collective random number (integrity paper §4: "the primary checks whether the
 * operation is randomized"; backups verify it, since refusing needless work is a DoS defence). The
 * embedding knows its operations — the Axis2 module from the randomized operations declared in the
 * service's WSDL — and every replica of a group must answer alike for the same request.
 *
 * <p>A request is randomized iff {@link #isRandomized} says so. A request whose client set
 * {@link Request#randomized()} for an operation that is not randomized is refused (the client asked the
 * group for work the service does not need).
 */
@FunctionalInterface
public interface RandomizedOperations {
  /** The client's flag decides: for embeddings (the simulator) whose operations declare themselves. */
  RandomizedOperations AS_FLAGGED = Request::randomized;

  boolean isRandomized(Request request);

  /**
   * The indices of the batch's randomized requests — those this says are (integrity paper §4: the replicas,
   * not the client, decide) — one contribution value (CT: one coin) each.
   */
  default int[] randomizedIndices(List<Signed> batch) {
    int[] out = new int[batch.size()];
    int count = 0;
    for (int i = 0; i < batch.size(); i++) {
      if (isRandomized(Request.decode(batch.get(i).body()))) {
        out[count++] = i;
      }
    }
    return Arrays.copyOf(out, count);
  }
}
