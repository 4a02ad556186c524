package org.bftws.core.message;

import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;

/**
 * A client request ⟨REQUEST, o, t, c⟩ (Castro-Liskov §4.1). The timestamp t is the WS-RM message number
 * within the client's sequence (BFT-WS §3.3.1.2), so a request is identified by (sequence id, message
 * number). {@code randomized} marks operations that receive a collective random number.
 */
public record Request(int client, String sequenceId, long messageNumber, boolean randomized, byte[] operation) {
  /**
   * The message number of a sequence's terminate request (BFT-WS §3.3.1.1: the client ends its sequence
   * after its last message). It is the largest number a sequence can have, so once a terminate is ordered
   * nothing of that sequence is new any more: the client-table entry becomes a tombstone that refuses
   * replays, and the last reply it cached is dropped.
   */
  public static final long TERMINATE = Long.MAX_VALUE;

  /** The signed request ending {@code sequenceId}: no operation, not randomized. */
  public static Request terminate(int client, String sequenceId) {
    return new Request(client, sequenceId, TERMINATE, false, new byte[0]);
  }

  public boolean terminates() {
    return messageNumber == TERMINATE;
  }

  /**
   * The sequence id names a client other than {@code principal} ({@link SequenceOwner}): whom the signer acts
   * for, itself or, for a member of a replicated client (BFT-WS §3.4), that client's principal.
   */
  public boolean namesAnotherClientThan(int principal) {
    int owner = SequenceOwner.of(sequenceId);
    return owner != SequenceOwner.UNBOUND && owner != principal;
  }

  public byte[] encode() {
    return new ByteWriter(operation.length + sequenceId.length() + 32).i32(client).str(sequenceId)
        .i64(messageNumber).bool(randomized).bytes(operation).toBytes();
  }

  public static Request decode(byte[] body) {
    ByteReader r = new ByteReader(body);
    Request q = new Request(r.i32(), r.str(), r.i64(), r.bool(), r.bytes());
    r.end();
    return q;
  }

  public RequestId id() {
    return new RequestId(sequenceId, messageNumber);
  }
}
