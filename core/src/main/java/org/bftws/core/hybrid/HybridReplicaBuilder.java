package org.bftws.core.hybrid;

import org.bftws.core.config.GroupConfig;
import org.bftws.core.crypto.Authenticators;
import org.bftws.core.crypto.Signer;
import org.bftws.core.crypto.Verifier;
import org.bftws.core.replication.CoinConfig;
import org.bftws.core.replication.RandomizedOperations;

/**
 * A {@link HybridReplica}'s builder: {@link #coin} is required (the fallback's binary agreements toss it); the
 * configurations hybrid ordering does not support are refused by {@link #build}.
 */
public final class HybridReplicaBuilder {
  private final GroupConfig cfg;
  private final int id;
  private final Signer signer;
  private final Verifier verifier;
  private CoinConfig coin;
  private RandomizedOperations operations = RandomizedOperations.AS_FLAGGED;
  private Authenticators macs;

  HybridReplicaBuilder(GroupConfig cfg, int id, Signer signer, Verifier verifier) {
    this.cfg = cfg;
    this.id = id;
    this.signer = signer;
    this.verifier = verifier;
  }

  /** The group's (n, f+1, f) threshold coin with this replica's key share (index id + 1). */
  public HybridReplicaBuilder coin(CoinConfig c) {
    this.coin = c;
    return this;
  }

  /** Which requests are randomized, alike on every replica. */
  public HybridReplicaBuilder operations(RandomizedOperations o) {
    this.operations = o;
    return this;
  }

  /**
   * With {@code bftws.authentication=macs}: the fast lane's PROPOSE, PREPARE and COMMIT envelopes carry this
   * replica's authenticators and are accepted by them (Castro-Liskov TOCS 2002 §3.2, as PBFT's prepares and
   * commits); what the fallback needs to show others stays signed (a PREPARE's share, a SWITCH, the
   * agreement). Null (the default): every envelope by its signature.
   */
  public HybridReplicaBuilder macs(Authenticators m) {
    this.macs = m;
    return this;
  }

  /**
   * @throws IllegalArgumentException without a coin, or with agreement-only replicas or execution nodes,
   *     which hybrid ordering does not support yet
   */
  public HybridReplica build() {
    if (cfg.separatesExecution() || !cfg.executionNodes().isEmpty()) {
      throw new IllegalArgumentException("bftws.executingReplicas and bftws.executionNodes are not supported "
          + "with hybrid ordering: every replica must order and execute");
    }
    if (coin == null) {
      throw new IllegalArgumentException("a hybrid replica needs the group's threshold coin: the fallback's "
          + "binary agreements toss it");
    }
    return new HybridReplica(cfg, id, signer, verifier, coin, operations, macs);
  }
}
