package org.bftws.core.hybrid;

import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;
import org.bftws.core.codec.DecodeException;
import org.bftws.core.crypto.Digests;

/**
 * Where the hybrid engine's ordering stood at a checkpoint's seq c, carried in the checkpoint's ordering part
 * ({@code replication.Checkpoints.Host#position}) so that its proof covers it: the epoch in which c was
 * delivered, that epoch's base (seq and digest) and the chain digest of the batch at c. The same at every
 * correct replica (every correct replica delivers the same batch at c in the same epoch, and every epoch's base
 * is decided by the fallback before it), so the checkpoint digest stays one value. A replica that installs the
 * checkpoint enters that epoch at once, knowing the chain's digest at c, instead of catching up on the
 * fallbacks in between one epoch at a time (docs/design/hybrid.md, "Catching up across epochs").
 */
record CheckpointPosition(long epoch, long base, byte[] baseDigest, byte[] digest) {
  byte[] encode() {
    return new ByteWriter(96).i64(epoch).i64(base).bytes(baseDigest).bytes(digest).toBytes();
  }

  static CheckpointPosition decode(byte[] bytes) {
    ByteReader r = new ByteReader(bytes);
    CheckpointPosition p = new CheckpointPosition(r.i64(), r.i64(), r.bytes(), r.bytes());
    r.end();
    if (p.epoch < 0 || p.base < 0 || p.baseDigest.length != Digests.LENGTH || p.digest.length != Digests.LENGTH) {
      throw new DecodeException("checkpoint position out of range");
    }
    return p;
  }
}
