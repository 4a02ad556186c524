package org.bftws.core.message;

import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;

/**
 * A client request ⟨REQUEST, o, t, c⟩ (Castro-Liskov §4.1). The timestamp t is the WS-RM message number
 * within the client's sequence (BFT-WS §3.3.1.2), so a request is identified by (sequence id, message
 * number). {@code randomized} marks operations that receive a collective random number.
 */
public record Request(int client, String sequenceId, long messageNumber, boolean randomized, byte[] operation) {
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
