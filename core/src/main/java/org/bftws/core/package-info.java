/**
 * The BFT-WS protocol core: a pure, deterministic PBFT state machine (Castro-Liskov), its message codec,
 * its cryptography, keys and the client's voter. No threads, clocks, sockets, console or Axis2 types; the
 * seeded simulator that attacks it and the benchmarks live in the {@code sim} module ({@code org.bftws.sim}).
 */
package org.bftws.core;
