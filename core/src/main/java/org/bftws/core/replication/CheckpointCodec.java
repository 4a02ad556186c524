package org.bftws.core.replication;

import java.util.Arrays;
import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;
import org.bftws.core.codec.DecodeException;
import org.bftws.core.crypto.Digests;
import org.bftws.core.message.Checkpoint;
import org.bftws.core.replication.Checkpoints.Parts;

/**
 * The bytes of a checkpoint's two parts ({@link Checkpoints}; BFT-WS §3.3.2): the ordering part (tag, seq, the
 * client table's ordering part, and the engine's position where it has one, {@link Checkpoints.Host#position})
 * and the execution part (tag, seq, cached replies, application state). Every correct replica encodes them
 * alike, so their digests are what the checkpoint votes compare.
 */
public final class CheckpointCodec {
  private CheckpointCodec() {}

  /**
   * A checkpoint's parts after seq under {@code tag}: the client table's ordering part, and with {@code
   * appState} the execution part (cached replies and application state). Configuration III's execution nodes
   * ({@code pbft.ExecutionNode}) encode theirs alike, so their ordering digest is the agreement replicas'.
   */
  public static Parts encode(byte[] tag, long seq, ClientTable clients, byte[] appState) {
    ByteWriter w = new ByteWriter(256).raw(tag).i64(seq);
    clients.writeOrdering(w);
    byte[] ordering = w.toBytes();
    if (appState == null) {
      return new Parts(ordering, Digests.sha256(ordering), null, Checkpoint.NO_EXECUTION);
    }
    ByteWriter x = new ByteWriter(appState.length + 256).raw(tag).i64(seq);
    clients.writeReplies(x);
    byte[] execution = x.bytes(appState).toBytes();
    return new Parts(ordering, Digests.sha256(ordering), execution, Digests.sha256(execution));
  }

  /** {@code p} with the engine's position appended to its ordering part (unchanged if the position is empty). */
  static Parts withPosition(Parts p, byte[] position) {
    if (position.length == 0) {
      return p;
    }
    byte[] ordering = new ByteWriter(p.ordering().length + position.length + 8).raw(p.ordering()).bytes(position)
        .toBytes();
    return new Parts(ordering, Digests.sha256(ordering), p.execution(), p.executionDigest());
  }

  /**
   * Reads a checkpoint's parts ({@link #encode}) into {@code table}; the application state, or null without an
   * execution part.
   */
  public static byte[] decode(byte[] tag, long seq, byte[] ordering, byte[] execution, ClientTable table) {
    ByteReader o = header(tag, ordering, seq);
    table.readOrdering(o);
    if (!o.atEnd()) {
      o.bytes(); // the engine's position ({@link #withPosition})
    }
    o.end();
    if (execution == null) {
      return null;
    }
    ByteReader x = header(tag, execution, seq);
    table.readReplies(x);
    byte[] appState = x.bytes();
    x.end();
    return appState;
  }

  /** The engine's position in a checkpoint's ordering part ({@link #withPosition}); empty if it has none. */
  static byte[] position(byte[] tag, long seq, byte[] ordering) {
    ByteReader o = header(tag, ordering, seq);
    new ClientTable().readOrdering(o);
    return o.atEnd() ? new byte[0] : o.bytes();
  }

  /** A reader of one checkpoint part, past its tag and seq. */
  private static ByteReader header(byte[] tag, byte[] part, long seq) {
    ByteReader rd = new ByteReader(part);
    if (!Arrays.equals(rd.raw(tag.length), tag) || rd.i64() != seq) {
      throw new DecodeException("checkpoint header");
    }
    return rd;
  }
}
