package org.bftws.core.async;

import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;
import org.bftws.core.codec.DecodeException;

/**
 * The body of a {@link org.bftws.core.message.Kind#ASYNC} envelope: the instance it belongs to, a type code
 * that the instance's protocol defines (1..255), and that protocol's payload. Canonical: {@code
 * bytes(pid) || u8(type) || bytes(payload)}, nothing after. The envelope's Ed25519 signature covers all of it,
 * so a message is bound to its sender and its instance (SINTRA §2).
 */
public record AsyncMessage(Pid pid, int type, byte[] payload) {
  public AsyncMessage {
    if (type < 1 || type > 255) {
      throw new IllegalArgumentException("message type " + type + " outside 1..255");
    }
  }

  public byte[] encode() {
    byte[] p = pid.bytes();
    return new ByteWriter(p.length + payload.length + 16).bytes(p).u8(type).bytes(payload).toBytes();
  }

  /** Decodes a body from a peer; malformed bytes give {@link DecodeException} only. */
  public static AsyncMessage decode(byte[] body) {
    ByteReader r = new ByteReader(body);
    Pid pid = Pid.decode(r.raw(r.count(Pid.MAX_BYTES)));
    int type = r.u8();
    if (type == 0) {
      throw new DecodeException("message type 0");
    }
    byte[] payload = r.bytes();
    r.end();
    return new AsyncMessage(pid, type, payload);
  }
}
