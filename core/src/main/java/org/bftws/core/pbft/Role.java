package org.bftws.core.pbft;

/**
 * What a replica does (BFT-WS §3.3.2–3.3.3). BOTH is configuration I. AGREEMENT replicas order and hand
 * each committed batch out for forwarding to execution nodes, without executing or replying; their
 * checkpoints cover the ordering state only (configuration III). EXECUTION nodes run no PBFT at all.
 */
public enum Role {
  AGREEMENT, EXECUTION, BOTH
}
