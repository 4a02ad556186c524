package org.bftws.core.message;

import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;

/**
 * ⟨REPLY, v, t, c, i, r⟩ (Castro-Liskov §4.1), with the request's (sequence id, message number) as t and,
 * for randomized operations, the collective random number delivered with the request (empty otherwise).
 */
public record Reply(long view, String sequenceId, long messageNumber, byte[] result, byte[] random) {
  public byte[] encode() {
    return new ByteWriter(result.length + 64).i64(view).str(sequenceId).i64(messageNumber).bytes(result)
        .bytes(random).toBytes();
  }

  public static Reply decode(byte[] body) {
    ByteReader r = new ByteReader(body);
    Reply p = new Reply(r.i64(), r.str(), r.i64(), r.bytes(), r.bytes());
    r.end();
    return p;
  }
}
