package org.bftws.core.engine;

import org.bftws.core.message.RequestId;

/** Observations of what the replica (or client) did, for logs and the simulator's checker. */
public sealed interface Event {
  /** A pre-prepare for (view, seq, digest) was accepted (sent, at the primary). */
  record PrePrepared(long view, long seq, byte[] digest) implements Event {}

  /** The batch (view, seq, digest) committed locally: 2f+1 matching commits (§4.2). */
  record Committed(long view, long seq, byte[] digest, java.util.List<org.bftws.core.message.Signed> batch)
      implements Event {}

  /**
   * BA algorithm (integrity paper §4): the batch committed at seq (batch digest d) with the random numbers
   * of this certified set S_R, which anyone recomputes with {@code pbft.BaRandomness#checkCertificate}.
   */
  record RandomnessAgreed(long seq, byte[] batchDigest, org.bftws.core.message.Signed certificate) implements Event {}

  /**
   * This replica's own checkpoint after seq has this ordering digest and execution digest ({@code
   * Checkpoint.NO_EXECUTION} at a replica that only orders, BFT-WS §3.3.2).
   */
  record CheckpointTaken(long seq, byte[] digest, byte[] executionDigest) implements Event {}

  /**
   * A checkpoint became stable (§4.3): 2f+1 matching ordering digests, among them f+1 matching execution
   * digests of executing replicas, whose value is {@code executionDigest} (NO_EXECUTION when none executes).
   */
  record CheckpointStable(long seq, byte[] digest, byte[] executionDigest) implements Event {}

  /** State transfer installed the proven checkpoint at seq (its execution part only at an executing replica). */
  record StateInstalled(long seq, byte[] digest, byte[] executionDigest) implements Event {}

  record ViewChangeStarted(long view) implements Event {}

  record ViewEntered(long view) implements Event {}

  /** Something a peer sent that a correct peer would not have: recorded, never fatal. */
  record Evidence(int node, String what) implements Event {}

  /**
   * Client side: a read-only request got no 2f+1 matching replies in time, or could no longer get them
   * (Castro-Liskov §5.1.3); its operation is sent again as an ordered request with this id.
   */
  record ReadOnlyFallback(RequestId request, String why) implements Event {}

  /** Client side: f+1 matching authentic replies were collected for this request (the Voter). */
  record Delivered(RequestId request, byte[] result, byte[] random) implements Event {}
}
