package org.bftws.core.hybrid;

import java.util.List;
import java.util.TreeMap;
import org.bftws.core.async.Pid;
import org.bftws.core.engine.Journal;

/**
 * What a journaled hybrid replica writes besides its stable checkpoint (docs/journal.md "The hybrid engine").
 * A message that commits it in a slot of the fast lane ({@code hyb/e/s}: PROPOSE, PREPARE, COMMIT) is a {@link
 * Journal.Type#SIGNED} record at seq s, moot once a stable checkpoint covers s (Castro-Liskov TOCS 2002 §4.3).
 * Its SWITCH and its fallback agreement's messages ({@code hyb/e}, {@code hyb/e/mvba/...}) belong to no seq:
 * an epoch's fallback may go on however far the checkpoints move while the replica is in it. They are {@link
 * Journal.Type#VIEW_SIGNED} records at seq e, and after each {@link Journal.Type#STABLE} record a {@link
 * Journal.Type#VIEW} record names the epoch of that checkpoint: a restart re-enters no epoch below it (it
 * installs the checkpoint and enters its epoch), so only the records of epochs below it are moot.
 */
final class HybridJournal {
  /** Checkpoint seq to the epoch it was taken or installed in, above the last journaled stable one. */
  private final TreeMap<Long, Long> epochAt = new TreeMap<>();
  private boolean started;

  /** The replica journals from now on; before it, the other calls do nothing. */
  void start() {
    started = true;
  }

  boolean started() {
    return started;
  }

  /** The journal's seq for an instance: the slot for a lane slot, else the epoch (0 outside the epochs). */
  static long seqOf(Pid pid) {
    List<String> segments = pid.segments();
    if (segments.size() < 2 || !segments.get(0).equals(HybridReplica.ROOT.segments().get(0))) {
      return 0;
    }
    return Epoch.isSlot(pid) ? number(segments.get(2)) : number(segments.get(1));
  }

  /** An instance of an epoch that is not a lane slot: the epoch's own (SWITCH) or its agreement's. */
  static boolean byView(Pid pid) {
    List<String> segments = pid.segments();
    return segments.size() >= 2 && segments.get(0).equals(HybridReplica.ROOT.segments().get(0)) && !Epoch.isSlot(pid);
  }

  private static long number(String segment) {
    try {
      return Long.parseLong(segment);
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  /** A checkpoint taken (its batch's epoch) or installed (its position's) at seq. */
  void checkpoint(long seq, long epoch) {
    if (started) {
      epochAt.put(seq, epoch);
    }
  }

  /**
   * A {@link Journal.Type#VIEW} record with the epoch of the last {@link Journal.Type#STABLE} record in this
   * step's {@code persist}, appended after it: were it written first, a crash between the two would leave a
   * journal whose older checkpoint re-enters an epoch whose records compaction drops.
   */
  void afterStable(List<Journal.Record> persist) {
    for (int i = persist.size() - 1; i >= 0; i--) {
      Journal.Record r = persist.get(i);
      if (r.type() == Journal.Type.STABLE) {
        Long epoch = epochAt.get(r.seq());
        epochAt.headMap(r.seq()).clear();
        if (epoch != null) {
          persist.add(new Journal.Record(Journal.Type.VIEW, epoch, new byte[0]));
        }
        return;
      }
    }
  }
}
