package org.bftws.core.pbft;

import org.bftws.core.config.GroupConfig;

/**
 * What a replica does (BFT-WS §3.3.1–3.3.3). BOTH orders and executes: every replica of configuration I, and
 * the 2f+1 executing replicas of configuration II. AGREEMENT orders without executing or replying and holds
 * no service state, so its checkpoints have no execution part: the f other replicas of configuration II,
 * and configuration III's agreement replicas, which also hand each committed batch out for the execution
 * nodes (when no replica of the group executes). EXECUTION nodes, configuration III's, run no PBFT at all:
 * {@link ExecutionNode} executes the batches the agreement replicas certify.
 */
public enum Role {
  AGREEMENT, EXECUTION, BOTH;

  /**
   * The role the group's {@link GroupConfig#EXECUTING_REPLICAS} give replica {@code id}, or its {@link
   * GroupConfig#EXECUTION_NODES} node {@code id}.
   */
  public static Role of(GroupConfig cfg, int id) {
    return cfg.isExecutionNode(id) ? EXECUTION : cfg.executes(id) ? BOTH : AGREEMENT;
  }
}
