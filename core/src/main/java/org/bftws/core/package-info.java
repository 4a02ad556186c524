/**
 * The BFT-WS protocol core: a pure, deterministic PBFT state machine (Castro-Liskov), its message codec,
 * its cryptography, and the seeded simulator that attacks it. No threads, clocks, sockets or Axis2 types.
 */
package org.bftws.core;
