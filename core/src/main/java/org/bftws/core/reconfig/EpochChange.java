package org.bftws.core.reconfig;

import java.nio.charset.StandardCharsets;
import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;
import org.bftws.core.codec.DecodeException;

/**
 * Where a membership epoch ends (docs/design/reconfiguration.md, "Where it takes effect"), decided from the
 * ordered history alone. A reconfiguration that executes at seq r in epoch e and is accepted makes c, the
 * first checkpoint seq at or above r (Castro-Liskov §4.3: a multiple of the checkpoint interval K), epoch e's
 * last seq: no batch above c executes in epoch e ({@link #executes}), and epoch e+1 begins once the checkpoint
 * at c is stable ({@link #onStable}). Every correct replica executes r before anything above it, so each knows
 * c before it could execute c+1. One reconfiguration per epoch: another one executed while one is pending is
 * refused, and being signed for epoch e it is refused in e+1 as well. This state belongs in the checkpoint's
 * ordering part ({@link #encode}), so a replica that catches up by state transfer learns it with the state.
 */
public final class EpochChange {
  /** The verdict on one executed reconfiguration: what its client is answered, and what it changed. */
  public record Verdict(boolean accepted, String message, Membership next, long lastSeq) {
    /** The reply's bytes: "accepted: ..." or "refused: ..." (UTF-8). */
    public byte[] reply() {
      return ((accepted ? "accepted: " : "refused: ") + message).getBytes(StandardCharsets.UTF_8);
    }
  }

  private final Administrators admins;
  private final byte[] groupId;
  private final int checkpointInterval;
  private Membership current;
  private Membership pending;
  private long lastSeq = -1;

  public EpochChange(Membership current, Administrators admins, byte[] groupId, int checkpointInterval) {
    if (checkpointInterval < 1) {
      throw new IllegalArgumentException("checkpoint interval " + checkpointInterval);
    }
    this.current = current;
    this.admins = admins;
    this.groupId = groupId.clone();
    this.checkpointInterval = checkpointInterval;
  }

  /** The first checkpoint seq at or above {@code seq}: the last seq of an epoch whose change executed at seq. */
  public static long boundary(long seq, int checkpointInterval) {
    return Math.floorDiv(seq + checkpointInterval - 1, checkpointInterval) * checkpointInterval;
  }

  /** The reconfiguration {@code operation} executed at {@code seq}: accepted (epoch ends at c) or refused. */
  public Verdict execute(long seq, byte[] operation) {
    if (pending != null) {
      return refused("epoch " + current.epoch() + " already ends at seq " + lastSeq + " (a reconfiguration to epoch "
          + pending.epoch() + " is pending)");
    }
    Membership next;
    try {
      next = Reconfigure.decode(operation).apply(current, admins, groupId);
    } catch (ReconfigurationException e) {
      return refused(e.getMessage());
    }
    pending = next;
    lastSeq = boundary(seq, checkpointInterval);
    return new Verdict(true, next + " from the stable checkpoint at seq " + lastSeq, next, lastSeq);
  }

  private static Verdict refused(String why) {
    return new Verdict(false, why, null, -1);
  }

  /** Whether the batch at {@code seq} executes in the current epoch: not above a pending change's last seq. */
  public boolean executes(long seq) {
    return pending == null || seq <= lastSeq;
  }

  /**
   * The checkpoint at {@code seq} is stable: the new membership when it ends the current epoch (seq at or above
   * its last seq), which becomes current; null otherwise.
   */
  public Membership onStable(long seq) {
    if (pending == null || seq < lastSeq) {
      return null;
    }
    current = pending;
    pending = null;
    lastSeq = -1;
    return current;
  }

  public Membership current() {
    return current;
  }

  /** The membership of the next epoch once a reconfiguration was accepted, else null. */
  public Membership pending() {
    return pending;
  }

  /** The current epoch's last seq once a reconfiguration was accepted, else −1. */
  public long lastSeq() {
    return lastSeq;
  }

  /** The state a checkpoint carries: the current membership and the pending one with its last seq. */
  public byte[] encode() {
    ByteWriter w = new ByteWriter().bytes(current.encode()).bool(pending != null);
    if (pending != null) {
      w.bytes(pending.encode()).i64(lastSeq);
    }
    return w.toBytes();
  }

  /** Replaces this state by a checkpoint's ({@link #encode}); {@link DecodeException} for other bytes. */
  public void restore(byte[] encoded) {
    ByteReader r = new ByteReader(encoded);
    Membership cur = Membership.decode(r.bytes());
    Membership next = null;
    long last = -1;
    if (r.bool()) {
      next = Membership.decode(r.bytes());
      last = r.i64();
      if (next.epoch() != cur.epoch() + 1 || last < 0) {
        throw new DecodeException("a pending membership of epoch " + next.epoch() + " after epoch " + cur.epoch());
      }
    }
    r.end();
    current = cur;
    pending = next;
    lastSeq = last;
  }
}
