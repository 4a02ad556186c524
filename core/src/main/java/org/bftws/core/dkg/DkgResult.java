package org.bftws.core.dkg;

import java.util.List;
import org.bftws.core.crypto.threshold.GroupKey;
import org.bftws.core.crypto.threshold.KeyShare;

/**
 * What one run outputs at a replica: the group key with every verification key (identical at every correct
 * replica, since all read the same ordered sequence), this replica's share ({@code null} if it is no receiver,
 * if a faulty qualified dealer gave it a bad share and its complaints were ordered too late to count, or if it
 * had no current share to refresh: then it gets one by a resharing to the same membership), and the
 * qualified dealers QUAL in increasing order.
 */
public record DkgResult(GroupKey group, KeyShare share, List<Integer> qualified) {
  public DkgResult {
    qualified = List.copyOf(qualified);
  }
}
