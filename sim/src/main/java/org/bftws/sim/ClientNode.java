package org.bftws.sim;

import org.bftws.core.voter.ClientCore;

/** A simulated client: its voter and how far through its quota of requests the {@link Simulation} got it. */
final class ClientNode {
  final ClientCore core;
  final boolean byzantine;
  int quota;
  int issued;
  long issuedAt;
  /** Think time: the next request is issued no earlier, so requests spread over the fault phase. */
  long nextAt;
  int delivered;
  /** A correct client ends its sequence after its last reply (BFT-WS §3.3.1.1). */
  boolean terminated;

  ClientNode(ClientCore core, boolean byzantine) {
    this.core = core;
    this.byzantine = byzantine;
  }
}
