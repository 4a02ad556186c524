package org.bftws.core.testkit;

import java.util.ArrayList;
import java.util.List;
import org.bftws.core.engine.Journal;

/**
 * Each replica's journal as its embedding keeps it on disk (the module's {@code JournalStore}): the records of
 * {@code Ready.persist} appended in order, the file compacted at each {@link Journal.Type#STABLE} record
 * ({@link Journal#compact}). A crash keeps it; the forgetful control loses it.
 */
public final class JournalDisks {
  private final List<List<Journal.Record>> disks = new ArrayList<>();

  public JournalDisks(int n) {
    for (int i = 0; i < n; i++) {
      disks.add(new ArrayList<>());
    }
  }

  /** Replica i's journal as it stands on disk. */
  public List<Journal.Record> get(int i) {
    return disks.get(i);
  }

  /** One record replica i's step persisted. */
  public void append(int i, Journal.Record rec) {
    List<Journal.Record> journal = disks.get(i);
    journal.add(rec);
    if (rec.type() == Journal.Type.STABLE) {
      List<Journal.Record> kept = Journal.compact(journal);
      journal.clear();
      journal.addAll(kept);
    }
  }

  /** Replica i's freshly started engine on {@code harness} recovers from its journal: a restart with state. */
  public void recover(EngineHarness harness, int i) {
    harness.handle(i, harness.engine(i).recover(new ArrayList<>(disks.get(i))));
  }
}
